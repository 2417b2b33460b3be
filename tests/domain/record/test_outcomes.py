"""What a smazzata's and a match's end say about themselves (SmazzataEnded.outcome and
MatchEnded.settlement, docs/events.md), checked against what the record's own events show.

The piles, the last capture and the 61 of "vinco subito" are recomputed here from the play events
alone (deal, dealer's accuso, captures, tricks), not from the engine; the engine's final state of
each smazzata must agree as well. A version-1 record, which has neither field, still audits clean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.briscola.state import BriscolaState
from domain.cards import Card, Suit
from domain.cirulla.ruleset import STANDARD
from domain.cirulla.state import CirullaState
from domain.demo.matches import BOTS, NAMES, DemoMatch, demo_set, play_demo, reseeded, seeded_match
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    SmazzataDealt,
    SmazzataEnded,
    SmazzataOutcome,
    TrickTaken,
)
from domain.match_format import (
    BRISCOLA_SOGLIA,
    MatchFormat,
    SmazzataResult,
    match_points,
    match_status,
)
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG, parse_format
from domain.record.commands import RecordRuling
from domain.record.decide import decide
from domain.record.events import (
    ENDINGS,
    Abandoned,
    MatchCreated,
    MatchEnded,
    RulingRecorded,
    TimeoutRecorded,
)
from domain.record.match import MatchEvent, evolve, initial
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed
from tests.replacing import replace

START = datetime(2026, 11, 24, 22, 0, tzinfo=UTC)
DEMOS = demo_set(Seed(b"\x0c" * 16))
Recorded = list[tuple[MatchEvent, datetime]]

demos = st.builds(lambda i, b: reseeded(DEMOS[i], Seed(bytes([b, 0x70]) * 8)),
                  st.integers(0, len(DEMOS) - 1), st.integers(0, 255))
incidents = st.one_of(st.just(Incidents()), st.just(Incidents()),
                      st.builds(Incidents, timeout_at=st.integers(0, 60)),
                      st.builds(Incidents, abandon_at=st.integers(0, 60)),
                      st.builds(Incidents, ruling_after=st.integers(1, 40)))


def play(demo: DemoMatch, trouble: Incidents | None = None) -> Recorded:
    return play_demo(demo, START, trouble)[0]


@dataclass(frozen=True)
class Seen:
    """One smazzata as its play events show it."""

    ended: SmazzataEnded
    piles: tuple[list[Card], list[Card]]
    last_capture: int | None
    leftover: bool          # cards were left on the table after the last play
    trick_points: tuple[int, int]
    engine: object          # the engine's state right after SmazzataEnded


def smazzate(recorded: Recorded) -> list[Seen]:
    """Each ended smazzata, replayed from its events by hand (and folded by the record)."""
    seen: list[Seen] = []
    state = initial(CATALOG)
    table: list[Card] = []
    piles: tuple[list[Card], list[Card]] = ([], [])
    last: int | None = None
    points = [0, 0]
    for event, at in recorded:
        state = evolve(state, event, at)
        if isinstance(event, SmazzataDealt):
            # A redeal starts again: only the deal that stands is played.
            table, piles, last, points = list(event.table), ([], []), None, [0, 0]
        elif isinstance(event, AccusoDeclared) and event.kind in ("quindici", "trenta"):
            last = event.seat % 2           # the dealer takes the four table cards at once
            piles[last].extend(table)
            table = []
        elif isinstance(event, CardPlayed) and event.capture:
            last = event.seat % 2
            piles[last].extend((*event.capture, event.card))
            table = [c for c in table if c not in event.capture]
        elif isinstance(event, CardPlayed):
            table.append(event.card)
        elif isinstance(event, TrickTaken):
            last = event.seat % 2
            points[last] += event.points
        elif isinstance(event, SmazzataEnded):
            cut = event.outcome is not None and bool(event.outcome.unplayed)
            leftover = bool(table) and state.rules.name == "cirulla" and not cut
            if leftover and last is not None:
                piles[last].extend(table)
            seen.append(Seen(event, piles, last, leftover, (points[0], points[1]), state.game))
    return seen


def _denari(pile: Sequence[Card]) -> int:
    return sum(1 for card in pile if card.suit is Suit.DENARI)


def _created(recorded: Recorded) -> MatchCreated:
    created = recorded[0][0]
    assert isinstance(created, MatchCreated)
    return created


def check_cirulla(created: MatchCreated, seen: Seen) -> None:
    outcome = seen.ended.outcome
    assert outcome is not None and outcome.vinco_subito is None
    assert outcome.last_capture == seen.last_capture
    assert seen.ended.leftover_to == (seen.last_capture if seen.leftover else None)
    if seen.last_capture is not None:
        assert sorted(seen.piles[0] + seen.piles[1]) == sorted(set(seen.piles[0] + seen.piles[1]))
        taken = len(seen.piles[0]) + len(seen.piles[1])
        # A smazzata a cappotto cut short (C11) leaves cards unplayed and on the table.
        assert taken == 40 if not outcome.unplayed else taken + len(outcome.unplayed) < 40
    full = [side for side in (0, 1) if _denari(seen.piles[side]) == 10]
    assert outcome.cappotto == (full[0] if full else None)
    ends = created.match_format["cappotto_ends"] == "true"
    assert outcome.cappotto_ends_match is (ends and outcome.cappotto is not None)
    game = seen.engine
    assert isinstance(game, CirullaState)
    assert outcome.last_capture == game.last_capture_side
    assert [sorted(p) for p in seen.piles] == [sorted(p) for p in game.captured]


def check_briscola(created: MatchCreated, seen: Seen) -> None:
    outcome = seen.ended.outcome
    assert outcome is not None
    assert outcome.cappotto is None and outcome.cappotto_ends_match is False
    assert seen.ended.leftover_to is None
    assert outcome.last_capture == seen.last_capture
    assert seen.ended.scores == seen.trick_points
    reached = [side for side in (0, 1) if seen.trick_points[side] >= BRISCOLA_SOGLIA]
    if created.ruleset["vinco_subito"] == "true":
        assert outcome.vinco_subito == (reached[0] if reached else None)
    else:
        assert outcome.vinco_subito is None
    rows = [row[0] for row in seen.ended.breakdown]
    assert ("vinco subito" in rows) is (outcome.vinco_subito is not None)
    game = seen.engine
    assert isinstance(game, BriscolaState)
    assert outcome.vinco_subito == game.vinto_subito


def _result(ended: SmazzataEnded) -> SmazzataResult:
    outcome = ended.outcome
    assert outcome is not None
    return SmazzataResult(points=ended.scores, last_capture_side=outcome.last_capture,
                          cappotto_side=outcome.cappotto, vinco_subito_side=outcome.vinco_subito)


_HOW = {"target": "target", "punti": "points", "smazzate": "smazzate",
        "maggioranza certa": "smazzate", "parità": "smazzate", "cappotto": "cappotto",
        "vinco subito": "vinco subito", "timeout": "timeout", "abandon": "abandon"}


def check_settlements(recorded: Recorded) -> None:
    created = _created(recorded)
    fmt = parse_format(created.game, created.match_format)
    events = [e for e, _ in recorded]
    results = [_result(e) for e in events if isinstance(e, SmazzataEnded)]
    endings = [e for e in events if isinstance(e, MatchEnded)]
    assert endings
    first = endings[0]
    forfeit = any(isinstance(e, TimeoutRecorded | Abandoned) for e in events)
    ruled = any(isinstance(e, RulingRecorded) for e in events)
    for ended in endings:
        assert ended.settlement is not None and ended.settlement.how in ENDINGS
        assert ended.settlement.how == (first.settlement.how if first.settlement else None)
        assert ended.settlement.mp >= 0
    assert first.settlement is not None
    how = _HOW.get(first.reason, "spareggio" if "spareggio" in first.reason else first.reason)
    assert first.settlement.how == how
    unit = "smazzate" if created.game == "briscola" and fmt.kind.value == "smazzate" else "punti"
    assert first.settlement.unit == unit
    points, winner = first.settlement.points, first.winner
    if forfeit or ruled:
        # One unit per result: mp is the difference of the MP basis (points), in every ending.
        assert first.settlement.mp == (0 if winner is None else
                                       max(0, points[winner] - points[1 - winner]))
        assert unit == "smazzate" or first.scores == points
    else:
        status = match_status(fmt, results)
        assert status.over and (status.winner, status.totals) == (first.winner, first.scores)
        assert first.settlement.mp == match_points(fmt, results)


@given(demos, incidents)
@settings(max_examples=max(10, settings().max_examples // 2))
def test_every_end_carries_its_outcome_and_every_result_its_settlement(
        demo: DemoMatch, trouble: Incidents) -> None:
    recorded = play(demo, trouble)
    created = _created(recorded)
    seen = smazzate(recorded)
    assert len(seen) == sum(isinstance(e, SmazzataEnded) for e, _ in recorded)
    for one in seen:
        (check_cirulla if created.game == "cirulla" else check_briscola)(created, one)
    check_settlements(recorded)


def _cirulla_match(fmt: MatchFormat, seed: Seed) -> DemoMatch:
    return seeded_match("cirulla", fmt, STANDARD, NAMES[:4], seed)


def _seed_with_a_cappotto() -> Seed:
    """The first match seed (of a bounded search) whose first smazzata, played by the bots at 4,
    ends with one side holding all ten denari: about one smazzata in two hundred."""
    for n in range(5000):
        seed = Seed(n.to_bytes(16, "big"))
        recorded = play(_cirulla_match(MatchFormat.parse("1smazzate", "cirulla"), seed))
        (first, *_) = smazzate(recorded)
        if any(_denari(pile) == 10 for pile in first.piles):
            return seed
    raise AssertionError("no cappotto in 5000 smazzate")


CAPPOTTO = _seed_with_a_cappotto()


@pytest.mark.parametrize("fmt", [MatchFormat.parse("51pt", "cirulla", cappotto_ends=True),
                                 MatchFormat.parse("51pt", "cirulla"),
                                 MatchFormat.parse("1smazzate", "cirulla", cappotto_ends=True)])
def test_a_cappotto_is_in_the_outcome_and_ends_the_match_only_when_the_format_says_so(
        fmt: MatchFormat) -> None:
    recorded = play(_cirulla_match(fmt, CAPPOTTO))
    created = _created(recorded)
    first = smazzate(recorded)[0]
    check_cirulla(created, first)
    outcome = first.ended.outcome
    assert outcome is not None and outcome.cappotto is not None
    assert outcome.cappotto_ends_match is fmt.cappotto_ends
    check_settlements(recorded)
    (ended, *_) = [e for e, _ in recorded if isinstance(e, MatchEnded)]
    assert ended.settlement is not None
    if fmt.cappotto_ends:
        assert ended.smazzate == 1 and ended.winner == outcome.cappotto
        assert ended.settlement.how == "cappotto" and ended.reason == "cappotto"
    elif fmt.length == 51:
        assert ended.smazzate > 1 and ended.settlement.how == "target"
    assert audit(CATALOG, recorded).findings == ()


def _v1(recorded: Recorded) -> Recorded:
    """The record as class_version 1 wrote it: no outcome, no settlement."""
    older: Recorded = []
    for event, at in recorded:
        if isinstance(event, SmazzataEnded):
            event = replace(event, outcome=None)
        elif isinstance(event, MatchEnded):
            event = replace(event, settlement=None)
        older.append((event, at))
    return older


@given(demos, incidents)
@settings(max_examples=max(5, settings().max_examples // 4))
def test_a_version_1_record_without_outcomes_or_settlements_still_audits_clean(
        demo: DemoMatch, trouble: Incidents) -> None:
    recorded = play(demo, trouble)
    older = _v1(recorded)
    assert older != recorded
    report = audit(CATALOG, older)
    assert report.findings == () and report.pending is None
    assert report.state.result == next(e for e, _ in reversed(recorded)
                                       if isinstance(e, MatchEnded))


def test_a_wrong_outcome_or_settlement_in_a_version_2_record_is_a_failure() -> None:
    recorded = play(DEMOS[6], Incidents())
    index = next(i for i, (e, _) in enumerate(recorded) if isinstance(e, SmazzataEnded))
    ended, at = recorded[index]
    assert isinstance(ended, SmazzataEnded) and ended.outcome is not None
    wrong_outcome: SmazzataOutcome = replace(
        ended.outcome, cappotto_ends_match=not ended.outcome.cappotto_ends_match)
    last = max(i for i, (e, _) in enumerate(recorded) if isinstance(e, MatchEnded))
    result, result_at = recorded[last]
    assert isinstance(result, MatchEnded) and result.settlement is not None
    changed = list(recorded)
    changed[index] = (replace(ended, outcome=wrong_outcome), at)
    changed[last] = (replace(result, settlement=replace(result.settlement,
                                                        mp=result.settlement.mp + 1)), result_at)
    report = audit(CATALOG, changed)
    assert [(f.version, f.check, f.severity) for f in report.findings] == [
        (index + 1, "replay", Severity.FAILURE), (last + 1, "replay", Severity.FAILURE)]


@pytest.mark.parametrize("players", [2, 4])
def test_vinco_subito_names_the_side_that_reached_61_and_ends_the_match(players: int) -> None:
    fmt = MatchFormat.parse("punti", "briscola", vinco_subito=True)
    stopped = 0
    for n in range(8):
        recorded = play(seeded_match("briscola", fmt, None, NAMES[:players],
                                     Seed(bytes([n, players]) * 8)))
        created = _created(recorded)
        (one,) = smazzate(recorded)
        check_briscola(created, one)
        check_settlements(recorded)
        assert one.ended.outcome is not None
        side = one.ended.outcome.vinco_subito
        if side is not None:
            stopped += 1
            assert one.trick_points[side] >= BRISCOLA_SOGLIA > one.trick_points[1 - side]
            (ended,) = [e for e, _ in recorded if isinstance(e, MatchEnded)]
            assert ended.winner == side and ended.settlement is not None
            assert ended.settlement.how == "vinco subito"
    assert stopped > 0


def _ruled_after_the_end(demo: DemoMatch, trouble: Incidents,
                         to_winner: int) -> tuple[MatchEnded, MatchEnded]:
    """The match's result, and the result restated by an adjust-score ruling after the end
    giving `to_winner` points to the winning side."""
    table = Table(demo.match_seed, BOTS[demo.setup.game], trouble)
    final = None
    for _, at, state in play_locally(CATALOG, demo.setup, table, START):
        final, last_at = state, at
    assert final is not None and final.result is not None
    winner = final.result.winner
    assert winner is not None
    adjustment = (to_winner, 0) if winner == 0 else (0, to_winner)
    events = decide(final, RecordRuling("Rossi", "carta vista", "adjust-score",
                                        adjustment=adjustment), last_at + timedelta(minutes=5))
    restated = events[-1]
    assert isinstance(restated, MatchEnded)
    return final.result, restated


def test_a_ruling_after_a_regular_end_settles_the_adjusted_difference() -> None:
    result, restated = _ruled_after_the_end(DEMOS[4], Incidents(), 5)
    assert result.settlement is not None and restated.settlement is not None
    assert restated.reason == "ruling" and restated.settlement.how == result.settlement.how
    assert restated.scores[result.winner or 0] == result.scores[result.winner or 0] + 5
    assert restated.settlement.mp == abs(restated.scores[0] - restated.scores[1])


@pytest.mark.parametrize("index, trouble", [(0, Incidents(timeout_at=10)),
                                            (24, Incidents(abandon_at=9))])
def test_a_ruling_after_a_forfeit_settles_the_adjusted_difference(index: int,
                                                                 trouble: Incidents) -> None:
    result, restated = _ruled_after_the_end(DEMOS[index], trouble, 5)
    assert result.reason in ("timeout", "abandon") and result.winner is not None
    assert restated.settlement is not None
    assert restated.settlement.how == result.reason and restated.winner == result.winner
    winner = restated.winner
    assert winner is not None
    assert restated.settlement.mp == max(0, restated.scores[winner] - restated.scores[1 - winner])
