"""The Tarocchi tournament page in chromium (docs/tarocchi.md, "The viewer"): the example
tournament served by waitress, its standings, tables and findings drawn with no console error,
a player's paper form opened from it. The screenshot docs/screenshots/tarocchi-torneo.png comes
from here with VERBALE_SCREENSHOTS=1 (else into a temporary folder)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.replay_web.web.browser.test_viewer_browser import MAX_SCREENSHOT_BYTES, SCREENSHOTS
from tests.replay_web.web.conftest import close_app
from tests.verbale_cli import run

if TYPE_CHECKING:
    from playwright.sync_api import Page

EXAMPLE = Path(__file__).parents[4] / "docs" / "examples" / "tarocchi" / "torneo-12.txt"


@pytest.fixture(scope="module")
def tournament_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The base URL of a viewer over a store holding the example tournament, and its id."""
    from waitress.server import create_server

    from replay_web.web.app import create_app

    database = f"sqlite:///{tmp_path_factory.mktemp('tarocchi') / 'verbale.db'}"
    code, out = run("tournament", "import", str(EXAMPLE), "--database", database)
    assert code == 0, out
    stream = out.strip().splitlines()[-1].split()[6]
    app = create_app(database)
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", stream
    finally:
        server.close()
        thread.join(timeout=5)
        close_app(app)


def test_the_tournament_page_in_a_browser(page: Page, tournament_site: tuple[str, str],
                                          tmp_path: Path) -> None:
    base, stream = tournament_site
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    failed: list[str] = []
    page.on("response", lambda response: failed.append(response.url)
            if response.status >= 400 and not response.url.endswith("/favicon.ico") else None)
    page.goto(f"{base}/tournaments?lang=en")
    page.click("#tournament-list a")
    assert page.url.endswith(f"/tournaments/{stream}")
    page.goto(f"{base}/tournaments/{stream}?lang=en")
    assert page.inner_text("#tournament-name") == "Torneo di Caltagirone"
    final = page.locator("#standings-table-4 tbody tr")
    assert final.count() == 12
    box = page.locator("#standings-table-4").bounding_box()
    assert box is not None and box["width"] > 500
    assert page.locator("#tables-1 tbody tr").count() == 3
    assert page.locator("#findings-table tbody tr").count() == 7
    folder = SCREENSHOTS if os.environ.get("VERBALE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "tarocchi-torneo.png"
    page.screenshot(path=str(target), full_page=False)
    assert target.stat().st_size < MAX_SCREENSHOT_BYTES
    page.click("ul.sheets li:first-child a")
    assert "Scheda Punteggio Giocatore" in page.inner_text("h1")
    assert page.locator("#sheet-lines tbody tr").count() >= 16
    assert not failed, failed
    assert not [e for e in errors if "404" not in e], errors   # the browser's favicon.ico
