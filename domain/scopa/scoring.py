"""The score of a Scopa smazzata (docs/rules-interpretations.md, "Scopa", S4 and S5).

One point each: every scopa; carte (more than 20 of the 40 cards); denari (more than 5 of the
10); the settebello; primiera (the best card of each suit by the primiera values Cirulla uses,
domain/cirulla/scoring.py, summed; a side without all four suits cannot win it). A tie in carte,
denari or primiera scores for nobody.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import SETTEBELLO, Card, Suit
from domain.cirulla.scoring import primiera_sum

CATEGORIES = ("scope", "carte", "denari", "settebello", "primiera")


def _more(a: int, b: int, threshold: int) -> tuple[int, int]:
    """One point to the side with more than `threshold`."""
    return (1, 0) if a > threshold else (0, 1) if b > threshold else (0, 0)


def _primiera(piles: tuple[Sequence[Card], Sequence[Card]]) -> tuple[int, int]:
    a, b = primiera_sum(piles[0]), primiera_sum(piles[1])
    if a == b:
        return (0, 0)
    if b is None or (a is not None and a > b):
        return (1, 0)
    return (0, 1)


def breakdown(piles: tuple[Sequence[Card], Sequence[Card]],
              scope: tuple[int, int]) -> tuple[tuple[str, int, int], ...]:
    """The rows (category, side 0, side 1) of a finished smazzata's piles and scope."""
    denari = [sum(1 for c in pile if c.suit is Suit.DENARI) for pile in piles]
    rows = {
        "scope": scope,
        "carte": _more(len(piles[0]), len(piles[1]), 20),
        "denari": _more(denari[0], denari[1], 5),
        "settebello": (int(SETTEBELLO in piles[0]), int(SETTEBELLO in piles[1])),
        "primiera": _primiera(piles),
    }
    return tuple((name, *rows[name]) for name in CATEGORIES)


def totals(rows: tuple[tuple[str, int, int], ...]) -> tuple[int, int]:
    return (sum(r[1] for r in rows), sum(r[2] for r in rows))
