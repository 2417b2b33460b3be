"""The /fairness page in chromium: drawn with its figures, no console error, the filters' form
submitted by the browser. The screenshots docs/screenshots/fairness.png (the headline and the
table of tests) and fairness-figure.png (a figure with its method, n, p-value and verdict) come
from here with VERBALE_SCREENSHOTS=1 (else into a temporary folder)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from tests.replay_web.web.browser.conftest import Site
from tests.replay_web.web.browser.test_viewer_browser import MAX_SCREENSHOT_BYTES, SCREENSHOTS

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_the_fairness_page_in_a_browser(page: Page, site: Site, tmp_path: Path) -> None:
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.goto(site.url("/fairness?lang=en"))
    headline = page.inner_text("#fairness-headline")
    assert "deals" in headline and "Benjamini-Hochberg" in headline
    figure = page.locator("#figure-slots")
    box = figure.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 300
    assert page.locator("article.test svg").count() >= 6
    _shoot(page, "fairness.png", tmp_path)
    page.goto(site.url("/fairness?lang=en#verified-slots"))
    _shoot(page, "fairness-figure.png", tmp_path)
    page.select_option("select[name=game]", "briscola")
    with page.expect_navigation():
        page.click("#fairness-filters button[type=submit]")
    assert "game=briscola" in page.url
    assert page.locator("tr[data-test^='event/cirulla']").count() == 0
    # the demo store's 14 Briscola deals are fewer than the public's minimum population (40):
    # the page says so and shows no test of them (docs/fairness.md, "What the public sees")
    assert page.locator("tr[data-test^='event/briscola']").count() == 0
    assert page.locator("#verified-too-few").count() == 1
    assert not [e for e in errors if "favicon" not in e and "404" not in e], errors


def _shoot(page: Page, name: str, tmp_path: Path) -> None:
    folder = SCREENSHOTS if os.environ.get("VERBALE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    page.screenshot(path=str(target), full_page=False)
    assert target.stat().st_size < MAX_SCREENSHOT_BYTES
