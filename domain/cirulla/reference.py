"""A deliberately simple, independent enumeration of the legal plays: the baseline of the rules.

It reads the rule text and nothing of `captures.py`: every subset of the table (all sizes, by
`itertools.combinations`) is tried against the sentences of source 000, "Il gioco della carta":

  "Ogni giocatore di mano deve giocare una carta tenendo presente che:
   a) può prendere la carta in tavola che ha lo stesso valore della carta da lui giocata,
   b) può prendere le carte in tavola la cui somma è uguale al valore della carta da lui giocata,
   c) può prendere le carte in tavola la cui somma, inclusa la carta da lui giocata, è uguale
      a 15.
   d) se gioca un asso:
      - se in tavola c'è un asso prende l'asso,
      - se in tavola non ci sono assi prende tutte le carte in tavola,
      - se non ci sono carte in tavola scarta l'asso senza fare prese."
  "in presenza di più alternative, il giocatore ha sempre facoltà di scegliere quale attuare
   ... ad eccezione del caso di giocata di un asso."
  "Se il giocatore può fare almeno un tipo di presa è costretto a prendere e non può quindi
   scartare la carta."

Options (docs/rules-interpretations.md):
- C3 `AssoSuAsso.LIBERO` (002): "An ace gets all ... Except when there is an ace already down,
  then you can pick just that, or use it for sums normally": with an ace on the table the ace
  takes that ace, or makes 15 with table cards (rule c; rules a and b for a 1 are the ace itself).
- C16 `PresaObbligata.CARTA` (000): the card that can capture may not be discarded (000's UI: "Se
  la carta selezionata col doppio clic consentisse possibili prese apparirà un messaggio di
  errore"); `PresaObbligata.MANO`: no discard at all while any card in hand can capture.

The matta: "in caso di accuso, ai fini delle prese, il sistema assegna automaticamente al 7 di
cuori" a value; here `matta_value` is that value wherever the 7 of coppe lies (hand or table),
else it is a plain 7. A matta worth 1 is an ace for rule d) ("in caso di cirulla il 7 di cuori
vale sempre asso").

Slow on purpose (2^n subsets): it is the oracle of the tests and the baseline of the bench.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from domain.cards import MATTA, Card
from domain.cirulla.ruleset import AssoSuAsso, PresaObbligata, Ruleset

ReferencePlay = tuple[Card, tuple[Card, ...]]


def card_value(card: Card, matta_value: int | None) -> int:
    """000 "Il valore delle carte" (Re 10, Cavallo 9, Fante 8, ... Asso 1), the matta apart."""
    if card == MATTA and matta_value is not None:
        return matta_value
    return int(card.rank)


def every_subset(table: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every non-empty subset of the table, each sorted in deck order."""
    cards = sorted(table)
    return [combo for size in range(1, len(cards) + 1) for combo in combinations(cards, size)]


def reference_captures(card: Card, table: Iterable[Card], ruleset: Ruleset,
                       matta_value: int | None = None) -> set[tuple[Card, ...]]:
    """Every set of table cards `card` may take by rules a) to d)."""
    cards = tuple(sorted(table))
    played = card_value(card, matta_value)

    def total(subset: tuple[Card, ...]) -> int:
        return sum(card_value(c, matta_value) for c in subset)

    if played == 1:
        aces = [c for c in cards if card_value(c, matta_value) == 1]
        if not cards:
            return set()                                 # "scarta l'asso senza fare prese"
        if not aces:
            return {cards}                               # "prende tutte le carte in tavola"
        taken: set[tuple[Card, ...]] = {(ace,) for ace in aces}   # "prende l'asso"
        if ruleset.asso_su_asso is AssoSuAsso.LIBERO:
            taken |= {s for s in every_subset(cards) if total(s) + played == 15}
        return taken
    return {s for s in every_subset(cards)
            if total(s) == played                        # a) and b)
            or total(s) + played == 15}                  # c)


def reference_legal_plays(table: Iterable[Card], hand: Iterable[Card], ruleset: Ruleset,
                          matta_value: int | None = None) -> set[ReferencePlay]:
    """Every legal (card, capture) of `hand` on `table`; a discard is (card, ())."""
    cards = tuple(table)
    by_card = {c: reference_captures(c, cards, ruleset, matta_value) for c in hand}
    someone_captures = any(by_card.values())
    plays: set[ReferencePlay] = set()
    for card, captures in by_card.items():
        plays |= {(card, capture) for capture in captures}
        # "è costretto a prendere e non può quindi scartare la carta" (C16)
        if ruleset.presa_obbligata is PresaObbligata.CARTA:
            may_discard = not captures
        else:
            may_discard = not someone_captures
        if may_discard:
            plays.add((card, ()))
    return plays
