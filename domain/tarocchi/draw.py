"""The seating draw of art. 2 and the tie-break draw of art. 9, seeded, committed, verifiable.

003 art. 2: "I componenti iniziali dei tavoli saranno assegnati pescando da un mazzo di trionfi,
secondo l'ordine conseguente, che determinerà anche l'attribuzione di un "numero giocatore"".
With n places the deck holds n trumps, 1 (lowest) to n (highest). The project's shuffle
(docs/shuffle.md, `shuffled_indices` over n cards, attempt 0) orders it from the seating seed,
whose commitment is recorded when the tournament is created; the entrant listed k-th (from 0)
draws the card at position k. Player number 1 goes to the highest trump, 2 to the next, ...: so
table A holds the four highest, North to East (art. 2).

003 art. 9: "In caso di ulteriore parità si darà luogo al sorteggio." The draw after turn t
shuffles n lots from the tie-break seed derived for that turn,
SHA-256("verbale/tarocchi-sorteggio-v1" 00 || BE32(len(seed)) || seed || BE32(t)); player p
draws the lot at position p-1, and the higher lot wins the tie.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from domain.shuffle import Seed, shuffled_indices

_SORTEGGIO_TAG = b"verbale/tarocchi-sorteggio-v1\x00"


@dataclass(frozen=True, slots=True)
class SeatingDraw:
    """`trumps[k]`: the trump entrant k drew; `numbers[k]`: the player number it gives."""

    trumps: tuple[int, ...]
    numbers: tuple[int, ...]

    def entrant_of(self, number: int) -> int:
        return self.numbers.index(number)


def seating_draw(seed: Seed, places: int) -> SeatingDraw:
    order = shuffled_indices(seed, 0, places)
    trumps = tuple(card + 1 for card in order)
    ranked = sorted(range(places), key=lambda k: -trumps[k])
    numbers = [0] * places
    for number, entrant in enumerate(ranked, start=1):
        numbers[entrant] = number
    return SeatingDraw(trumps, tuple(numbers))


def sorteggio_seed(seed: Seed, turn: int) -> Seed:
    material = (_SORTEGGIO_TAG + len(seed.value).to_bytes(4, "big") + seed.value
                + turn.to_bytes(4, "big"))
    return Seed(hashlib.sha256(material).digest())


def sorteggio(seed: Seed, turn: int, places: int) -> tuple[int, ...]:
    """`lots[p - 1]`: the lot player p draws for the standings after turn `turn`."""
    return tuple(shuffled_indices(sorteggio_seed(seed, turn), 0, places))
