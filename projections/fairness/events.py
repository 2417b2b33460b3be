"""The events players suspect, and whether one happened on a dealt smazzata (docs/fairness.md).

Each event is read off the cards of one `SmazzataDealt` as the store holds it, by the project's
own rule functions: `redeal_reason` (C1, domain/cirulla/dealing.py), `dealer_accuso` (the
dealer's 15 and 30 with the matta, C14) and `player_accusi` (cirulla and decino, C14, C17) of
domain/cirulla/accusi.py; Briscola's face-up card is `SmazzataDealt.briscola`. The same
classifiers count every table and hand in the enumeration (exact.py), so the expected and the
observed counts are the same rules.

An event has a population, the deals it is counted on:
- `ATTEMPTS`: every dealt attempt, annulled ones included (each is a fresh uniform shuffle);
- `STANDING`: the deals that stand under the ruleset's C1 reading, i.e. the attempts whose table
  does not go a monte: the dealer's accuso and the first hands are only played there.
`observe(entries, dealt, ruleset)` says, for each entry, True or False, or None when the deal is
outside the event's population (an annulled attempt, the other game, or a card it needs is
unknown); `happened` does it for one event. The facts of a table and of a hand are cached, so a
deal costs a few dictionary look-ups once every table has been seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache

from domain.briscola.state import BriscolaRules
from domain.cards import MATTA, UNKNOWN, Card, Rank, Suit
from domain.cirulla.accusi import CIRULLA, DECINO, QUINDICI, TRENTA, dealer_accuso, player_accusi
from domain.cirulla.dealing import redeal_reason
from domain.cirulla.ruleset import Redeal, Ruleset
from domain.events import SmazzataDealt
from domain.seating import Direction, Seating
from domain.text import Said, say

CIRULLA_GAME = "cirulla"
BRISCOLA_GAME = "briscola"


class Population(StrEnum):
    """The deals an event is counted on."""

    ATTEMPTS = "attempts"     # every SmazzataDealt, annulled attempts included
    STANDING = "standing"     # the SmazzataDealt whose table does not go a monte


class EventKind(StrEnum):
    A_MONTE = "a-monte"                     # the table goes a monte under `EventKey.reading`
    QUINDICI = "quindici"
    QUINDICI_SENZA_MATTA = "quindici-senza-matta"
    QUINDICI_CON_MATTA = "quindici-con-matta"
    TRENTA = "trenta"
    TRENTA_SENZA_MATTA = "trenta-senza-matta"
    TRENTA_CON_MATTA = "trenta-con-matta"
    CIRULLA = "cirulla"                     # in the first hand of `EventKey.role`
    DECINO = "decino"
    ACCUSO = "accuso"                       # a cirulla or a decino (or both)
    SEME = "seme"                           # the Briscola card's suit is `EventKey.suit`
    CARTA = "carta"                         # the Briscola card's rank is `EventKey.rank`


class Role(StrEnum):
    """Whose first hand: the dealer's, or the giocatore di mano's (the first to play)."""

    MAZZIERE = "mazziere"
    DI_MANO = "di-mano"


TABLE_KINDS = (EventKind.QUINDICI, EventKind.QUINDICI_SENZA_MATTA, EventKind.QUINDICI_CON_MATTA,
               EventKind.TRENTA, EventKind.TRENTA_SENZA_MATTA, EventKind.TRENTA_CON_MATTA)
"""The dealer's accusi, each counted on the deals that stand."""
HAND_KINDS = (EventKind.CIRULLA, EventKind.DECINO, EventKind.ACCUSO)


@dataclass(frozen=True, slots=True)
class EventKey:
    """What happened, without its probability: the kind and what it is about."""

    game: str
    kind: EventKind
    reading: Redeal | None = None   # A_MONTE: the C1 reading whose redeal is counted
    role: Role | None = None        # hand kinds: whose first hand
    suit: Suit | None = None        # SEME
    rank: Rank | None = None        # CARTA

    @property
    def population(self) -> Population:
        if self.game == BRISCOLA_GAME or self.kind is EventKind.A_MONTE:
            return Population.ATTEMPTS
        return Population.STANDING

    @property
    def name(self) -> str:
        """A stable identifier, e.g. `cirulla.quindici-con-matta`, `briscola.seme.denari`."""
        detail = (self.reading, self.role, self.suit.italian if self.suit else None,
                  self.rank.italian if self.rank else None)
        return ".".join([self.game, self.kind.value, *(str(d) for d in detail if d)])

    def describe(self) -> Said:
        if self.kind is EventKind.A_MONTE:
            return _describe_a_monte(self.reading)
        if self.role is not None:
            return _describe_hand(self.kind, self.role)
        if self.suit is not None:
            return say("the briscola card is of {suit}", suit=self.suit.italian)
        if self.rank is not None:
            return say("the briscola card is a {rank}", rank=self.rank.italian)
        return _describe_table(self.kind)


