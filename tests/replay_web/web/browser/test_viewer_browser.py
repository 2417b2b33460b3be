"""The viewer in a real browser (Debian's chromium through Playwright): the list and its
filters, stepping by keys and slider, the views and what each shows or hides, the suit and
language switches, the arbiter's login, panel and ruling form. The screenshots of
docs/screenshots/ come from here (VERBALE_SCREENSHOTS=1; otherwise they go to a temporary
folder, so that the pages are still drawn and measured)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

from replay_web.access import seat_token
from tests.replay_web.web.browser.conftest import ARBITER, Site

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

SUIT_SIGNS = re.compile("[♦♥♣♠]")
SCREENSHOTS = Path(__file__).resolve().parents[4] / "docs" / "screenshots"
MAX_SCREENSHOT_BYTES = 400_000


def expect_step(page: Page, step: int) -> None:
    """Wait for the page of `step`, and for its script: a key pressed before viewer.js runs
    would be lost."""
    from playwright.sync_api import expect
    expect(page.locator("#step")).to_have_attribute("data-step", str(step))
    page.wait_for_load_state("load")


def press(page: Page, key: str) -> None:
    """A key that leaves the page: wait for the next one (through redirects) to load."""
    with page.expect_navigation():
        page.keyboard.press(key)


def follow(page: Page, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def current_step(page: Page) -> int:
    return int(page.locator("#step").get_attribute("data-step") or "0")


def playing_step(page: Page, site: Site, match: UUID) -> int:
    """The first step with a card on the table and cards in every hand (from the JSON API)."""
    for step in range(1, 60):
        data = page.request.get(site.url(f"/api/matches/{match}/steps/{step}")).json()
        table = data["table"]
        if table["table"] and all(s["hand_size"] > 0 for s in table["seats"]):
            return step
    raise AssertionError(f"no step of {match} with cards on the table and in every hand")


def card_titles(page: Page, selector: str) -> list[str]:
    return page.locator(f"{selector} svg > title").all_text_contents()


def log_in(page: Page, site: Site) -> None:
    page.goto(site.url("/arbiter/login"))
    page.fill("input[name=name]", ARBITER[0])
    page.fill("input[name=password]", ARBITER[1])
    follow(page, "form.login-form button[type=submit]")
    assert page.locator("#login-error").count() == 0
    assert "/arbiter/login" not in page.url


def test_list_filter_open(page: Page, site: Site) -> None:
    page.goto(site.url("/"))
    assert page.locator("tr.match-row").count() > 0
    games = set(page.locator("tr.match-row td:nth-child(3)").all_inner_texts())
    assert games == {"briscola", "cirulla"}

    page.select_option("form.filters select[name=game]", "briscola")
    follow(page, "form.filters button[type=submit]")
    assert "game=briscola" in page.url
    rows = page.locator("tr.match-row")
    assert rows.count() > 0
    assert set(page.locator("tr.match-row td:nth-child(3)").all_inner_texts()) == {"briscola"}

    stream = rows.first.get_attribute("data-match")
    follow(page, f"tr.match-row[data-match='{stream}'] a.match-link")
    assert f"/matches/{stream}" in page.url
    assert page.locator("#step").get_attribute("data-match") == stream
    assert page.locator("#board .seat").count() in (2, 4)


def test_keyboard_and_slider(page: Page, site: Site) -> None:
    page.goto(site.url(f"/matches/{site.cirulla}?step=2"))
    last = int(page.locator("#step").get_attribute("data-last") or "0")
    assert last > 10
    press(page, "ArrowRight")
    expect_step(page, 3)
    press(page, "ArrowLeft")
    expect_step(page, 2)
    press(page, "End")
    expect_step(page, last)
    press(page, "Home")
    expect_step(page, 1)

    press(page, "ArrowDown")   # to the first deal
    first_deal = current_step(page)
    assert first_deal > 1
    press(page, "ArrowDown")   # to the second smazzata's deal
    assert current_step(page) > first_deal
    assert re.search(r"smazzata\s+2\b", page.inner_text("#board .where-in"))
    press(page, "ArrowUp")
    expect_step(page, first_deal)

    with page.expect_navigation():
        page.locator("#slider").fill("7")
    expect_step(page, 7)
    assert page.locator("#slider").input_value() == "7"


def test_help_and_turn(page: Page, site: Site) -> None:
    page.goto(site.url(f"/matches/{site.cirulla}?step=5"))
    assert page.locator("#help").is_hidden()
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    page.keyboard.press("?")
    assert page.locator("#help").is_hidden()

    assert "turned" not in (page.get_attribute("#board", "class") or "")
    page.keyboard.press("f")
    assert "turned" in (page.get_attribute("#board", "class") or "").split()
    press(page, "ArrowRight")   # the turned table stays turned on the next step
    expect_step(page, 6)
    assert "turned" in (page.get_attribute("#board", "class") or "").split()
    page.click("#turn")
    assert "turned" not in (page.get_attribute("#board", "class") or "").split()


def test_suits_switch_is_remembered(page: Page, site: Site, tmp_path: Path) -> None:
    step = playing_step(page, site, site.briscola)
    page.goto(site.url(f"/matches/{site.briscola}?step={step}"))
    italian = card_titles(page, "#table-cards")
    assert italian and all(" di " in t for t in italian)
    assert not SUIT_SIGNS.search(" ".join(italian))

    follow(page, "#suits-french")
    expect_step(page, step)
    french = card_titles(page, "#table-cards")
    assert len(french) == len(italian) and all(SUIT_SIGNS.search(t) for t in french)
    assert page.get_attribute("#suits-french", "aria-current") == "true"

    page.goto(site.url(f"/matches/{site.cirulla}?step={playing_step(page, site, site.cirulla)}"))
    assert all(SUIT_SIGNS.search(t) for t in card_titles(page, "#table-cards"))
    shoot(page, "match-public-french.png", tmp_path)

    follow(page, "#suits-italian")
    assert not SUIT_SIGNS.search(" ".join(card_titles(page, "#table-cards")))


def test_language_switch(page: Page, site: Site) -> None:
    page.goto(site.url(f"/matches/{site.briscola}?step=3"))
    assert page.get_attribute("html", "lang") == "it"
    follow(page, "header.site a[hreflang=en]")
    assert page.get_attribute("html", "lang") == "en"
    expect_step(page, 3)
    assert page.get_attribute("header.site a[hreflang=en]", "aria-current") == "true"
    page.goto(site.url("/"))   # remembered
    assert page.get_attribute("html", "lang") == "en"
    follow(page, "header.site a[hreflang=it]")
    assert page.get_attribute("html", "lang") == "it"


def test_public_view_hides_every_hand(page: Page, site: Site) -> None:
    step = playing_step(page, site, site.briscola)
    page.goto(site.url(f"/matches/{site.briscola}?step={step}&view=public"))
    hands = page.locator("#board .hand")
    assert hands.count() == 2
    for k in range(2):
        hand = hands.nth(k)
        assert hand.get_attribute("data-hidden") == "true"
        assert hand.locator("svg").count() > 0
        assert hand.locator("svg:not(.back)").count() == 0
    assert page.locator("#arbiter-panel").count() == 0
    assert page.locator("#view-arbiter").count() == 0


def test_seat_view_by_token(page: Page, site: Site, tmp_path: Path) -> None:
    step = playing_step(page, site, site.briscola)
    token = seat_token(site.secret, site.briscola, 0)
    page.goto(site.url(f"/matches/{site.briscola}?step={step}&view=seat1&token={token}"))
    own, other = page.locator("#seat1 .hand"), page.locator("#seat2 .hand")
    assert own.get_attribute("data-hidden") == "false"
    assert own.locator("svg.back").count() == 0 and own.locator("svg").count() > 0
    assert other.get_attribute("data-hidden") == "true"
    assert other.locator("svg:not(.back)").count() == 0 and other.locator("svg").count() > 0

    press(page, "ArrowRight")   # the token rides along with the step links
    expect_step(page, step + 1)
    assert f"token={token}" in page.url
    page.goto(site.url(f"/matches/{site.briscola}?step={step + 2}&view=seat1&token={token}"))
    shoot(page, "match-seat.png", tmp_path)

    for query in ("view=seat1", f"view=seat2&token={token}", "view=arbiter"):
        response = page.goto(site.url(f"/matches/{site.briscola}?step={step}&{query}"))
        assert response is not None and response.status == 403, query
        assert page.locator("#board").count() == 0 and page.locator("svg.card").count() == 0


def test_arbiter_sees_everything(page: Page, site: Site, tmp_path: Path) -> None:
    log_in(page, site)
    step = playing_step(page, site, site.cirulla)
    page.goto(site.url(f"/matches/{site.cirulla}?step={step}&view=arbiter"))
    panel = page.locator("#arbiter-panel")
    assert panel.is_visible()
    assert page.locator("#board .hand[data-hidden=true]").count() == 0
    assert page.locator("#board .hand svg.back").count() == 0
    assert page.locator("details.arbiter-stock svg").count() > 0
    legal = panel.locator("#legal")
    assert legal.count() == 1
    legal.locator("summary").click()
    assert legal.locator("li").count() >= 1
    assert page.locator("#clock").is_visible()
    assert page.locator("#view-seat1").count() == 1 and page.locator("#view-seat2").count() == 1
    shoot(page, "match-arbiter.png", tmp_path)

    follow(page, "#view-seat2")   # a logged-in arbiter opens any seat without its token
    assert "view=seat2" in page.url
    assert page.get_attribute("#seat2 .hand", "data-hidden") == "false"
    assert page.get_attribute("#seat1 .hand", "data-hidden") == "true"


def test_ruling_changes_the_score(page: Page, site: Site) -> None:
    """An arbiter adds a point to side 1 by the panel's form: the result shows the adjusted
    score. (Field names: templates/_ruling_form.html.)"""
    log_in(page, site)
    match_url = site.url(f"/matches/{site.ruled}?view=arbiter&lang=en")
    page.goto(match_url)
    before = page.inner_text("#result")
    scores = re.search(r"(\d+)–(\d+)", before)
    assert scores is not None and "adjustment" not in before
    form = page.locator("#arbiter-panel form#ruling")
    fill_ruling(form)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert page.locator("#ruling-errors").count() == 0
    page.goto(match_url)
    after = page.inner_text("#result")
    assert f"{int(scores[1]) + 1}–{scores[2]}" in after and "adjustment 1/0" in after


def fill_ruling(form: Locator) -> None:
    """An 'adjust-score' ruling of +1 to side 1."""
    form.locator("[name=reason]").fill("Punto non contato (prova del browser)")
    form.locator("input[name=kind][value=adjust-score]").check()
    form.locator("input[name=side1]").fill("1")
    form.locator("input[name=side2]").fill("0")
    form.locator("[name=sign_password]").fill(ARBITER[1])   # the ruling is signed with it


def test_verbale_page(page: Page, site: Site, tmp_path: Path) -> None:
    log_in(page, site)
    page.goto(site.url(f"/matches/{site.short}?view=arbiter"))
    head = page.inner_text("#arbiter-panel code.hash")
    response = page.goto(site.url(f"/matches/{site.short}/verbale"))
    assert response is not None and response.status == 200
    assert head in page.inner_text("body")
    shoot(page, "verbale.png", tmp_path)


def test_list_screenshot(page: Page, site: Site, tmp_path: Path) -> None:
    page.goto(site.url("/"))
    shoot(page, "list.png", tmp_path)


def shoot(page: Page, name: str, tmp_path: Path) -> None:
    """A full-page screenshot, into docs/screenshots with VERBALE_SCREENSHOTS=1 (else into
    `tmp_path`), no larger than the docs can carry."""
    folder = SCREENSHOTS if os.environ.get("VERBALE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    page.screenshot(path=str(target), full_page=True)
    size = target.stat().st_size
    assert size < MAX_SCREENSHOT_BYTES, f"{name}: {size} bytes"
