"""The score of a smazzata (source 000, "Punteggi"), per category and side.

"Scopa ogni scopa vale 1 punto; Sette bello ... 1 punto; Primiera 1 punto; Denari 6 o più carte
di denari valgono 1 punto; Carte 21 o più carte valgono 1 punto; Grande fante, cavallo e re di
denari valgono 5 punti; Piccola asso, due e tre di denari valgono 3 punti + 1 punto per ogni
ulteriore carta di denari successiva, fino al 6."
Ties in denari, carte and primiera score for nobody (C10).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.cards import DECK, SETTEBELLO, UNKNOWN, Card, Rank
from domain.cirulla.ruleset import Primiera, Ruleset

CATEGORIES = ("scope", "settebello", "primiera", "denari", "carte", "grande", "piccola",
              "accusi")

# "7 = 21 punti, 6 = 18, Asso = 16, 5,4,3,2 = 15,14,13,12, Re, cavallo e fante = 10"
PRIMIERA_VALUE = {Rank.SETTE: 21, Rank.SEI: 18, Rank.ASSO: 16, Rank.CINQUE: 15,
                  Rank.QUATTRO: 14, Rank.TRE: 13, Rank.DUE: 12, Rank.FANTE: 10,
                  Rank.CAVALLO: 10, Rank.RE: 10}
GRANDE = (DECK[7], DECK[8], DECK[9])
PICCOLA_SEQUENCE = tuple(DECK[0:7])   # asso .. 7 di denari

# A pile is scored from its 40-bit mask (bit i = the card of deck index i): each category is
# then a few integer operations and table look-ups per suit of 10 bits, not a pass per category.
# One more entry for the unknown card of a transcribed record (domain.cards.UNKNOWN): it adds
# to a pile's count of cards but to no suit, so it wins no category by what it might be.
_BIT = (*(1 << i for i in range(40)), 0)
_SUIT_BITS = 0x3FF
_GRANDE_BITS = sum(_BIT[c] for c in GRANDE)
_SETTEBELLO_BIT = _BIT[SETTEBELLO]


def _best_primiera(suit_bits: int) -> int:
    return max((PRIMIERA_VALUE[Rank(r + 1)] for r in range(10) if suit_bits >> r & 1), default=0)


def _run_from_ace(suit_bits: int) -> int:
    run = 0
    while run < 10 and suit_bits >> run & 1:
        run += 1
    return run


_BEST_PRIMIERA = tuple(_best_primiera(m) for m in range(1 << 10))
_RUN_FROM_ACE = tuple(_run_from_ace(m) for m in range(1 << 10))


def pile_mask(cards: Iterable[Card]) -> int:
    return sum(map(_BIT.__getitem__, set(cards)))


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


def _primiera_of_mask(mask: int) -> int | None:
    best = _BEST_PRIMIERA
    parts = (best[mask & _SUIT_BITS], best[mask >> 10 & _SUIT_BITS],
             best[mask >> 20 & _SUIT_BITS], best[mask >> 30 & _SUIT_BITS])
    return None if 0 in parts else sum(parts)


def primiera_sum(cards: Iterable[Card]) -> int | None:
    """The best card of each suit by primiera value, summed; None without all four suits."""
    return _primiera_of_mask(pile_mask(cards))


def _primiera_count_key(cards: Sequence[Card]) -> tuple[int, int, int]:
    ranks = [c.rank for c in cards]
    return (ranks.count(Rank.SETTE), ranks.count(Rank.SEI), ranks.count(Rank.ASSO))


def primiera_winner(piles: tuple[Sequence[Card], Sequence[Card]], rule: Primiera) -> int | None:
    if rule is Primiera.CONTEGGIO:
        a, b = _primiera_count_key(piles[0]), _primiera_count_key(piles[1])
        return None if a == b else (0 if a > b else 1)
    return _primiera_winner(primiera_sum(piles[0]), primiera_sum(piles[1]))


def _primiera_winner(sa: int | None, sb: int | None) -> int | None:
    # 000: "vince la primiera il giocatore o coppia che mostra le 4 carte, una per ogni seme, la
    # cui somma di valori è maggiore": a side that cannot show four suits cannot win it.
    if (sa is None and sb is None) or sa == sb:
        return None
    if sb is None or (sa is not None and sa > sb):
        return 0
    return 1


def _piccola_of_mask(mask: int, up_to: int) -> int:
    run = min(_RUN_FROM_ACE[mask & _SUIT_BITS], up_to)
    return run if run >= 3 else 0


def piccola_points(pile: Iterable[Card], up_to: int) -> int:
    return _piccola_of_mask(pile_mask(pile), up_to)


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


def _known(pile: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(c for c in pile if c is not UNKNOWN)


def score(piles: tuple[Sequence[Card], Sequence[Card]], scope: tuple[int, int],
          accusi: tuple[int, int], ruleset: Ruleset) -> Breakdown:
    """The smazzata's points by category. The last score is kept: a smazzata's end is scored
    twice on the same piles (its SmazzataEnded, then its result as the record folds it), and a
    score is a function of its arguments; only tuples are kept, which nobody can change."""
    last = _LAST_SCORE[0]   # read once: another thread may replace the entry meanwhile
    if last is not None and last[0] is ruleset and last[1] == (piles, scope, accusi):
        return last[2]
    made = _score(piles, scope, accusi, ruleset)
    if all(type(part) is tuple for part in (piles, *piles, scope, accusi)):
        _LAST_SCORE[0] = (ruleset, (piles, scope, accusi), made)
    return made


_LAST_SCORE: list[tuple[Ruleset, tuple[object, ...], Breakdown] | None] = [None]


def _score(piles: tuple[Sequence[Card], Sequence[Card]], scope: tuple[int, int],
           accusi: tuple[int, int], ruleset: Ruleset) -> Breakdown:
    ma, mb = pile_mask(piles[0]), pile_mask(piles[1])
    denari = ((ma & _SUIT_BITS).bit_count(), (mb & _SUIT_BITS).bit_count())
    settebello = 0 if ma & _SETTEBELLO_BIT else (1 if mb & _SETTEBELLO_BIT else None)
    if ruleset.primiera is Primiera.SOMMA:
        primiera = _primiera_winner(_primiera_of_mask(ma), _primiera_of_mask(mb))
    else:
        primiera = primiera_winner((_known(piles[0]), _known(piles[1])), ruleset.primiera)
    up_to = ruleset.piccola_fino_al
    rows = (
        ("scope", scope[0], scope[1]),
        ("settebello", *_one_point_to(settebello)),
        ("primiera", *_one_point_to(primiera)),
        ("denari", *_one_point_to(_majority(denari[0], denari[1], 6))),
        ("carte", *_one_point_to(_majority(len(piles[0]), len(piles[1]), 21))),
        ("grande", 5 if ma & _GRANDE_BITS == _GRANDE_BITS else 0,
         5 if mb & _GRANDE_BITS == _GRANDE_BITS else 0),
        ("piccola", _piccola_of_mask(ma, up_to), _piccola_of_mask(mb, up_to)),
        ("accusi", accusi[0], accusi[1]),
    )
    cappotto = 0 if denari[0] == 10 else (1 if denari[1] == 10 else None)
    return Breakdown(rows=rows, cappotto_side=cappotto)
