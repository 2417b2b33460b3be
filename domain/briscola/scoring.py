"""What a Briscola smazzata is worth: points, tricks and cards per side, and what is still open.

Every card point is won by taking the trick it is in, so the points of a finished smazzata
always total 120 (004: "i punti in totale sono ... 120"); only "vinco subito" stops play early
and leaves some of them unassigned.
"""

from __future__ import annotations

from domain.briscola.state import BriscolaState
from domain.briscola.values import POINTS

Breakdown = tuple[tuple[str, int, int], ...]
"""(category, side-0 value, side-1 value) rows, as in SmazzataEnded."""


def side_points(state: BriscolaState) -> tuple[int, int]:
    return state.points


def tricks_taken(state: BriscolaState) -> tuple[int, int]:
    players = state.setup.players
    return (len(state.taken[0]) // players, len(state.taken[1]) // players)


def breakdown(state: BriscolaState) -> Breakdown:
    """Points, prese (tricks), carte (cards taken) per side; 'vinco subito' if it ended play."""
    (p0, p1), (t0, t1) = state.points, tricks_taken(state)
    rows: list[tuple[str, int, int]] = [("punti", p0, p1), ("prese", t0, t1),
                                        ("carte", len(state.taken[0]), len(state.taken[1]))]
    if state.vinto_subito is not None:
        rows.append(("vinco subito", int(state.vinto_subito == 0), int(state.vinto_subito == 1)))
    return tuple(rows)


def last_trick_side(state: BriscolaState) -> int | None:
    """The side that took the latest trick (the KO rule of the 3rd spareggio reads it)."""
    if not (state.taken[0] or state.taken[1]):
        return None
    return state.setup.sides[state.leader]


def unawarded_points(state: BriscolaState) -> int:
    """Card points nobody has taken yet: in the hands, on the table and in the stock (B2).

    Before the deal all 120 are open. The timeout penalty gives them to the opponent of the
    seat that timed out (at most 20, domain/penalty.py).
    """
    if not state.setup.dealt:
        return sum(POINTS)
    # Counted as what the tricks have not taken: the open cards of a transcribed record may be
    # unknown (`??`), the taken ones never are, and the 40 cards are all in one place or the other.
    return sum(POINTS) - sum(POINTS[c] for pile in state.taken for c in pile)
