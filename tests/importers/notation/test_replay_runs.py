"""The replay's runs of plays (domain.record.plays_run) change nothing but the speed.

Each record is validated twice: as the importer does it, taking the plays the rules accept as
written in runs, and with the runs switched off, so that every play is decided alone through the
match record. The reports, the actions for the store and the record's state at the end must be
the same, over random recorded matches (both games, 2 and 4 players, incidents, rulings), their
partial records (cards nobody saw, no seed), the irregularity markers they carry, and plays
changed at random into plays the rules may refuse (another card, another capture, another seat).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from domain.record.plays_run import PlaysRun, decide_plays
from importers.notation import replay
from importers.notation.from_events import StoredEvent, written_from_events
from importers.notation.model import WrittenMatch, WrittenPlay
from importers.notation.reader import read
from tests.importers.notation.match_strategies import stored_matches
from tests.importers.notation.test_round_trip_partial import unseen_cards

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples"


@contextmanager
def runs_off() -> Iterator[None]:
    """Every play decided alone: the run takes nothing."""
    def nothing(state: object, moves: object, first: object, step: object) -> PlaysRun:
        return PlaysRun(state, ())  # type: ignore[arg-type]

    with mock.patch.object(replay, "decide_plays", nothing):
        yield


@contextmanager
def seeds_slowly() -> Iterator[None]:
    """Each deal from a written seed compared and acted step by step (`seeded_slowly`): the
    seed's deal derived by the replay, then again by DealSmazzata."""
    with mock.patch.object(replay._Replay, "seeded_at_once", replay._Replay.seeded_slowly):
        yield


def both_ways(match: WrittenMatch,
              slowly: Callable[[], AbstractContextManager[None]] = runs_off) -> None:
    fast = replay._Replay(match, "runs")
    fast.run()
    with slowly():
        slow = replay._Replay(match, "runs")
        slow.run()
    assert fast.validation(1) == slow.validation(1)
    assert fast.actions == slow.actions
    assert fast.state == slow.state
    assert fast.recorded == slow.recorded


@st.composite
def changed_plays(draw: st.DrawFn, match: WrittenMatch) -> WrittenMatch:
    """Some plays changed into others: a card, a capture, a seat, a marker dropped."""
    smazzate = list(match.smazzate)
    for _ in range(draw(st.integers(0, 3))):
        if not smazzate:
            break
        at = draw(st.integers(0, len(smazzate) - 1))
        moves = list(smazzate[at].moves)
        plays = [i for i, m in enumerate(moves) if isinstance(m, WrittenPlay)]
        if not plays:
            continue
        index = draw(st.sampled_from(plays))
        play = moves[index]
        assert isinstance(play, WrittenPlay)
        moves[index] = draw(st.one_of(
            st.builds(replace, st.just(play), card=st.sampled_from(DECK)),
            st.builds(replace, st.just(play),
                      capture=st.lists(st.sampled_from(DECK), max_size=3, unique=True)
                      .map(tuple)),
            st.builds(replace, st.just(play), seat=st.integers(0, 3)),
            st.just(replace(play, irregular=None)),
        ))
        smazzate[at] = replace(smazzate[at], moves=tuple(moves))
    return replace(match, smazzate=tuple(smazzate))


@given(stored_matches(), st.data())
def test_runs_change_nothing_on_recorded_matches(events: tuple[StoredEvent, ...],
                                                 data: st.DataObject) -> None:
    match = written_from_events(events)
    if data.draw(st.booleans()):
        match = data.draw(unseen_cards(match))
    both_ways(data.draw(changed_plays(match)))


