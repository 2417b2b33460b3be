"""`settled_vp`: the VP and MP of a match read from its MatchEnded settlement, with no replay,
equal those the table gives its results (match_vp) or its forfeit (forfeit_vp), for matches
recorded through the record: target, smazzate, cappotto, timeouts and abandons."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from domain.briscola.scoring import unawarded_points as briscola_unawarded
from domain.cirulla.forfeit import awarded_points, unawarded_points
from domain.cirulla.ruleset import STANDARD as CIRULLA_STANDARD
from domain.demo.matches import BOTS, NAMES, seeded_match
from domain.match_format import MatchFormat, match_status
from domain.penalty import Forfeit, forfeit
from domain.record.catalog import CATALOG
from domain.record.events import ENDINGS, Abandoned, MatchEnded, TimeoutRecorded
from domain.record.match import MatchEvent, MatchState, Phase
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed
from domain.vp_table import (
    MatchVp,
    VpTableError,
    cappotto_vp,
    forfeit_vp,
    match_vp,
    settled_vp,
)
from tests.domain.record.test_forfeit_phases import regular_points

START = datetime(2026, 11, 24, 22, 0, tzinfo=UTC)


def cirulla(text: str, **options: bool) -> MatchFormat:
    return MatchFormat.parse(text, "cirulla", vp=True, **options)


def briscola(text: str, **options: bool) -> MatchFormat:
    return MatchFormat.parse(text, "briscola", vp=True, **options)


# --- from the settlement alone ----------------------------------------------------------------

def test_a_draw_is_10_10_and_no_mp() -> None:
    assert settled_vp(cirulla("2sm"), None, "smazzate", 0) == MatchVp((10, 10), (0, 0))


def test_a_win_reads_the_table_for_the_winner_side() -> None:
    """The issue's example: 21pt won by 13 MP is 16-4."""
    assert settled_vp(cirulla("21pt"), 1, "target", 13) == MatchVp((4, 16), (-13, 13))
    assert settled_vp(briscola("3sm"), 0, "smazzate", 70) == MatchVp((18, 2), (70, -70))


def test_a_cappotto_is_the_cappotto_row_whatever_the_mp() -> None:
    """000 C11: "vince con il massimo numero di VP ... e il corrispondente numero minimo di MP"."""
    assert settled_vp(cirulla("21pt"), 0, "cappotto", 3) == MatchVp((19, 1), (21, -21))


def test_a_forfeit_is_c13_with_the_loser_guilty() -> None:
    """C13: the guilty line 0 VP, the other at least 14; MP from the rows' minimums."""
    assert settled_vp(cirulla("21pt"), 0, "timeout", 0) == MatchVp((14, 0), (8, -21))
    assert settled_vp(cirulla("21pt"), 1, "abandon", 24) == MatchVp((0, 19), (-21, 21))
    assert settled_vp(cirulla("21pt"), 0, "abandon", 0, mirror_mp=True) == MatchVp(
        (14, 0), (8, -8))


def test_v5_a_51pt_forfeit_giving_17_vp_has_mp_22() -> None:
    assert settled_vp(cirulla("51pt"), 0, "timeout", 24) == MatchVp((17, 0), (22, -33))


def test_a_format_with_no_vp_column_has_no_vp() -> None:
    fmt = MatchFormat.parse("5sm", "briscola")
    assert settled_vp(fmt, 0, "smazzate", 40) is None


def test_an_unknown_ending_or_side_is_refused() -> None:
    with pytest.raises(VpTableError, match="not 'pareggio'"):
        settled_vp(cirulla("21pt"), 0, "pareggio", 3)
    with pytest.raises(VpTableError, match="side 0 or 1"):
        settled_vp(cirulla("21pt"), 2, "target", 3)


@given(st.sampled_from(ENDINGS), st.sampled_from((0, 1)), st.integers(0, 120))
def test_vp_are_20_except_after_a_forfeit_0_and_at_least_14(how: str, winner: int,
                                                             mp: int) -> None:
    """000/004: VP sum to 20; after a timeout or abandon the guilty line makes 0 and the other
    at least 14."""
    fmt = cirulla("21pt") if how == "cappotto" else briscola("3sm")
    settled = settled_vp(fmt, winner, how, mp)
    assert settled is not None
    if how in ("timeout", "abandon"):
        assert settled.vp[1 - winner] == 0 and settled.vp[winner] >= 14
    else:
        assert sum(settled.vp) == 20 and sum(settled.mp) == 0
        assert settled.vp[winner] >= 10


# --- through recorded matches ------------------------------------------------------------------

FORMATS = (cirulla("7pt"), cirulla("11pt"), cirulla("21pt"), cirulla("2sm"),
           cirulla("11pt", cappotto_ends=True), cirulla("7pt", cappotto_ends=True),
           briscola("punti"), briscola("1sm"), briscola("3sm"),
           briscola("2sm", smazzate_pari=True), briscola("punti", vinco_subito=True))


