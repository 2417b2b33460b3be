"""Timeout and abandon in the middle of a Cirulla smazzata (000, C12).

"si assegnano tutti i punti ancora non aggiudicati all'avversario con l'aggiunta di una scopa,
fermo restando che la penalità massima è pari a 6 punti; se il punteggio è ancora a favore di chi
ha fatto scadere il tempo o il timeout, la differenza punti è uguale a zero".

At the moment of the timeout the smazzata splits into:
- points already awarded, kept by whoever made them: scope, accusi, and every category already
  decided by the piles: settebello taken; denari with 6 or more in one pile; carte with 21 or
  more; grande complete in one pile; piccola when its run can grow no further (the next card of
  the run is in the other pile, or the run reached its maximum).
- points not yet awarded, all given to the opponent of the guilty side: each category still
  open that the opponent could still win (settebello not taken: 1; primiera: 1 if, with the
  best cards still possible in each suit, his sum would beat the guilty side's present one;
  denari: 1 if the opponent can still reach 6 and nobody has 6; carte: 1 likewise for 21;
  grande: 5 if the guilty side holds none of its cards; piccola: 3 plus the longest run the
  opponent could still complete, if the guilty side holds none of A-2-3 of denari and nobody's
  piccola is closed).
penalty.py then adds the scopa and applies the cap of 6.
"""

from __future__ import annotations

from domain.cards import DECK, SETTEBELLO, Card, Suit
from domain.cirulla.engine import smazzata_score
from domain.cirulla.ruleset import Primiera
from domain.cirulla.scoring import GRANDE, PICCOLA_SEQUENCE, piccola_points, primiera_sum
from domain.cirulla.state import CirullaState

_KEPT_AS_MADE = ("scope", "accusi")


def awarded_points(state: CirullaState) -> tuple[int, int]:
    """Points of the smazzata in progress already awarded to each side."""
    breakdown = smazzata_score(state)
    piles = state.captured
    totals = [0, 0]
    for category, a, b in breakdown.rows:
        if category in _KEPT_AS_MADE or _decided(category, piles, state):
            totals[0] += a
            totals[1] += b
    return (totals[0], totals[1])


def _decided(category: str, piles: tuple[tuple[Card, ...], tuple[Card, ...]],
             state: CirullaState) -> bool:
    if category == "settebello":
        return any(SETTEBELLO in p for p in piles)
    if category == "denari":
        return any(_denari(p) >= 6 for p in piles)
    if category == "carte":
        return any(len(p) >= 21 for p in piles)
    if category == "grande":
        return any(all(g in p for g in GRANDE) for p in piles)
    if category == "piccola":
        return any(_piccola_closed(p, piles, state.ruleset.piccola_fino_al) for p in piles)
    return False   # primiera: open until the last card


def unawarded_points(state: CirullaState, guilty_side: int) -> int:
    """Points still open that go to the opponent of `guilty_side` (before the extra scopa)."""
    winner = 1 - guilty_side
    piles = state.captured
    mine, theirs = piles[winner], piles[guilty_side]
    remaining = 40 - len(mine) - len(theirs)
    remaining_denari = 10 - _denari(mine) - _denari(theirs)
    points = 1 if _primiera_open(mine, theirs, state) else 0
    if not any(SETTEBELLO in p for p in piles):
        points += 1
    if not any(_denari(p) >= 6 for p in piles) and _denari(mine) + remaining_denari >= 6:
        points += 1
    if not any(len(p) >= 21 for p in piles) and len(mine) + remaining >= 21:
        points += 1
    if not any(g in theirs for g in GRANDE):
        points += 0 if all(g in mine for g in GRANDE) else 5
    points += _open_piccola(mine, theirs, piles, state)
    return points


def _open_piccola(mine: tuple[Card, ...], theirs: tuple[Card, ...],
                  piles: tuple[tuple[Card, ...], tuple[Card, ...]], state: CirullaState) -> int:
    limit = state.ruleset.piccola_fino_al
    if any(_piccola_closed(p, piles, limit) for p in piles):
        return 0
    run = 0
    for card in PICCOLA_SEQUENCE[:limit]:
        if card in theirs:
            break
        run += 1
    # Points already in `mine` are not counted as awarded while the run is open: the whole run
    # the opponent could complete is given.
    return run if run >= 3 else 0


def _primiera_open(mine: tuple[Card, ...], theirs: tuple[Card, ...], state: CirullaState) -> bool:
    """Whether the opponent could still win primiera: with the best card still possible in each
    suit (from his pile or the cards nobody has taken) his sum beats the guilty side's present
    one. Under the 002 count (most sevens, sixes, aces) it stays open until the end."""
    if state.ruleset.primiera is not Primiera.SOMMA:
        return True
    unseen = [c for c in DECK if c not in mine and c not in theirs]
    best_possible = primiera_sum([*mine, *unseen])
    if best_possible is None:
        return False
    present = primiera_sum(theirs)
    return present is None or best_possible > present


def _piccola_closed(pile: tuple[Card, ...],
                    piles: tuple[tuple[Card, ...], tuple[Card, ...]], limit: int) -> bool:
    made = piccola_points(pile, limit)
    if made == 0:
        return False
    if made == limit:
        return True
    other = piles[1] if pile is piles[0] else piles[0]
    return PICCOLA_SEQUENCE[made] in other


def _denari(pile: tuple[Card, ...]) -> int:
    return sum(1 for c in pile if c.suit is Suit.DENARI)
