"""Which captures a card can make, and the legal plays of a position (source 000, "Il gioco
della carta"):

  a) "può prendere la carta in tavola che ha lo stesso valore della carta da lui giocata",
  b) "può prendere le carte in tavola la cui somma è uguale al valore della carta da lui giocata",
  c) "può prendere le carte in tavola la cui somma, inclusa la carta da lui giocata, è uguale
     a 15",
  d) "se gioca un asso: se in tavola c'è un asso prende l'asso, se in tavola non ci sono assi
     prende tutte le carte in tavola, se non ci sono carte in tavola scarta l'asso".

a) is b) with one card. "in presenza di più alternative, il giocatore ha sempre facoltà di
scegliere" (except with an ace); "Se il giocatore può fare almeno un tipo di presa è costretto a
prendere e non può quindi scartare la carta" (C16: option PresaObbligata).

Subsets of the table are looked up by the tuple of table values, cached: tables repeat their
value patterns constantly, so the enumeration is paid once per pattern.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter

from domain.cards import DECK, MATTA, Card
from domain.cirulla.ruleset import AssoSuAsso, PresaObbligata, Ruleset
from domain.cirulla.state import CirullaState, Play, empty_state, table_order
from domain.seating import Seating

_MAX_SUM = 14   # the largest sum a capture can need: 15 with an ace


@lru_cache(maxsize=1 << 16)
def subsets_by_sum(values: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each sum 0..14, the index tuples of the non-empty subsets of `values` with that sum."""
    partial: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for i, value in enumerate(values):
        partial += [(s + value, idx + (i,)) for s, idx in partial if s + value <= _MAX_SUM]
    buckets: list[list[tuple[int, ...]]] = [[] for _ in range(_MAX_SUM + 1)]
    for total, idx in partial[1:]:
        buckets[total].append(idx)
    return tuple(tuple(b) for b in buckets)


@lru_cache(maxsize=1 << 16)
def capture_index(values: tuple[int, ...],
                  asso_su_asso: AssoSuAsso) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each played value 0..10, the index tuples of the table cards it can take."""
    buckets = subsets_by_sum(values)
    ace_free = asso_su_asso is AssoSuAsso.LIBERO
    by_value: list[tuple[tuple[int, ...], ...]] = [(), _ace_index(values, buckets, ace_free)]
    by_value += [buckets[v] + buckets[15 - v] for v in range(2, 11)]
    return tuple(by_value)


def _ace_index(values: tuple[int, ...], buckets: tuple[tuple[tuple[int, ...], ...], ...],
               ace_free: bool) -> tuple[tuple[int, ...], ...]:
    aces = tuple((i,) for i, v in enumerate(values) if v == 1)
    if not aces:
        return (tuple(range(len(values))),) if values else ()
    if ace_free:
        return aces + buckets[14]
    return aces


Getter = Callable[[tuple[Card, ...]], tuple[Card, ...]]


def capture_getters(values: tuple[int, ...],
                    asso_su_asso: AssoSuAsso) -> tuple[tuple[Getter, ...], ...]:
    """capture_index as functions that cut each capture out of the table in one C call.

    Cached in a plain dict per ace option (a hit costs one lookup; an lru_cache would also move
    its list entry on every hit); the dict is emptied when it reaches _CACHE_LIMIT patterns.
    """
    cache = _GETTERS[asso_su_asso]
    found = cache.get(values)
    if found is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        found = cache[values] = tuple(tuple(_getter(idx) for idx in per_value)
                                      for per_value in capture_index(values, asso_su_asso))
    return found


_CACHE_LIMIT = 1 << 16
_GETTERS: dict[AssoSuAsso, dict[tuple[int, ...], tuple[tuple[Getter, ...], ...]]] = {
    option: {} for option in AssoSuAsso}


def clear_caches() -> None:
    """Forget every cached value pattern (benchmarks measure the engine cold this way)."""
    for cache in _GETTERS.values():
        cache.clear()
    capture_index.cache_clear()
    subsets_by_sum.cache_clear()


def _getter(idx: tuple[int, ...]) -> Getter:
    if len(idx) == 1:
        # A slice keeps a one-card capture a tuple, as itemgetter of several indices gives.
        return itemgetter(slice(idx[0], idx[0] + 1))
    return itemgetter(*idx)


def legal_plays(state: CirullaState) -> list[Play]:
    """Every distinct legal (card, capture) of the seat to move, and nothing else."""
    if state.finished or not state.dealt:
        return []
    ruleset = state.ruleset
    values = state.table_values
    table = state.table
    matta_value = state.matta_value
    index = _GETTERS[ruleset.asso_su_asso].get(values) or capture_getters(values,
                                                                          ruleset.asso_su_asso)
    plays: list[Play] = []
    append = plays.append
    capturing = False
    for card in state.hands[state.to_move]:
        getters = index[matta_value if matta_value and card is MATTA else _VALUE[card]]
        if getters:
            capturing = True
            for get in getters:
                append((card, get(table)))
        else:
            append((card, ()))
    if capturing and ruleset.presa_obbligata is _PRESA_MANO:
        return [p for p in plays if p[1]]
    return plays


def card_captures(state: CirullaState, card: Card) -> list[tuple[Card, ...]]:
    """The captures `card` may make on this table (each in table order), the same as
    legal_plays' plays of that card; empty: it can only be discarded. Whether the seat must
    capture with another card (presa_obbligata=mano) is legal_plays' question, not this one's."""
    values = state.table_values
    asso = state.ruleset.asso_su_asso
    index = _GETTERS[asso].get(values) or capture_getters(values, asso)
    matta_value = state.matta_value
    table = state.table
    return [get(table) for get in
            index[matta_value if matta_value and card is MATTA else _VALUE[card]]]


# Looked up once: an enum member read off its class goes through the enum's metaclass (about
# as costly as the rest of a legal_plays call), and a card's value is an instance attribute.
_PRESA_MANO = PresaObbligata.MANO
_VALUE = tuple(card.value for card in DECK)


def plays_for_hand(hand: tuple[Card, ...], state: CirullaState) -> list[Play]:
    """The plays `hand` would have in this position (any seat's hand: the arbiter's question)."""
    seat = state.to_move
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
    return legal_plays(state._replace(hands=hands, dealt=True, finished=False))




def legal_plays_on(table: tuple[Card, ...], hand: tuple[Card, ...], ruleset: Ruleset,
                   matta_value: int | None = None) -> list[Play]:
    """The arbiter's check on a bare position: a table, a hand and the matta's value."""
    base = empty_state(ruleset, Seating(2, ruleset.direction))
    state = _with_position(base, table, matta_value)
    return plays_for_hand(hand, state)


def _with_position(base: CirullaState, table: tuple[Card, ...],
                   matta_value: int | None) -> CirullaState:
    probe = base._replace(matta_value=matta_value)
    table = table_order(table, probe.value_of)
    values = tuple(probe.value_of(c) for c in table)
    return probe._replace(table=table, table_values=values, dealt=True)
