"""The per-dealer view on /fairness and the printable fairness report (replay_web/web/
fairness_dealers.py), on SQLite and PostgreSQL: each dealer's rate and 99% interval drawn per
event against the exact probability, the tests grouped by their question after the headline,
the public's minimum population applied to the dealers, the print page and its PDF."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from replay_web.web.fairness_svg import DealerRow, dealers_svg
from tests.replay_web.demo import Demo, run
from tests.replay_web.web.conftest import as_arbiter

QUESTION = "Does any dealer get the 15, or another suspected event, more often than chance?"


def _whole(demo: Demo) -> dict[str, object]:
    code, out, err = run("fairness", "--json", "--database", demo.url)
    assert code == 0, out + err
    data: dict[str, object] = json.loads(out)
    return data


def test_every_dealer_has_his_point_and_interval_in_each_event_figure(
        client: FlaskClient, web_demo: Demo) -> None:
    html = as_arbiter(client).get("/fairness?lang=en").get_data(as_text=True)
    verified = _whole(web_demo)["verified"]
    assert isinstance(verified, dict)
    dealers = verified["dealers"]
    shown = {d["dealer"] for d in dealers["dealers"]}
    assert len(shown) >= 2
    block = html.split('id="verified-dealers"', 1)[1].split('<h3>', 1)[0]
    panels = re.findall(r'<figure class="dealer-panel" data-event="([^"]+)">(.*?)</figure>',
                        block, re.S)
    events = {c["event"] for c in dealers["cells"]}
    assert {event for event, _ in panels} == events
    for event, svg in panels:
        expected = {c["dealer"] for c in dealers["cells"] if c["event"] == event}
        points = set(re.findall(r'<circle [^>]*class="rate" data-dealer="([^"]+)"', svg))
        lines = set(re.findall(r'<line [^>]*class="interval" data-dealer="([^"]+)"', svg))
        assert {unescape(p) for p in points} == expected == {unescape(x) for x in lines}
        assert 'class="expected"' in svg and "<title>" in svg and "<desc>" in svg
    assert unescape(QUESTION) in unescape(html)
    assert "<script" not in html and " style=" not in html


def test_the_page_reads_headline_then_questions(client: FlaskClient) -> None:
    html = client.get("/fairness?lang=en").get_data(as_text=True)
    headline = html.index('id="fairness-headline"')
    questions = [m.start() for m in re.finditer(r'<h3 class="question"', html)]
    assert questions and headline < min(questions)
    assert "Is every card equally likely at every place in the deal?" in html
    assert 'id="verified-dealers-headline"' in html
    italian = client.get("/fairness?lang=it").get_data(as_text=True)
    assert "Ogni carta ha la stessa probabilità in ogni posto della distribuzione?" in italian
    assert "Qualche mazziere ha il 15" in italian


def test_the_public_sees_no_dealer_below_the_minimum_population(
        client: FlaskClient, web_demo: Demo) -> None:
    # the demo store's dealers have fewer deals each than the minimum population (40)
    whole = _whole(web_demo)["verified"]
    assert isinstance(whole, dict)
    small = [d["dealer"] for d in whole["dealers"]["dealers"] if d["deals"] < 40]
    assert small
    html = client.get("/fairness?lang=en").get_data(as_text=True)
    block = html.split('id="verified-dealers"', 1)[1].split('<h3>', 1)[0]
    for dealer in small:
        assert f'data-dealer="{dealer}"' not in block


def test_the_printable_report_and_its_pdf(client: FlaskClient) -> None:
    page = client.get("/fairness/print?lang=en&game=cirulla")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "fairness_print.css" in html and 'id="fairness-headline"' in html
    assert "Game: cirulla" in html
    assert html.index('id="fairness-headline"') < html.index('class="question"')
    assert "/fairness?" in html and "game=cirulla" in html   # back, same filters
    listing = client.get("/fairness?lang=en&game=cirulla").get_data(as_text=True)
    assert 'href="/fairness/print?' in listing and "game=cirulla" in listing
    pdf = client.get("/fairness.pdf?game=cirulla")
    assert pdf.status_code in (200, 503)   # 503: WeasyPrint's libraries missing, said so
    if pdf.status_code == 200:
        assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")


def test_a_bad_filter_on_the_print_page_is_a_400(client: FlaskClient) -> None:
    response = client.get("/fairness/print?since=2026-13-01")
    assert response.status_code == 400


@pytest.mark.parametrize("flagged", [True, False])
def test_the_dealer_figure_draws_each_row(flagged: bool) -> None:
    rows = [DealerRow("Anna", 0.10, 0.05, 0.18, False, False, "Anna: 10%"),
            DealerRow("Bruno", 0.20, 0.12, 0.30, flagged, False, "Bruno: 20%"),
            DealerRow("Carla & co", 0.0, 0.0, 0.5, False, True, "few")]
    svg = str(dealers_svg(rows, 0.0675, "the 15", "desc", "f", "rate"))
    for row in rows:
        name = row.label.replace("&", "&amp;")
        assert f'class="rate" data-dealer="{name}"' in svg
        assert f'class="interval" data-dealer="{name}"' in svg
    bruno = re.search(r'<circle [^>]*fill="([^"]+)"[^>]*data-dealer="Bruno"', svg)
    assert bruno is not None and (bruno.group(1) == "#b91c1c") == flagged
    assert re.search(r'<circle [^>]*fill="#fff"[^>]*data-dealer="Carla &amp; co"', svg)


def test_the_public_json_names_no_dealer_below_the_minimum(web_demo: Demo) -> None:
    code, out, err = run("fairness", "--json", "--public", "--database", web_demo.url)
    assert code == 0, out + err
    for population in ("verified", "transcribed"):
        dealers = json.loads(out)[population]["dealers"]
        assert all(d["deals"] >= dealers["minimum_deals"] for d in dealers["dealers"])
        assert all(c["n"] >= dealers["minimum_deals"] for c in dealers["cells"])
    whole = _whole(web_demo)["verified"]
    assert isinstance(whole, dict) and whole["dealers"]["dealers"]   # the owner sees them
