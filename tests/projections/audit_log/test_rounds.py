"""The rounds the audit log checkpoints (projections/audit_log/rounds.py): a round is over when
every match scheduled in it has ended (SQLite and PostgreSQL), and a round's checkpoint covers
it when its heads hold every match of the round (a property over any files kept)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from hypothesis import given
from hypothesis import strategies as st

from domain.record.commands import RecordRuling
from domain.record.events import MatchResumed
from domain.record.simulate import Incidents, Table
from domain.shuffle import Seed
from projections.audit_log.leaves import StreamHead, heads_text
from projections.audit_log.proofs import heads_path
from projections.audit_log.rounds import Round, covering, round_file, round_files, rounds_of
from projections.store.app import MatchStore
from tests.projections.store.recording import BY, START, play_into, toy_bot, toy_setup
from tests.replacing import replace


def _scheduled(store: MatchStore, tournament: UUID, place: tuple[int, int], seed: int,
               stop_after: int | None) -> UUID:
    match = UUID(int=place[0] * 100 + place[1])
    setup = replace(toy_setup(), tournament=str(tournament), round=place[0], table=place[1])
    store.schedule_and_create(tournament, match, setup, START, BY)
    play_into(store, match, Table(Seed(bytes([seed]) * 16), toy_bot, Incidents()), stop_after)
    return match


def test_a_round_is_over_when_every_match_of_it_has_ended(store: MatchStore) -> None:
    tournament = store.create_tournament("Torneo di prova", "toy", START, BY)
    store.create_tournament("Torneo vuoto", "toy", START, BY)     # no round: not listed
    first = _scheduled(store, tournament, (1, 1), 1, None)
    second = _scheduled(store, tournament, (1, 2), 2, None)
    going = _scheduled(store, tournament, (2, 1), 3, 0)   # created, nothing played yet
    rounds = rounds_of(store)
    assert [(r.tournament, r.name, r.number, r.matches, r.in_play, r.over) for r in rounds] == [
        (tournament, "Torneo di prova", 1, (first, second), (), True),
        (tournament, "Torneo di prova", 2, (going,), (going,), False)]
    assert rounds_of(store, UUID(int=7)) == []
    assert store.load(going).state.phase.name != "ENDED"
    play_into(store, going, Table(Seed(bytes([3]) * 16), toy_bot, Incidents()))
    assert store.load(going).state.phase.name == "ENDED"
    assert [(r.number, r.over) for r in rounds_of(store, tournament)] == [(1, True), (2, True)]



def test_a_match_resumed_by_a_ruling_puts_its_round_back_in_play(store: MatchStore) -> None:
    tournament = store.create_tournament("Torneo di prova", "toy", START, BY)
    first = _scheduled(store, tournament, (1, 1), 1, None)
    assert [r.over for r in rounds_of(store)] == [True]
    ended = store.load(first).state
    ruling = RecordRuling("Rossi", "carte viste", "annul-smazzata",
                          smazzata=ended.ended[-1].number)
    store.execute(first, ruling, START + timedelta(hours=3), BY)
    assert isinstance(store.facts(first)[-1].to_domain(), MatchResumed)
    assert [(r.in_play, r.over) for r in rounds_of(store)] == [((first,), False)]


streams = st.integers(1, 6).map(lambda n: UUID(int=n))


@given(st.sets(streams, min_size=1, max_size=4),
       st.lists(st.one_of(st.none(), st.sets(streams, max_size=6)), max_size=4))
def test_the_latest_checkpoint_whose_heads_hold_the_round_covers_it(
        tmp_path_factory: Any, matches: set[UUID], kept: list[set[UUID] | None]) -> None:
    """`kept`: the round's checkpoint files in order, each with the streams of its heads
    (None: no heads beside it)."""
    where: Path = tmp_path_factory.mktemp("rounds")
    found = Round(UUID(int=99), "t", 3, tuple(sorted(matches)), ())
    for nth, heads in enumerate(kept, start=1):
        path = round_file(where, found, nth)
        path.write_text("checkpoint\n", encoding="utf-8")
        if heads is not None:
            heads_path(path).write_text(heads_text(
                StreamHead(s, 1, "0" * 64) for s in sorted(heads, key=lambda s: s.hex)),
                encoding="utf-8")
    files = round_files(where, found)
    assert files == [round_file(where, found, n) for n in range(1, len(kept) + 1)]
    assert len({f.name for f in files}) == len(files)
    holding = [f for f, heads in zip(files, kept, strict=True)
               if heads is None or heads >= matches]
    assert covering(where, found) == (holding[-1] if holding else None)
