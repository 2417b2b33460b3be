"""The demo store the read-model commands are tested on (`verbale simulate matches --store`: two
demo tournaments, 35 matches), and what the store itself says of it, to check the commands'
numbers against the record rather than against the read models they come from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domain.record.events import MatchCreated, MatchEnded, TournamentCreated
from projections.store.app import MatchStore
from replay_web.cli import _register, cli
from tests.projections.conftest import Backend, make_backend


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """`verbale ARGS` in this process: exit code, standard output, standard error."""
    _register()
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def json_of(backend: Backend, *args: str) -> Any:
    """The `--json` answer of `verbale ARGS` on `backend`, which must succeed silently."""
    code, out, err = run(*args, "--json", "--database", backend.url)
    assert code == 0 and err == "", (code, out, err)
    return json.loads(out)


@dataclass(frozen=True)
class Demo:
    """A demo store and its events by stream (the domain's events, in order)."""

    backend: Backend
    events: dict[str, list[object]]

    @property
    def url(self) -> str:
        return self.backend.url

    def matches(self) -> dict[str, list[object]]:
        return {s: e for s, e in self.events.items() if isinstance(e[0], MatchCreated)}

    def tournaments(self) -> dict[str, TournamentCreated]:
        return {s: e[0] for s, e in self.events.items() if isinstance(e[0], TournamentCreated)}

    def created(self, stream: str) -> MatchCreated:
        first = self.events[stream][0]
        assert isinstance(first, MatchCreated)
        return first

    def result(self, stream: str) -> MatchEnded | None:
        """The last MatchEnded of the match: its result (a ruling may restate it)."""
        ended = [e for e in self.events[stream] if isinstance(e, MatchEnded)]
        return ended[-1] if ended else None


def stored_events(url: str) -> dict[str, list[object]]:
    store = MatchStore(url=url, read_only=True)
    try:
        return {str(s): [fact.to_domain() for fact in store.facts(s)] for s in store.streams()}
    finally:
        store.close()


def record_demo(kind: str, folder: Path) -> Iterator[Demo]:
    """The demo set recorded once into a new store of `kind`, removed afterwards."""
    for backend in make_backend(kind, folder):
        code, out, err = run("simulate", "matches", "--store", "--database", backend.url)
        assert code == 0, out + err
        yield Demo(backend, stored_events(backend.url))


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[Demo]:
    """The demo store, recorded once per test session and database: tests only read it."""
    yield from record_demo(request.param, tmp_path_factory.mktemp(f"demo-{request.param}"))
