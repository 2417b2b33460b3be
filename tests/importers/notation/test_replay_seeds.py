"""A deal from a written seed derived once (`seeded_at_once`) reads as the same deal compared and
acted step by step (`seeded_slowly`, what the replay does when the commitment or the deal is
refused): the reports, the actions for the store, the state at the end and the events are the
same, over random recorded matches whose Seed or Dealer lines are changed (and some plays), and
over the examples.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from importers.notation import replay
from importers.notation.from_events import StoredEvent, written_from_events
from importers.notation.model import WrittenMatch, WrittenPlay
from importers.notation.reader import read
from tests.importers.notation.match_strategies import stored_matches
from tests.replacing import replace

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples"


@contextmanager
def seeds_slowly() -> Iterator[None]:
    """Each deal from a written seed compared and acted step by step (`seeded_slowly`): the
    seed's deal derived by the replay, then again by DealSmazzata."""
    with mock.patch.object(replay._Replay, "seeded_at_once", replay._Replay.seeded_slowly):
        yield


def both_ways(match: WrittenMatch) -> None:
    fast = replay._Replay(match, "seeds")
    fast.run()
    with seeds_slowly():
        slow = replay._Replay(match, "seeds")
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
    both_ways(match)


def test_a_seeded_deal_reads_alike_on_the_examples() -> None:
    for path in sorted(EXAMPLES.rglob("*.txt")):
        if "tarocchi" in path.parts:
            continue   # Tarocchi score sheets (importers/sheets), not the notation
        for match in read(path.read_text(encoding="utf-8"), path.name).matches:
            both_ways(match)


def test_a_seed_that_does_not_give_the_written_deal_is_reported_alike() -> None:
    """What makes the seed comparison above worth making: a seed whose deal is not the written
    one is found either way (and the deal is then taken as written)."""
    path = EXAMPLES / "cirulla-2p-torneo.txt"
    (match, *_) = read(path.read_text(encoding="utf-8"), path.name).matches
    first, *rest = match.smazzate
    assert first.seed is not None
    wrong = replace(match, smazzate=(replace(first, seed=bytes(32).hex()), *rest))
    both_ways(wrong)
    checks = {f.check for f in replay.validate(wrong, "seeds").report.findings}
    assert "seed" in checks