@st.composite
def changed_seeds(draw: st.DrawFn, match: WrittenMatch) -> WrittenMatch:
    """Some smazzate's Seed or Dealer lines changed: another seed (whose deal is not the written
    one), a seed that is no seed, another dealer."""
    smazzate = list(match.smazzate)
    for _ in range(draw(st.integers(0, 2))):
        if not smazzate:
            break
        at = draw(st.integers(0, len(smazzate) - 1))
        smazzate[at] = draw(st.one_of(
            st.builds(replace, st.just(smazzate[at]),
                      seed=st.binary(min_size=32, max_size=32).map(bytes.hex)),
            st.builds(replace, st.just(smazzate[at]), seed=st.sampled_from(["00", "zz" * 32])),
            st.builds(replace, st.just(smazzate[at]), dealer=st.integers(0, 3))))
    return replace(match, smazzate=tuple(smazzate))


@given(stored_matches(), st.data())
def test_a_seeded_deal_derived_once_changes_nothing(events: tuple[StoredEvent, ...],
                                                    data: st.DataObject) -> None:
    match = data.draw(changed_seeds(written_from_events(events)))
    if data.draw(st.booleans()):
        match = data.draw(changed_plays(match))
    both_ways(match, seeds_slowly)


def test_runs_change_nothing_on_the_examples() -> None:
    for path in sorted(EXAMPLES.rglob("*.txt")):
        if "tarocchi" in path.parts:
            continue   # Tarocchi score sheets (importers/sheets), not the notation
        for match in read(path.read_text(encoding="utf-8"), path.name).matches:
            both_ways(match)
            both_ways(match, seeds_slowly)


@pytest.mark.parametrize("name", ["cirulla-2p-torneo.txt", "cirulla-4p-coppie.txt",
                                  "briscola-4p.txt"])
def test_the_runs_take_most_plays_of_a_clean_record(name: str) -> None:
    """What makes the comparisons above worth making: the runs do take the plays."""
    taken: list[int] = []

    def counted(state: Any, moves: Any, first: Any, step: Any) -> PlaysRun:
        run = decide_plays(state, moves, first, step)
        taken.append(len(run.taken))
        return run

    path = EXAMPLES / name
    (match, *_) = read(path.read_text(encoding="utf-8"), path.name).matches
    with mock.patch.object(replay, "decide_plays", counted):
        assert replay.validate(match, "runs").actions is not None
    plays = sum(isinstance(m, WrittenPlay) for s in match.smazzate for m in s.moves)
    assert sum(taken) >= 0.7 * plays, (sum(taken), plays)


def test_a_seed_that_does_not_give_the_written_deal_is_reported_alike() -> None:
    """What makes the seed comparison above worth making: a seed whose deal is not the written
    one is found either way (and the deal is then taken as written)."""
    path = EXAMPLES / "cirulla-2p-torneo.txt"
    (match, *_) = read(path.read_text(encoding="utf-8"), path.name).matches
    first, *rest = match.smazzate
    assert first.seed is not None
    wrong = replace(match, smazzate=(replace(first, seed=bytes(32).hex()), *rest))
    both_ways(wrong, seeds_slowly)
    checks = {f.check for f in replay.validate(wrong, "runs").report.findings}
    assert "seed" in checks


@pytest.mark.parametrize("name", ["cirulla-2p-torneo.txt", "cirulla-4p-coppie.txt"])
def test_the_runs_end_cirullas_smazzate(name: str) -> None:
    """What makes the comparisons above worth making for a smazzata's last play: a run takes
    it (the SmazzataEnded completed by the record), in every smazzata that ends as written."""
    ended: list[int] = []

    def counted(state: Any, moves: Any, first: Any, step: Any) -> PlaysRun:
        run = decide_plays(state, moves, first, step)
        ended.extend(1 for _, events in run.taken if type(events[-1]).__name__ in
                     ("SmazzataEnded", "MatchEnded"))
        return run

    path = EXAMPLES / name
    (match, *_) = read(path.read_text(encoding="utf-8"), path.name).matches
    with mock.patch.object(replay, "decide_plays", counted):
        validation = replay.validate(match, "runs")
    assert validation.actions is not None
    assert len(ended) == sum(score.ended for score in validation.report.smazzate) > 0
    both_ways(match)
