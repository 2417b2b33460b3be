"""`verbale verify` of a tournament's seeds, on SQLite and PostgreSQL: a clean tournament whose
session is revealed verifies; a match whose seed its revealed session does not give, a match
created before the commitment and a forged reveal are each a finding naming what is wrong."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

from domain.record.commands import CreateMatch
from domain.record.events import SessionSeedRevealed
from domain.record.tournament import ScheduleMatch
from domain.record.tournament_seeds import SessionSecrets, match_seed_of
from domain.shuffle import Seed
from projections.store.app import MatchStore, stored_stream
from projections.verify.streams import verify_store
from projections.verify.verdicts import Verdict
from tests.projections.store.recording import BY, START, toy_setup
from tests.replacing import replace

PUBLIC = "drand quicknet 4242: 9f3c"


def _tournament(store: MatchStore, director: SessionSecrets) -> UUID:
    tournament = store.create_tournament("Torneo", "toy", START, BY)
    committed = director.committed("drand quicknet round 4242")
    store.commit_tournament_seeds(tournament, committed.root, committed.sessions,
                                  committed.reference, START, BY)
    return tournament


def _setup(tournament: UUID, table: int, commitment: str | None) -> CreateMatch:
    return replace(toy_setup(), tournament=str(tournament), round=1, table=table,
                   match_seed_commitment=commitment)


def _tournament_verdict(store: MatchStore, tournament: UUID) -> Verdict:
    return next(v for v in verify_store(store) if v.stream == tournament)


def test_a_revealed_session_whose_matches_follow_from_it_verifies(store: MatchStore) -> None:
    director = SessionSecrets((Seed(b"\x31" * 16), Seed(b"\x32" * 16)))
    tournament = _tournament(store, director)
    reveal = director.revealed(1, PUBLIC)
    for table in (1, 2):
        promised = match_seed_of(reveal, table).commitment()
        store.schedule_and_create(tournament, uuid4(), _setup(tournament, table, promised),
                                  START + timedelta(minutes=1), BY)
    store.reveal_session(tournament, reveal, START + timedelta(hours=1), BY)
    verdict = _tournament_verdict(store, tournament)
    assert verdict.problems == ()


def test_a_match_seed_the_session_does_not_give_is_a_finding(store: MatchStore) -> None:
    director = SessionSecrets((Seed(b"\x41" * 16),))
    tournament = _tournament(store, director)
    wrong = Seed(b"\x42" * 16).commitment()
    match = uuid4()
    store.schedule_and_create(tournament, match, _setup(tournament, 1, wrong),
                              START + timedelta(minutes=1), BY)
    store.reveal_session(tournament, director.revealed(1, PUBLIC), START + timedelta(hours=1),
                         BY)
    (problem,) = _tournament_verdict(store, tournament).problems
    assert problem.check == "tournament-seeds"
    assert str(match) in problem.message and wrong in problem.message
    assert "revealed session 1 gives" in problem.message


def test_a_match_created_before_the_commitment_is_a_finding(store: MatchStore) -> None:
    director = SessionSecrets((Seed(b"\x51" * 16),))
    later = START + timedelta(hours=2)
    tournament = store.create_tournament("Torneo", "toy", START, BY)
    committed = director.committed("a draw")
    store.commit_tournament_seeds(tournament, committed.root, 1, "a draw", later, BY)
    match = store.create_match(_setup(tournament, 1, None), START + timedelta(hours=1), BY)
    store.schedule(tournament, ScheduleMatch(1, 1, str(match)), later, BY)   # its seed was known
    problems = _tournament_verdict(store, tournament).problems
    assert [p.check for p in problems] == ["tournament-seeds"]
    assert "created before the seeds were committed" in problems[0].message


def test_a_forged_reveal_in_the_record_is_a_finding(store: MatchStore) -> None:
    """A reveal written behind the aggregate's back (another public value's path is fine, but
    the secret is not the committed one): verify re-decides it and names it."""
    director = SessionSecrets((Seed(b"\x61" * 16), Seed(b"\x62" * 16)))
    tournament = _tournament(store, director)
    honest = director.revealed(1, PUBLIC)
    forged = SessionSeedRevealed(1, Seed(b"\x63" * 16).hex, honest.commitment, honest.path,
                                 PUBLIC)
    loaded = store.load_tournament(tournament)
    rows, _ = stored_stream(tournament, loaded.version, loaded.head,
                            [(forged, START + timedelta(hours=1), BY)])
    store._insert(rows)
    (problem,) = _tournament_verdict(store, tournament).problems
    assert problem.version == 3 and "does not give the commitment" in problem.message
