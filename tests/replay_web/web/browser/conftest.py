"""The browser tests' fixtures: the demo store served by waitress on a free port, and Debian's
`chromium` driven by Playwright (never a downloaded browser build: `.ci/run` installs the Debian
package when it is missing).

Without chromium or the playwright package the tests skip, saying why; under CI (CI=true) that
skip is a failure, as every skip there is.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

import pytest

from domain.record.events import MatchCreated, MatchEnded
from tests.replay_web.demo import run, stored_events
from tests.replay_web.web.conftest import close_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, ViewportSize

CHROMIUM = Path("/usr/bin/chromium")
SHARED_MEMORY = Path("/dev/shm")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
VIEWPORT: ViewportSize = {"width": 1280, "height": 900}
ARBITER = ("Arbitro", "una password lunga abbastanza")


@dataclass(frozen=True)
class Site:
    """The live viewer: its address, its store, the site secret and a few demo matches."""

    base: str
    database: str
    secret: bytes
    briscola: UUID
    """A two-player briscola match, ended."""
    cirulla: UUID
    """A two-player cirulla match, ended, with more than one smazzata."""
    ruled: UUID
    """Another such cirulla match: the one the ruling test writes to."""
    short: UUID
    """A two-player cirulla match of one smazzata: its verbale fits a screenshot."""

    def url(self, path: str) -> str:
        return self.base + path


def unavailable(reason: str) -> None:
    """Skip, saying why; fail instead under CI, where a skip is a failure."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: a skip is a failure)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is missing: pip install -e '.[dev]'")
        raise  # unreachable: unavailable() raises
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing: apt-get install chromium (Debian's package)")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    found = playwright_driver.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    yield found
    found.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page of its own context: no cookie (language, suits, login) from another test."""
    context = browser.new_context(viewport=VIEWPORT, locale="it-IT")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The demo store (verified), an arbiter account, the viewer served in a thread."""
    folder = _scratch(tmp_path_factory)
    try:
        yield from _serve(f"sqlite:///{folder / 'verbale.db'}")
    finally:
        if folder.is_relative_to(SHARED_MEMORY):
            shutil.rmtree(folder)


def _serve(database: str) -> Iterator[Site]:
    from waitress.server import create_server

    from projections.accounts import add_arbiter, site_secret
    from projections.arbiter_signing import give_key
    from replay_web.web.app import create_app

    for args in (("simulate", "matches", "--store"), ("verify", "--record")):
        code, out, err = run(*args, "--database", database)
        assert code == 0, out + err
    app = create_app(database)
    engine = app.extensions["verbale"].engine
    add_arbiter(engine, *ARBITER)
    give_key(app.extensions["verbale"].store, engine, *ARBITER)   # rulings are signed with it
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield Site(f"http://127.0.0.1:{server.effective_port}", database, site_secret(engine),
                   *_chosen_matches(database))
    finally:
        server.close()
        thread.join(timeout=5)
        close_app(app)


def _scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder in shared memory when the machine has one: the demo store commits once per
    action, and on a busy disk each commit's fsync costs more than the whole browser run."""
    if SHARED_MEMORY.is_dir() and os.access(SHARED_MEMORY, os.W_OK):
        return Path(tempfile.mkdtemp(prefix="verbale-browser-", dir=SHARED_MEMORY))
    return tmp_path_factory.mktemp("browser")


def _chosen_matches(database: str) -> tuple[UUID, UUID, UUID, UUID]:
    """Two-player matches, simulated, without the "carte viste" option, ended normally (not by
    abandon or timeout): a briscola and two cirulla matches of two smazzate or more, and a
    cirulla match of one smazzata."""
    found: dict[str, list[UUID]] = {"briscola": [], "cirulla": [], "short": []}
    for stream, events in stored_events(database).items():
        first, ended = events[0], [e for e in events if isinstance(e, MatchEnded)]
        if isinstance(first, MatchCreated) and len(first.players) == 2 \
                and first.provenance is not None and first.provenance.kind == "simulated" \
                and first.visibility is not None and not first.visibility.carte_viste \
                and ended and ended[-1].reason not in ("abandon", "timeout"):
            short = ended[-1].smazzate == 1 and first.game == "cirulla"
            found["short" if short else first.game].append(UUID(stream))
    return found["briscola"][0], found["cirulla"][0], found["cirulla"][1], found["short"][0]