def recorded(fmt: MatchFormat, seed: bytes, players: int,
             incidents: Incidents) -> list[tuple[tuple[MatchEvent, ...], MatchState, MatchState]]:
    """Every action of a bot match as the record decided it, with the states around it."""
    ruleset = CIRULLA_STANDARD if fmt.game == "cirulla" else None
    demo = seeded_match(fmt.game, fmt, ruleset, NAMES[:players], Seed(seed))
    actions, before = [], None
    for events, _at, after in play_locally(CATALOG, demo.setup,
                                           Table(demo.match_seed, BOTS[fmt.game], incidents),
                                           START):
        if before is not None:
            actions.append((events, before, after))
        before = after
    return actions


def rebuilt_forfeit(before: MatchState, seat: int) -> Forfeit:
    """The Forfeit domain.penalty computes for that timeout or abandon, from the state before
    it (the record's reading: the smazzata in progress, or a fresh one between smazzate)."""
    assert before.setup is not None and before.seating is not None
    fmt = before.setup.match_format
    guilty = before.seating.side_of(seat)
    results = list(before.counted())
    points = list(regular_points(fmt, results))
    in_play = before.phase is Phase.PLAY
    game = before.game if in_play else before.setup.initial()
    if in_play and match_status(fmt, results).next_tiebreak == 0:
        made = awarded_points(game) if fmt.game == "cirulla" else game.points
        points = [points[0] + made[0], points[1] + made[1]]
    unawarded = (unawarded_points(game, guilty) if fmt.game == "cirulla"
                 else briscola_unawarded(game))
    return forfeit(fmt.game, (max(points[0], 0), max(points[1], 0)), guilty, unawarded)


def incidents() -> st.SearchStrategy[Incidents]:
    return st.one_of(
        st.just(Incidents()),
        st.builds(Incidents, timeout_at=st.integers(0, 40)),
        st.builds(Incidents, abandon_at=st.integers(0, 40)),
        st.builds(Incidents, abandon_between=st.tuples(
            st.integers(0, 1), st.sampled_from(("commit", "deal")), st.integers(0, 1))))


@settings(max_examples=40)
@given(st.sampled_from(FORMATS), st.binary(min_size=16, max_size=16), st.sampled_from((2, 4)),
       incidents())
def test_the_settlement_gives_the_vp_of_the_results_or_of_the_forfeit(
        fmt: MatchFormat, seed: bytes, players: int, trouble: Incidents) -> None:
    actions = recorded(fmt, seed, players, trouble)
    ended = [e for events, _, _ in actions for e in events if isinstance(e, MatchEnded)][-1]
    assert ended.settlement is not None
    settled = settled_vp(fmt, ended.winner, ended.settlement.how, ended.settlement.mp)
    forfeits = [(events[0], before) for events, before, _ in actions
                if isinstance(events[0], TimeoutRecorded | Abandoned)]
    event(f"{fmt.game} ended by {ended.settlement.how}")
    if not forfeits:
        assert settled == match_vp(fmt, actions[-1][2].counted())
        return
    ((fact, before),) = forfeits
    penalty = rebuilt_forfeit(before, fact.seat)
    # domain/penalty.py's point difference is what the record settles as MP.
    assert penalty.point_difference == ended.settlement.mp
    assert penalty.final_totals == ended.settlement.points
    assert ended.winner == penalty.winner
    winner_vp, guilty_vp, winner_mp, guilty_mp = forfeit_vp(fmt, penalty)
    expected = ((winner_vp, guilty_vp), (winner_mp, guilty_mp))
    assert settled is not None
    assert (settled.vp, settled.mp) == (expected if penalty.winner == 0 else
                                        tuple(pair[::-1] for pair in expected))


def test_a_recorded_cappotto_settles_as_the_cappotto_row() -> None:
    """Seeds until a bot match ends by cappotto (C11: the match ends at once)."""
    fmt = cirulla("7pt", cappotto_ends=True)
    for index in range(300):
        actions = recorded(fmt, index.to_bytes(16, "big"), 2, Incidents())
        ended = [e for events, _, _ in actions for e in events if isinstance(e, MatchEnded)][-1]
        assert ended.settlement is not None and ended.winner is not None
        if ended.settlement.how == "cappotto":
            break
    else:
        pytest.skip("no cappotto in 300 bot matches")
    settled = settled_vp(fmt, ended.winner, "cappotto", ended.settlement.mp)
    assert settled == match_vp(fmt, actions[-1][2].counted())
    assert settled is not None and settled.vp[ended.winner] == cappotto_vp(fmt)[0] == 17
