"""Exact probabilities of the suspected events, by enumeration (docs/fairness.md, "Exact
probabilities").

Every four-card table (C(40,4) = 91,390) and every three-card hand (C(40,3) = 9,880) is
classified by the project's rule functions (events.py); a probability is a count over a count,
kept as a `Fraction`. A uniform shuffle makes the table a uniform 4-subset of the deck, and a
seat's first hand a uniform 3-subset of the other 36 cards, whatever the deal order (C2), the
direction or the number of players: those options change no number.

Conditioning on a deal that stands (C1): the first hand `h` of a seat and the table `T` are a
uniform pair of disjoint subsets, so P(E | the deal stands) = Σ_h [E(h)]·S(h) / Σ_h S(h), with
S(h) the number of standing tables among the 37 cards not in `h`. S(h) is C(37,4) minus the
tables that go a monte and avoid `h`, counted by inclusion–exclusion over the subsets of `h`
from the tables that go a monte (each counted once, from the table enumeration).

Only C1 (`redeal`) changes a number: the dealer's accuso and the first hands are counted on the
deals that stand. `exact_probabilities(game, ruleset)` gives the entries of one ruleset,
`catalogue()` every entry of every option value that changes a number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb

from domain.briscola.state import BriscolaRules
from domain.cards import DECK, RANKS, SUITS, Card
from domain.cirulla.ruleset import STANDARD, Redeal, Ruleset
from domain.text import say
from projections.fairness.events import (
    BRISCOLA_GAME,
    CIRULLA_GAME,
    HAND_KINDS,
    TABLE_KINDS,
    EventKey,
    EventKind,
    ExactEvent,
    Role,
    TableFacts,
    hand_event,
    hand_kinds,
    table_event,
    table_facts,
)

TABLE_SIZE = 4
HAND_SIZE = 3
TABLES = comb(len(DECK), TABLE_SIZE)                              # 91,390
TABLES_BESIDE_A_HAND = comb(len(DECK) - HAND_SIZE, TABLE_SIZE)    # 66,045


class NoExactProbabilities(ValueError):
    """A game, or a ruleset of the wrong game, for which no probabilities are enumerated."""


# ---- the enumerations ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableCounts:
    """The 91,390 tables counted once: how many have each set of facts, and, per C1 reading,
    how many of the tables going a monte contain each set of at most three cards (the empty
    set: all of them)."""

    tally: Counter[TableFacts]
    a_monte_containing: dict[Redeal, Counter[frozenset[Card]]]


@cache
def table_counts() -> TableCounts:
    tally: Counter[TableFacts] = Counter()
    containing: dict[Redeal, Counter[frozenset[Card]]] = {r: Counter() for r in Redeal}
    for table in combinations(DECK, TABLE_SIZE):
        facts = table_facts(table)
        tally[facts] += 1
        for reading in facts.a_monte:
            containing[reading].update(frozenset(s) for size in range(HAND_SIZE + 1)
                                       for s in combinations(table, size))
    return TableCounts(tally, containing)


def standing_tables_beside(hand: tuple[Card, ...], reading: Redeal) -> int:
    """S(h): the tables of four of the 37 cards not in `hand` that do not go a monte."""
    containing = table_counts().a_monte_containing[reading]
    avoiding = 0
    for size in range(len(hand) + 1):
        sign = -1 if size % 2 else 1
        avoiding += sign * sum(containing[frozenset(s)] for s in combinations(hand, size))
    return TABLES_BESIDE_A_HAND - avoiding


@cache
def hand_tally(ruleset: Ruleset) -> Counter[frozenset[str]]:
    """Σ S(h) over the 9,880 hands, by the accusi each hand allows under `ruleset`."""
    tally: Counter[frozenset[str]] = Counter()
    for hand in combinations(DECK, HAND_SIZE):
        tally[hand_kinds(hand, ruleset)] += standing_tables_beside(hand, ruleset.redeal)
    return tally


# ---- the entries ------------------------------------------------------------------------------


def _redeal_option(reading: Redeal) -> tuple[tuple[str, str], ...]:
    return (("redeal", reading.value),)


def a_monte_entries() -> tuple[ExactEvent, ...]:
    """A redeal under each C1 reading, on every attempt of every ruleset."""
    tally = table_counts().tally
    return tuple(
        ExactEvent(EventKey(CIRULLA_GAME, EventKind.A_MONTE, reading=reading), (),
                   sum(n for facts, n in tally.items() if reading in facts.a_monte), TABLES)
        for reading in (Redeal.DUE_ASSI, Redeal.TRE_RE))


def dealer_entries(reading: Redeal) -> tuple[ExactEvent, ...]:
    """The dealer's 15 and 30 on the deals that stand under `reading`."""
    standing = [(facts, n) for facts, n in table_counts().tally.items()
                if reading not in facts.a_monte]
    total = sum(n for _, n in standing)
    return tuple(
        ExactEvent(EventKey(CIRULLA_GAME, kind), _redeal_option(reading),
                   sum(n for facts, n in standing if table_event(kind, facts)), total)
        for kind in TABLE_KINDS)