@dataclass(frozen=True, slots=True)
class ExactEvent:
    """One entry of the catalogue: an event, the rulesets it holds for, its exact probability.

    `applies_to` lists the ruleset options (name, value) the probability depends on; empty: every
    ruleset of the game. `numerator` and `denominator` are the enumerated counts (deals or
    (hand, table) pairs) whose ratio is `probability`.
    """

    key: EventKey
    applies_to: tuple[tuple[str, str], ...]
    numerator: int
    denominator: int
    probability: Fraction = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "probability", Fraction(self.numerator, self.denominator))

    @property
    def name(self) -> str:
        return self.key.name

    @property
    def population(self) -> Population:
        return self.key.population

    def describe(self) -> Said:
        return self.key.describe()

    def counted_on(self) -> Said:
        if self.key.game == BRISCOLA_GAME:
            return say("every Briscola deal")
        if self.population is Population.ATTEMPTS:
            return say("every dealt attempt, annulled ones included")
        return say("every deal that stands under the ruleset's C1 reading (the last attempt "
                   "of its smazzata)")

    def happened(self, dealt: SmazzataDealt, ruleset: Ruleset | BriscolaRules) -> bool | None:
        return happened(self.key, dealt, ruleset)


def _describe_a_monte(reading: Redeal | None) -> Said:
    if reading is Redeal.DUE_ASSI:
        return say("two or more aces among the four table cards: the deal goes a monte under "
                   "C1's two-aces reading")
    if reading is Redeal.TRE_RE:
        return say("three or more kings among the four table cards: the deal goes a monte "
                   "under C1's three-kings reading")
    return say("the deal goes a monte under C1's {reading} reading", reading=str(reading))


def _describe_table(kind: EventKind) -> Said:
    texts = {
        EventKind.QUINDICI: say("the dealer's 15 on the four table cards"),
        EventKind.QUINDICI_SENZA_MATTA: say("the dealer's 15 on the four table cards, "
                                            "without the matta"),
        EventKind.QUINDICI_CON_MATTA: say("the dealer's 15 on the four table cards, "
                                          "the matta among them"),
        EventKind.TRENTA: say("the dealer's 30 on the four table cards"),
        EventKind.TRENTA_SENZA_MATTA: say("the dealer's 30 on the four table cards, "
                                          "without the matta"),
        EventKind.TRENTA_CON_MATTA: say("the dealer's 30 on the four table cards, "
                                        "the matta among them"),
    }
    return texts[kind]


def _describe_hand(kind: EventKind, role: Role) -> Said:
    # One whole sentence per event and role (docs/i18n.md: no glued fragments).
    dealer = role is Role.MAZZIERE
    if kind is EventKind.CIRULLA:
        return (say("a cirulla in the dealer's first hand") if dealer
                else say("a cirulla in the first hand of the giocatore di mano"))
    if kind is EventKind.DECINO:
        return (say("a decino in the dealer's first hand") if dealer
                else say("a decino in the first hand of the giocatore di mano"))
    return (say("a cirulla or a decino in the dealer's first hand") if dealer
            else say("a cirulla or a decino in the first hand of the giocatore di mano"))


# ---- what the rules say of one table or one hand ------------------------------------------------

_READINGS = {reading: Ruleset(redeal=reading) for reading in Redeal}


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the rules say of four table cards: the C1 readings under which they go a monte, the
    dealer's accuso (QUINDICI, TRENTA or None) and whether the matta is among them."""

    a_monte: frozenset[Redeal]
    dealer: str | None
    matta: bool


@cache
def table_facts(table: tuple[Card, ...]) -> TableFacts:
    """The facts of a table given in deck order (at most the 91,390 tables are kept)."""
    a_monte = frozenset(r for r, rules in _READINGS.items()
                        if redeal_reason(table, rules) is not None)
    option = dealer_accuso(table)
    return TableFacts(a_monte, None if option is None else option.kind, MATTA in table)


