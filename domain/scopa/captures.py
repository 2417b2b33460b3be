"""Which captures a card can make in Scopa (docs/rules-interpretations.md, "Scopa", S2 and S3).

S2: a card takes a table card of its own value when there is one ("presa per valore": one card,
never a sum, while a card of equal value lies on the table); otherwise any set of table cards
whose values sum to its value. S3: a card that can capture must capture; a card that cannot is
laid on the table. The sums are Cirulla's lookup by value pattern (domain/cirulla/captures.py:
`subsets_by_sum`), so both games share one enumeration and its cache.
"""

from __future__ import annotations

from domain.cards import Card
from domain.cirulla.captures import subsets_by_sum
from domain.scopa.state import ScopaState

Play = tuple[Card, tuple[Card, ...]]
"""A card and the table cards it takes, in deck order (empty: laid on the table)."""


def captures_of(table: tuple[Card, ...], card: Card) -> tuple[tuple[Card, ...], ...]:
    """Every capture `card` may make on `table` (each in deck order); () when it takes none."""
    values = tuple(c.value for c in table)
    singles = tuple((c,) for c in table if c.value == card.value)
    if singles:
        return singles
    return tuple(tuple(sorted(table[i] for i in idx))
                 for idx in subsets_by_sum(values)[card.value])


def legal_plays(state: ScopaState) -> tuple[Play, ...]:
    """Every legal (card, capture) of the seat to move: each card with each of its captures,
    or laid on the table when it has none; () when nobody is to move."""
    if not state.dealt or state.finished:
        return ()
    plays: list[Play] = []
    for card in state.hands[state.to_move]:
        captures = captures_of(state.table, card)
        if captures:
            plays.extend((card, capture) for capture in captures)
        else:
            plays.append((card, ()))
    return tuple(plays)
