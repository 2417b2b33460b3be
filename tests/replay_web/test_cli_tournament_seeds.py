"""`verbale commit-seeds`, `session-seed`, `reveal-session` (a director's tournament seed
commitment, docs/shuffle.md section 15) and the demo tournaments' use of it, on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from uuid import UUID

from domain.record.events import SessionSeedRevealed, TournamentSeedsCommitted
from domain.record.tournament import TournamentState
from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START
from tests.verbale_cli import run


def _tournament(backend: Backend) -> UUID:
    store = MatchStore(url=backend.url)
    try:
        return store.create_tournament("Torneo di prova", "cirulla", START, BY)
    finally:
        store.close()


def _state(backend: Backend, tournament: UUID) -> TournamentState:
    store = MatchStore(url=backend.url, read_only=True)
    try:
        state = store.load_tournament(tournament).state
        assert isinstance(state, TournamentState)
        return state
    finally:
        store.close()


def test_a_director_commits_reveals_one_session_and_verify_checks_it(
        backend: Backend, tmp_path: Path) -> None:
    tournament = _tournament(backend)
    secrets = tmp_path / "secrets.json"
    code, out = run("commit-seeds", str(tournament), "--sessions", "3", "--reference",
                    "drand quicknet round 9999999", "--secrets", str(secrets),
                    "--database", backend.url)
    assert code == 0, out
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    written = json.loads(secrets.read_text())
    assert written["tournament"] == str(tournament) and len(written["secrets"]) == 3
    state = _state(backend, tournament)
    assert isinstance(state.seeds, TournamentSeedsCommitted)
    assert f"root {state.seeds.root}" in out and state.seeds.sessions == 3

    code, again = run("commit-seeds", str(tournament), "--sessions", "3", "--reference", "x",
                      "--secrets", str(secrets), "--database", backend.url)
    assert code == 2 and "never overwritten" in again
    assert json.loads(secrets.read_text()) == written

    code, seed = run("session-seed", "--session", "2", "--table", "1", "--public-value", "ab12",
                     "--secrets", str(secrets))
    assert code == 0 and seed.startswith("match seed "), seed

    code, out = run("reveal-session", str(tournament), "--session", "2", "--public-value",
                    "ab12", "--secrets", str(secrets), "--database", backend.url)
    assert code == 0, out
    reveal = _state(backend, tournament).revealed[2]
    assert isinstance(reveal, SessionSeedRevealed) and reveal.secret == written["secrets"][1]
    assert 1 not in _state(backend, tournament).revealed   # the others stay secret

    code, out = run("reveal-session", str(tournament), "--session", "3", "--public-value",
                    "ab13", "--secrets", str(secrets), "--database", backend.url)
    assert code == 2 and "was revealed with 'ab12'" in out
    code, out = run("verify", "--database", backend.url)
    assert code == 0, out


def test_the_secrets_of_another_tournament_are_refused(backend: Backend,
                                                       tmp_path: Path) -> None:
    first, second = _tournament(backend), _tournament(backend)
    secrets = tmp_path / "s.json"
    code, _ = run("commit-seeds", str(first), "--sessions", "1", "--reference", "r",
                  "--secrets", str(secrets), "--database", backend.url)
    assert code == 0
    code, out = run("reveal-session", str(second), "--session", "1", "--public-value", "v",
                    "--secrets", str(secrets), "--database", backend.url)
    assert code == 2 and f"the secrets of tournament {first}" in out


def test_the_demo_tournaments_commit_before_play_and_reveal_the_rounds_played(
        backend: Backend) -> None:
    for _ in range(2):
        code, out = run("simulate", "matches", "--count", "5", "--store", "--database",
                        backend.url)
        assert code == 0, out
    store = MatchStore(url=backend.url, read_only=True)
    try:
        tournaments = [s for s in store.streams()
                       if store.facts(s)[0].type == "TournamentCreated"]
        states = [store.load_tournament(s).state for s in tournaments]
        events = [[f.type for f in store.facts(s)] for s in tournaments]
    finally:
        store.close()
    assert len(states) == 2
    for state, types in zip(states, events, strict=True):
        assert types[:2] == ["TournamentCreated", "TournamentSeedsCommitted"]
        played = {r for r, _ in state.places}
        # Round 1's four tables are filled (matches 0-3), round 2 holds match 4 only: round 1
        # is revealed (once, after two runs), round 2 stays secret.
        assert set(state.revealed) == played & {1}
    code, out = run("verify", "--database", backend.url)
    assert code == 0, out
