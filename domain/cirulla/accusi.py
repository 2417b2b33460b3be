"""Accusi (source 000, "Accusi" and "Il 7 di cuori (coppe)").

- Dealer: "Se la somma delle 4 carte in tavola scoperte dal mazziere è esattamente uguale a 15,
  il mazziere fa 1 punto ... uguale a 30, il mazziere fa 2 punti ... il mazziere prende tutte le
  carte scoperte in tavola."
- Player: "cirulla: se la somma delle tre carte è uguale o inferiore a 9 realizza 3 punti";
  "decino: se possiede tre carte uguali realizza 10".
- Matta: "può assumere qualsiasi valore da 1 a 10 soltanto se consente di aggiudicarsi un
  qualsiasi accuso"; "in caso di cirulla il 7 di cuori vale sempre asso"; "in caso di decino o di
  4 carte scoperte in tavola, il 7 di cuori assume l'unico valore che consente di effettuare
  l'accuso".
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import MATTA, Card, Rank
from domain.cirulla.ruleset import Ruleset

QUINDICI = "quindici"
TRENTA = "trenta"
CIRULLA = "cirulla"
DECINO = "decino"
DEALER_KINDS = (QUINDICI, TRENTA)
PLAYER_KINDS = (CIRULLA, DECINO)


@dataclass(frozen=True, slots=True)
class AccusoOption:
    kind: str
    points: int
    matta_value: int | None


def dealer_accuso(table: tuple[Card, ...]) -> AccusoOption | None:
    """The dealer's 15 or 30 on the four table cards, the matta taking the one value that works.

    With the matta on the table the two targets need values 15-s and 30-s of the other three
    cards' sum s; both within 1..10 would need s <= 14 and s >= 20, so at most one works (C14).
    """
    if MATTA in table:
        rest = sum(c.value for c in table if c is not MATTA)
        for kind, target, points in ((QUINDICI, 15, 1), (TRENTA, 30, 2)):
            if 1 <= target - rest <= 10:
                return AccusoOption(kind, points, target - rest)
        return None
    total = sum(c.value for c in table)
    if total == 15:
        return AccusoOption(QUINDICI, 1, None)
    if total == 30:
        return AccusoOption(TRENTA, 2, None)
    return None


def player_accusi(hand: tuple[Card, ...], ruleset: Ruleset) -> tuple[AccusoOption, ...]:
    """The accusi a hand of three cards allows: a cirulla, a decino, or both to choose from."""
    if len(hand) != 3:
        return ()
    a, b, c = hand
    # A Card is its deck index: index % 10 + 1 is the value. Most hands have neither a sum
    # that can reach 9 (the matta counted as an ace) nor a pair, and need no further look.
    ra, rb, rc = a % 10, b % 10, c % 10
    lowest = ra + rb + rc + 3 - (6 if MATTA in hand else 0)
    if lowest > 9 and ra != rb and rb != rc and ra != rc:
        return ()
    return _accusi_of(hand, ruleset.decino_tre_assi)


def _accusi_of(hand: tuple[Card, ...], decino_tre_assi: int) -> tuple[AccusoOption, ...]:
    cirulla = _cirulla(hand)
    decino = _decino(hand, decino_tre_assi)
    if cirulla is None:
        return () if decino is None else (decino,)
    return (cirulla,) if decino is None else (cirulla, decino)


_CIRULLA = AccusoOption(CIRULLA, 3, None)
_CIRULLA_MATTA_ASSO = AccusoOption(CIRULLA, 3, 1)


def _cirulla(hand: tuple[Card, ...]) -> AccusoOption | None:
    if MATTA in hand:
        # The matta is an ace in any cirulla; it makes one whenever the other two sum to <= 8.
        rest = sum([c.value for c in hand if c is not MATTA])
        return _CIRULLA_MATTA_ASSO if rest + 1 <= 9 else None
    return _CIRULLA if sum([c.value for c in hand]) <= 9 else None


def _decino(hand: tuple[Card, ...], decino_tre_assi: int) -> AccusoOption | None:
    values = [c.value for c in hand if c is not MATTA]
    if min(values) != max(values):
        return None
    value = values[0]
    points = decino_tre_assi if value == Rank.ASSO else 10
    if len(values) == 3:
        return AccusoOption(DECINO, points, None)
    # Two equal cards and the matta: its one value that makes three of a kind.
    return AccusoOption(DECINO, points, value)


def best_accuso(options: tuple[AccusoOption, ...]) -> AccusoOption | None:
    """What the automatic accuso declares: the option worth most (C17)."""
    if len(options) < 2:
        return options[0] if options else None
    return max(options, key=_points)


def _points(option: AccusoOption) -> int:
    return option.points