def first_hand_entries(ruleset: Ruleset) -> tuple[ExactEvent, ...]:
    """A cirulla, a decino, either, in the dealer's or the giocatore di mano's first hand."""
    tally = hand_tally(ruleset)
    total = sum(tally.values())
    return tuple(
        ExactEvent(EventKey(CIRULLA_GAME, kind, role=role), _redeal_option(ruleset.redeal),
                   sum(n for kinds, n in tally.items() if hand_event(kind, kinds)), total)
        for role in Role for kind in HAND_KINDS)


def briscola_entries() -> tuple[ExactEvent, ...]:
    """The briscola card's suit and rank: the card after the hands, uniform over the deck."""
    suits = tuple(ExactEvent(EventKey(BRISCOLA_GAME, EventKind.SEME, suit=suit), (),
                             sum(1 for c in DECK if c.suit is suit), len(DECK))
                  for suit in SUITS)
    ranks = tuple(ExactEvent(EventKey(BRISCOLA_GAME, EventKind.CARTA, rank=rank), (),
                             sum(1 for c in DECK if c.rank is rank), len(DECK))
                  for rank in RANKS)
    return suits + ranks


@cache
def _cirulla_entries(ruleset: Ruleset) -> tuple[ExactEvent, ...]:
    return (a_monte_entries() + dealer_entries(ruleset.redeal)
            + first_hand_entries(ruleset))


def exact_probabilities(game: str,
                        ruleset: Ruleset | BriscolaRules | None = None) -> tuple[ExactEvent, ...]:
    """Every suspected event of `game` under `ruleset` with its exact probability."""
    if game == CIRULLA_GAME:
        chosen = STANDARD if ruleset is None else ruleset
        if not isinstance(chosen, Ruleset):
            raise NoExactProbabilities(say("a Cirulla ruleset is needed, not {ruleset}",
                                           ruleset=repr(ruleset)))
        return _cirulla_entries(chosen)
    if game == BRISCOLA_GAME:
        if ruleset is not None and not isinstance(ruleset, BriscolaRules):
            raise NoExactProbabilities(say("a Briscola ruleset is needed, not {ruleset}",
                                           ruleset=repr(ruleset)))
        return briscola_entries()
    raise NoExactProbabilities(say("no exact probabilities for the game {game}", game=game))


def catalogue() -> tuple[ExactEvent, ...]:
    """Every entry once: the C1 readings' redeals, then per C1 reading the entries it changes,
    then Briscola's. The other options change no number (the tests check it)."""
    per_reading: Iterable[ExactEvent] = (
        entry for reading in Redeal
        for entry in dealer_entries(reading) + first_hand_entries(Ruleset(redeal=reading)))
    return a_monte_entries() + tuple(per_reading) + briscola_entries()
