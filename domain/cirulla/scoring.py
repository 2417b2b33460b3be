"""The score of a smazzata (source 000, "Punteggi"), per category and side.

"Scopa ogni scopa vale 1 punto; Sette bello ... 1 punto; Primiera 1 punto; Denari 6 o più carte
di denari valgono 1 punto; Carte 21 o più carte valgono 1 punto; Grande fante, cavallo e re di
denari valgono 5 punti; Piccola asso, due e tre di denari valgono 3 punti + 1 punto per ogni
ulteriore carta di denari successiva, fino al 6."
Ties in denari, carte and primiera score for nobody (C10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.cards import DECK, SETTEBELLO, Card, Rank
from domain.cirulla.ruleset import Primiera, Ruleset

CATEGORIES = ("scope", "settebello", "primiera", "denari", "carte", "grande", "piccola",
              "accusi")

# "7 = 21 punti, 6 = 18, Asso = 16, 5,4,3,2 = 15,14,13,12, Re, cavallo e fante = 10"
PRIMIERA_VALUE = {Rank.SETTE: 21, Rank.SEI: 18, Rank.ASSO: 16, Rank.CINQUE: 15,
                  Rank.QUATTRO: 14, Rank.TRE: 13, Rank.DUE: 12, Rank.FANTE: 10,
                  Rank.CAVALLO: 10, Rank.RE: 10}
_PRIMIERA_BY_INDEX = tuple(PRIMIERA_VALUE[c.rank] for c in DECK)
# Per suit, the primiera value of each card of that suit and 0 for the others, by deck index.
_PRIMIERA_OF_SUIT = tuple(tuple(v if i // 10 == s else 0 for i, v in enumerate(_PRIMIERA_BY_INDEX))
                          for s in range(4))
GRANDE = (DECK[7], DECK[8], DECK[9])
_GRANDE = frozenset(GRANDE)
_FIRST_COPPE = 10   # deck indices below 10 are the denari
PICCOLA_SEQUENCE = tuple(DECK[0:7])   # asso .. 7 di denari


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Points per category and side, and the side that made cappotto (all ten denari)."""

    rows: tuple[tuple[str, int, int], ...]
    cappotto_side: int | None

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(r[1] for r in self.rows), sum(r[2] for r in self.rows))

    def row(self, category: str) -> tuple[int, int]:
        for name, a, b in self.rows:
            if name == category:
                return (a, b)
        raise KeyError(category)


def primiera_sum(cards: Sequence[Card]) -> int | None:
    """The best card of each suit by primiera value, summed; None without all four suits."""
    best = [max(map(of_suit.__getitem__, cards), default=0) for of_suit in _PRIMIERA_OF_SUIT]
    if 0 in best:
        return None
    return sum(best)


def _primiera_count_key(cards: Sequence[Card]) -> tuple[int, int, int]:
    ranks = [c.rank for c in cards]
    return (ranks.count(Rank.SETTE), ranks.count(Rank.SEI), ranks.count(Rank.ASSO))


def primiera_winner(piles: tuple[Sequence[Card], Sequence[Card]], rule: Primiera) -> int | None:
    if rule is Primiera.CONTEGGIO:
        a, b = _primiera_count_key(piles[0]), _primiera_count_key(piles[1])
        return None if a == b else (0 if a > b else 1)
    # 000: "vince la primiera il giocatore o coppia che mostra le 4 carte, una per ogni seme, la
    # cui somma di valori è maggiore": a side that cannot show four suits cannot win it.
    sa, sb = primiera_sum(piles[0]), primiera_sum(piles[1])
    if (sa is None and sb is None) or sa == sb:
        return None
    if sb is None or (sa is not None and sa > sb):
        return 0
    return 1


def piccola_points(pile: Sequence[Card], up_to: int) -> int:
    held = set(pile)
    run = 0
    for c in PICCOLA_SEQUENCE[:up_to]:
        if c not in held:
            break
        run += 1
    return run if run >= 3 else 0


def _one_point_to(winner: int | None) -> tuple[int, int]:
    if winner is None:
        return (0, 0)
    return (1, 0) if winner == 0 else (0, 1)


def _majority(a: int, b: int, threshold: int) -> int | None:
    if a >= threshold and a > b:
        return 0
    if b >= threshold and b > a:
        return 1
    return None


def score(piles: tuple[Sequence[Card], Sequence[Card]], scope: tuple[int, int],
          accusi: tuple[int, int], ruleset: Ruleset) -> Breakdown:
    denari = tuple(sum(map(_FIRST_COPPE.__gt__, p)) for p in piles)
    settebello = 0 if SETTEBELLO in piles[0] else (1 if SETTEBELLO in piles[1] else None)
    grande = tuple(5 if _GRANDE.issubset(p) else 0 for p in piles)
    piccola = tuple(piccola_points(p, ruleset.piccola_fino_al) for p in piles)
    rows = (
        ("scope", scope[0], scope[1]),
        ("settebello", *_one_point_to(settebello)),
        ("primiera", *_one_point_to(primiera_winner(piles, ruleset.primiera))),
        ("denari", *_one_point_to(_majority(denari[0], denari[1], 6))),
        ("carte", *_one_point_to(_majority(len(piles[0]), len(piles[1]), 21))),
        ("grande", grande[0], grande[1]),
        ("piccola", piccola[0], piccola[1]),
        ("accusi", accusi[0], accusi[1]),
    )
    cappotto = 0 if denari[0] == 10 else (1 if denari[1] == 10 else None)
    return Breakdown(rows=rows, cappotto_side=cappotto)
