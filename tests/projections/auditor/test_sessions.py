"""The outside auditor's `sessions` check of a tournament's export (projections/auditor/
sessions.py, standard library only), against the store's own: a demo tournament's
export checks; a forged secret, path or public value in it is a problem; with the matches'
exports, a match seed the session does not give is one."""

from __future__ import annotations

import json
from uuid import UUID

import pytest

from domain.record.tournament_seeds import SessionSecrets, match_seed_of
from domain.shuffle import Seed
from projections.auditor.reading import read_export
from projections.auditor.report import FAILED, OK
from projections.auditor.sessions import check_sessions
from projections.store.app import MatchStore
from projections.store.export import export_jsonl
from tests.domain.record.toy import TOY_CATALOG
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, toy_setup

PUBLIC = "lotto 2026-11-30 Palermo: 05 17 33 48 81"


def _exported(backend: Backend, wrong_table: int | None = None) -> tuple[list[str], list[str]]:
    """A tournament of 2 sessions, round 1 with two matches, session 1 revealed: the export of
    the tournament and of its first match (`wrong_table`'s match commits to another seed)."""
    from dataclasses import replace
    from uuid import uuid4
    director = SessionSecrets((Seed(b"\x71" * 16), Seed(b"\x72" * 16)))
    reveal = director.revealed(1, PUBLIC)
    store = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    try:
        tournament = store.create_tournament("T", "toy", START, BY)
        committed = director.committed("the Lotto draw of 2026-11-30, Palermo wheel")
        store.commit_tournament_seeds(tournament, committed.root, 2, committed.reference,
                                      START, BY)
        first: UUID | None = None
        for table in (1, 2):
            seed = Seed(b"\x73" * 16) if table == wrong_table else match_seed_of(reveal, table)
            setup = replace(toy_setup(), tournament=str(tournament), round=1,
                            table=table, match_seed_commitment=seed.commitment())
            match = uuid4()
            store.schedule_and_create(tournament, match, setup, START, BY)
            first = first or match
        store.reveal_session(tournament, reveal, START, BY)
        assert first is not None
        return list(export_jsonl(store, tournament)), list(export_jsonl(store, first))
    finally:
        store.close()


def test_a_tournament_export_checks_its_sessions(backend: Backend) -> None:
    tournament, match = _exported(backend)
    sessions = check_sessions(read_export(tournament))
    assert (sessions.name, sessions.status) == ("sessions", OK)
    assert "2 sessions committed, 1 revealed" in sessions.summary
    assert len(sessions.notes) == 2   # the two tables' commitments, to compare by hand
    with_match = check_sessions(read_export(tournament), [read_export(match)])
    assert with_match.status == OK and len(with_match.notes) == 1


def test_a_match_seed_the_session_does_not_give_is_found(backend: Backend) -> None:
    tournament, match = _exported(backend, wrong_table=1)
    check = check_sessions(read_export(tournament), [read_export(match)])
    assert check.status == FAILED and "the revealed session gives" in check.problems[0]


@pytest.mark.parametrize("field", ["secret", "path", "public_value"])
def test_a_forged_reveal_is_found(backend: Backend, field: str) -> None:
    tournament, match = _exported(backend)
    lines = [json.loads(t) for t in tournament]
    reveal = next(r for r in lines if r["type"] == "SessionSeedRevealed")
    if field == "secret":
        reveal["data"]["secret"] = "74" * 16
    elif field == "path":
        reveal["data"]["path"] = ["00" * 32 for _ in reveal["data"]["path"]]
    else:
        reveal["data"]["public_value"] = "another draw"
    check = check_sessions(read_export(json.dumps(r) for r in lines), [read_export(match)])
    assert check.status == FAILED
    expected = {"secret": "does not give its commitment", "path": "does not lead",
                "public_value": "the revealed session gives"}[field]
    assert any(expected in p for p in check.problems), check.problems