# Per dealer's event: the accuso it needs and whether the matta must be on the table (True),
# must not (False) or may (None).
_TABLE_EVENTS: dict[EventKind, tuple[str, bool | None]] = {
    EventKind.QUINDICI: (QUINDICI, None),
    EventKind.QUINDICI_SENZA_MATTA: (QUINDICI, False),
    EventKind.QUINDICI_CON_MATTA: (QUINDICI, True),
    EventKind.TRENTA: (TRENTA, None),
    EventKind.TRENTA_SENZA_MATTA: (TRENTA, False),
    EventKind.TRENTA_CON_MATTA: (TRENTA, True),
}


def table_event(kind: EventKind, facts: TableFacts) -> bool:
    """A dealer's accuso kind on a table, with or without the matta."""
    accuso, matta = _TABLE_EVENTS[kind]
    return facts.dealer == accuso and matta in (None, facts.matta)


@cache
def hand_kinds(hand: tuple[Card, ...], ruleset: Ruleset) -> frozenset[str]:
    """The accusi (CIRULLA, DECINO) a first hand of three cards, in deck order, allows."""
    return frozenset(option.kind for option in player_accusi(hand, ruleset))


def hand_event(kind: EventKind, kinds: frozenset[str]) -> bool:
    if kind is EventKind.CIRULLA:
        return CIRULLA in kinds
    if kind is EventKind.DECINO:
        return DECINO in kinds
    return bool(kinds)


# ---- observing a dealt smazzata ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What the rules say of one Cirulla deal: its table's facts, and the accusi of the first
    hand of each role (None: a card of that hand is unknown)."""

    table: TableFacts
    hands: dict[Role, frozenset[str] | None]


def deal_facts(dealt: SmazzataDealt, ruleset: Ruleset) -> DealFacts | None:
    """None when the deal has no four known table cards (a Briscola deal, a transcription)."""
    if len(dealt.table) != 4 or UNKNOWN in dealt.table:
        return None
    hands: dict[Role, frozenset[str] | None] = {}
    for role in Role:
        hand = dealt.hands[_seat_of(role, dealt, ruleset)]
        known = len(hand) == 3 and UNKNOWN not in hand
        hands[role] = hand_kinds(tuple(sorted(hand)), ruleset) if known else None
    return DealFacts(table_facts(tuple(sorted(dealt.table))), hands)


def answer(key: EventKey, facts: DealFacts | None, ruleset: Ruleset) -> bool | None:
    """Whether a Cirulla event happened on a deal with these facts; None: not counted on it."""
    if facts is None:
        return None
    if key.kind is EventKind.A_MONTE:
        return key.reading in facts.table.a_monte
    if ruleset.redeal in facts.table.a_monte:
        return None
    if key.role is None:
        return table_event(key.kind, facts.table)
    kinds = facts.hands[key.role]
    return None if kinds is None else hand_event(key.kind, kinds)


def observe(entries: Iterable[ExactEvent], dealt: SmazzataDealt,
            ruleset: Ruleset | BriscolaRules) -> tuple[bool | None, ...]:
    """Whether each entry's event happened on this deal (None: the deal is not in the event's
    population: an annulled attempt, the other game, or a card it needs is unknown)."""
    keys = [entry.key for entry in entries]
    if not isinstance(ruleset, Ruleset):
        return tuple(_briscola_happened(key, dealt) for key in keys)
    facts = deal_facts(dealt, ruleset)
    return tuple(None if key.game != CIRULLA_GAME else answer(key, facts, ruleset)
                 for key in keys)


def happened(key: EventKey, dealt: SmazzataDealt,
             ruleset: Ruleset | BriscolaRules) -> bool | None:
    """`observe` for one event."""
    if key.game == BRISCOLA_GAME:
        return _briscola_happened(key, dealt)
    if not isinstance(ruleset, Ruleset):
        return None
    return answer(key, deal_facts(dealt, ruleset), ruleset)


def _seat_of(role: Role, dealt: SmazzataDealt, ruleset: Ruleset) -> int:
    if role is Role.MAZZIERE:
        return dealt.dealer
    return _seating(len(dealt.hands), ruleset.direction).first_after_dealer(dealt.dealer)


@cache
def _seating(players: int, direction: Direction) -> Seating:
    return Seating(players, direction)


def _briscola_happened(key: EventKey, dealt: SmazzataDealt) -> bool | None:
    card = dealt.briscola
    if key.game != BRISCOLA_GAME or card is None or card is UNKNOWN:
        return None
    if key.kind is EventKind.SEME:
        return card.suit is key.suit
    return card.rank is key.rank
