"""The /fairness page (replay_web/web/fairness.py) over the demo store, on SQLite and
PostgreSQL: public, the same numbers as `verbale fairness --json`, every test with its method,
n, p-value and verdict, the figures as inline SVG with no script and no style attribute, the
filters as a GET form, bad filters said on the page."""

from __future__ import annotations

import json
import re
from html import unescape

from flask.testing import FlaskClient

from projections.fairness.questions import report_order
from tests.replay_web.demo import Demo, run
from tests.replay_web.web.conftest import as_arbiter


def _page(client: FlaskClient, query: str = "") -> str:
    response = client.get(f"/fairness?lang=en{query}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _cli(demo: Demo, *args: str) -> dict[str, object]:
    """The report as the public sees it (`--public`: the page is public)."""
    code, out, err = run("fairness", *args, "--json", "--public", "--database", demo.url)
    assert code == 0, out + err
    data: dict[str, object] = json.loads(out)
    return data


def _tests(html: str, section: str = "verified") -> list[str]:
    block = html.split(f'id="battery-{section}"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<tr class="[a-z]*" data-test="([^"]+)">', block)


def test_the_page_is_public_and_agrees_with_the_command(client: FlaskClient,
                                                        web_demo: Demo) -> None:
    html = _page(client)
    data = _cli(web_demo)
    verified = data["verified"]
    assert isinstance(verified, dict)
    headline = re.search(r'id="fairness-headline">([^<]+)<', html)
    assert headline is not None and unescape(headline.group(1)) == data["headline"]
    ran = [t for t in verified["tests"] if t["n"] > 0]
    # grouped by the question they answer, in the report's order (questions.py)
    assert _tests(html) == sorted((t["name"] for t in ran), key=report_order)
    for test in ran:
        article = html.split(f'id="verified-{test["name"]}"', 1)[1].split("</article>", 1)[0]
        assert unescape(test["method"]) in unescape(article)
        assert f"<dd>{test['n']}</dd>" in article
        assert unescape(test["verdict"]) in unescape(article)
    assert f"{verified['deals']} deals tested" in html


def test_every_figure_is_inline_svg_with_a_title(client: FlaskClient) -> None:
    # the whole report (an arbiter's): the demo store's 32 deals of 2-seat Cirulla are too few
    # for the public's heat map by seat
    html = _page(as_arbiter(client))
    for figure in ("figure-slots", "figure-slot-scan", "figure-adjacent",
                   "verified-events", "verified-wins", "verified-runs"):
        assert f'id="{figure}"' in html
    assert re.search(r'id="figure-seats/cirulla/2/[a-z-]+"', html)
    svgs = re.findall(r"<svg .*?</svg>", html, re.S)
    assert len(svgs) >= 6
    assert all("<title>" in svg and "<desc>" in svg for svg in svgs)
    assert "<script" not in html and " style=" not in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_the_filters_are_the_command_s_filters(client: FlaskClient, web_demo: Demo) -> None:
    html = _page(client, "&game=briscola&dealer=1")
    data = _cli(web_demo, "--game", "briscola", "--dealer", "1")
    verified = data["verified"]
    assert isinstance(verified, dict) and verified["deals"] > 0
    assert f"{verified['deals']} deals tested" in html
    assert '<option value="briscola" selected>' in html
    assert not any(name.startswith("event/cirulla") for name in _tests(html))
    ruled = _page(client, "&ruleset=redeal%3Dtre-re&game=cirulla")
    assert all("[redeal=due-assi]" not in name and "[redeal=mai]" not in name
               for name in _tests(ruled))


def test_bad_filters_are_said_and_nothing_is_tested(client: FlaskClient) -> None:
    html = _page(client, "&since=2026-02-30&ruleset=redeal&alpha=2")
    errors = re.findall(r"<li>([^<]+)</li>", html.split('id="fairness-errors"', 1)[1])
    assert len(errors) == 3
    assert 'id="fairness-headline"' not in html


def test_nothing_selected_says_nothing_was_tested(client: FlaskClient) -> None:
    html = _page(client, "&until=2000-01-01")
    assert "nothing was tested" in html
    assert 'id="battery-verified"' in html and not _tests(html)


def test_the_page_is_in_italian_by_default(client: FlaskClient) -> None:
    response = client.get("/fairness")
    assert response.status_code == 200
    assert '<html lang="it">' in response.get_data(as_text=True)


def test_a_selection_narrowed_to_a_few_deals_shows_nothing_per_position(
        client: FlaskClient) -> None:
    """Issue 23 point 5: the demo store's deals of alternata deal order are two; the page
    over them says the selection is too small, in English and in Italian, and shows no test,
    no figure, no verdict naming a card (before: every heat map of the two deals)."""
    html = _page(client, "&ruleset=deal_order%3Dalternata")
    assert "minimum of 40" in html and "nothing is shown per position" in html
    assert "<svg" not in html and 'id="figure-' not in html and not _tests(html)
    assert "standard deviations" not in html and "farthest" not in html
    italian = client.get("/fairness?lang=it&ruleset=deal_order%3Dalternata")
    assert "minimo di 40" in italian.get_data(as_text=True)


def test_a_test_over_too_few_deals_is_left_out_of_the_whole_store_s_page(
        client: FlaskClient) -> None:
    """The whole demo store has more than 40 deals, but its one deal of 2-seat Cirulla dealt
    alternata had its own card-by-seat test and heat map: left out, and said."""
    html = _page(client)
    assert "seats/cirulla/2/alternata" not in _tests(html)
    assert 'id="figure-seats/cirulla/2/alternata"' not in html
    withheld = html.split('id="fairness-withheld"', 1)[1].split("</p>", 1)[0]
    assert "seats/cirulla/2/alternata" in withheld
    assert all(int(n) >= 40 for n in re.findall(r"<dt>n</dt><dd>(\d+)</dd>", html))


def test_a_logged_in_arbiter_sees_the_whole_report(client: FlaskClient) -> None:
    arbiter = as_arbiter(client)
    html = arbiter.get("/fairness?lang=en&ruleset=deal_order%3Dalternata").get_data(
        as_text=True)
    assert 'id="figure-slots"' in html and "minimum of 40" not in html
