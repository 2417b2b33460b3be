"""003 art. 9: standings and the tie-break order; art. 3: seating by them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.tarocchi.commands import ImposePenalty, RevealSorteggio, SeatTurn
from domain.tarocchi.decide import TarocchiRefused, decide
from domain.tarocchi.schedule import by_bands, by_standing
from domain.tarocchi.sheet import Roles
from domain.tarocchi.standings import Line, precedes, standings, strict_order
from tests.domain.tarocchi.builders import SORTEGGIO_SEED, Hand, drawn, play_turn, run, write

lines = st.builds(Line, number=st.integers(1, 40), name=st.just("x"),
                  points=st.integers(-5, 5), plus=st.integers(0, 6), minus=st.integers(0, 6),
                  solita=st.integers(0, 2), extra=st.integers(0, 4), lot=st.integers(0, 39))


def distinct_lots(found: list[Line]) -> list[Line]:
    return [Line(k + 1, "x", a.points, a.plus, a.minus, a.solita, a.extra, k)
            for k, a in enumerate(found)]


@given(st.lists(lines, min_size=2, max_size=12).map(distinct_lots))
def test_the_tie_break_order_is_a_total_order(entrants: list[Line]) -> None:
    """Art. 9's criteria, the draw last, rank any two entrants one way: exactly one of a<b,
    b<a holds for distinct entrants (the lots differ), and the order is transitive."""
    for a in entrants:
        assert not precedes(a, a)
        for b in entrants:
            if a is not b:
                assert precedes(a, b) != precedes(b, a)
            for c in entrants:
                if precedes(a, b) and precedes(b, c):
                    assert precedes(a, c)


@given(lines, lines)
def test_each_criterion_decides_only_when_the_ones_before_are_equal(a: Line, b: Line) -> None:
    """Art. 9: "passando a quello successivo in caso di persistente parità"."""
    criteria = [(x.points, x.difference, x.plus, x.solita, x.extra, x.lot or 0) for x in (a, b)]
    first = next((k for k in range(6) if criteria[0][k] != criteria[1][k]), None)
    if first is not None:
        assert precedes(a, b) == (criteria[0][first] > criteria[1][first])


HAND_A = Hand(Roles(1, 2), (("RIM", 1), ("RE", 1)), (("VAN", 1),))          # N and O win 2-1
HAND_B = Hand(Roles(solista=3, solista_cards=15), (("RIM", 1),), ())        # S alone wins 1-0
HAND_C = Hand(Roles(2, 4), (), (("VAN", 1), ("PIC", 2)))                    # O and E lose 0-3
HAND_D = Hand(Roles(solista=4, solista_cards=5), (("VAN", 1),), (("RIM", 1),))  # E alone 1-1


def test_a_turn_computed_by_hand() -> None:
    """Points are DIFF x MOLT less penalties. Turn I of 8 places, each table playing the
    smazzate A, B, C, D in order (1 North, 2 West, 3 South, 4 East at table A; 5-8 at B):

    | player | A: N+W call 2-1 | B: S solo15 1-0 | C: W+E call 0-3 | D: E solo5 1-1 | pts | + | - |
    | N 1, 5 | +1              | -1              | +3              | 0              | 3   | 6 | 3 |
    | W 2, 6 | +1              | -1              | -3              | 0              | -3  | 3 | 6 |
    | S 3, 7 | -1              | +3 (x3)         | +3              | 0              | 5   | 6 | 3 |
    | E 4, 8 | -1              | -1              | -3              | 0 (x6)         | -5  | 2 | 7 |

    Number 7 is penalised 2 (8.e): 3 points, level with 1 and 5, and with them on + - (3) and +
    (6); art. 9.3, a solità faced with a non-negative result (B), puts 7 above them; 1 and 5 are
    level on everything but the draw."""
    state = play_turn(drawn(8), 1, [HAND_A, HAND_B, HAND_C, HAND_D])
    state = run(state, ImposePenalty(7, 1, 2, "associazione", "prosegue", "Arbitro", "segno"))
    table = {line.number: (line.points, line.plus, line.minus, line.solita)
             for line in standings(state, 1)}
    assert table == {1: (3, 6, 3, 0), 2: (-3, 3, 6, 0), 3: (5, 6, 3, 1), 4: (-5, 2, 7, 1),
                     5: (3, 6, 3, 0), 6: (-3, 3, 6, 0), 7: (3, 6, 3, 1), 8: (-5, 2, 7, 1)}
    ranks = [(line.number, line.rank) for line in standings(state, 1)]
    assert ranks[:4] == [(3, 1), (7, 2), (1, 3), (5, 3)]
    assert strict_order(state, 1) is None
    revealed = run(state, RevealSorteggio(SORTEGGIO_SEED))
    order = strict_order(revealed, 1)
    assert order is not None and order[:2] == (3, 7) and set(order[2:4]) == {1, 5}
    lots = {line.number: line.lot for line in standings(revealed, 1)}
    assert order[2] == max((1, 5), key=lambda n: lots[n] or 0)


def test_seating_by_provisional_standings_and_bands() -> None:
    """Art. 3: the top four of the provisional standings at table A, North to East; the final
    turn by bands."""
    state = play_turn(drawn(8, recomposition="classifica", final="fasce"), 1,
                      [HAND_A, HAND_B, HAND_C, HAND_D])
    with pytest.raises(TarocchiRefused, match="reveal the tie-break seed first"):
        decide(state, SeatTurn(2))
    state = run(state, RevealSorteggio(SORTEGGIO_SEED), SeatTurn(2))
    order = strict_order(state, 1)
    assert order is not None
    assert state.turns[1].tables == by_standing(order) and state.turns[1].order == order
    for turn in (2, 3):
        state = run(play_turn(state, turn, [HAND_B, HAND_D, HAND_A, HAND_C]), SeatTurn(turn + 1))
    final = strict_order(state, 3)
    assert final is not None and state.turns[3].tables == by_bands(final)
    assert state.turns[3].basis == "fasce"


def test_a_turn_is_seated_only_once_the_previous_is_complete() -> None:
    """Art. 5: "Alla fine di ogni Turno i responsabili di ogni tavolo consegnano al Responsabile
    del Torneo le schede compilate"."""
    state = drawn(8)
    table = state.turns[0].tables[0]
    state = write(state, 1, table, 1, HAND_A)
    with pytest.raises(TarocchiRefused, match="turn 1 is not complete"):
        decide(state, SeatTurn(2))
    with pytest.raises(TarocchiRefused, match="next turn to seat is 2"):
        decide(state, SeatTurn(3))
