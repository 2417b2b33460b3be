"""The 40-card Italian deck shared by every game: suits, ranks, cards and their notation.

Cards are 40 singletons in deck order (denari, coppe, bastoni, spade; Asso..Re within a suit).
Deck order is the order the shuffle permutes (docs/shuffle.md) and the order in which captured
cards are listed. Game-specific values (capture value, primiera, briscola points) live with the
games; the ones every game reads from the rank are precomputed here as plain attributes because
the rules engines read them in their innermost loops.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from enum import Enum, IntEnum
from typing import Literal

from domain.text import Said, excerpt, say


class CardParseError(ValueError):
    """A card written in a way the notation does not accept."""


class Suit(Enum):
    DENARI = "d"
    COPPE = "c"
    BASTONI = "b"
    SPADE = "s"

    @property
    def italian(self) -> str:
        return _SUIT_ITALIAN[self]

    @property
    def french(self) -> str:
        return _SUIT_FRENCH[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]


class Rank(IntEnum):
    """Ranks by their Cirulla capture value (source 000, "Il valore delle carte")."""

    ASSO = 1
    DUE = 2
    TRE = 3
    QUATTRO = 4
    CINQUE = 5
    SEI = 6
    SETTE = 7
    FANTE = 8
    CAVALLO = 9
    RE = 10

    @property
    def italian(self) -> str:
        return _RANK_ITALIAN[self]


SUITS: tuple[Suit, ...] = (Suit.DENARI, Suit.COPPE, Suit.BASTONI, Suit.SPADE)
RANKS: tuple[Rank, ...] = tuple(Rank)

_SUIT_ITALIAN = {Suit.DENARI: "denari", Suit.COPPE: "coppe", Suit.BASTONI: "bastoni",
                 Suit.SPADE: "spade"}
_SUIT_FRENCH = {Suit.DENARI: "quadri", Suit.COPPE: "cuori", Suit.BASTONI: "fiori",
                Suit.SPADE: "picche"}
_SUIT_SYMBOL = {Suit.DENARI: "♦", Suit.COPPE: "♥", Suit.BASTONI: "♣", Suit.SPADE: "♠"}
_RANK_ITALIAN = {Rank.ASSO: "asso", Rank.DUE: "due", Rank.TRE: "tre", Rank.QUATTRO: "quattro",
                 Rank.CINQUE: "cinque", Rank.SEI: "sei", Rank.SETTE: "sette",
                 Rank.FANTE: "fante", Rank.CAVALLO: "cavallo", Rank.RE: "re"}
# Compact letters: Italian figures F/C/R, French J/Q/K; digits 1..7 and A for the ace.
_RANK_CODE = {Rank.ASSO: "A", Rank.FANTE: "F", Rank.CAVALLO: "C", Rank.RE: "R"}
_RANK_FRENCH_CODE = {Rank.ASSO: "A", Rank.FANTE: "J", Rank.CAVALLO: "Q", Rank.RE: "K"}

Style = Literal["italian", "french"]


class Card(int):
    """One of the 40 cards: an int equal to its deck index, so equality, hashing and sorting (deck
    order) run at C speed in the rules engines' inner loops. Always one of the DECK singletons.
    Never serialise a Card as a number by accident: the store writes `code`.
    """

    suit: Suit
    rank: Rank
    value: int

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        self = super().__new__(cls, SUITS.index(suit) * 10 + int(rank) - 1)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "value", int(rank))
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_at, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def index(self) -> int:
        return int(self)

    @property
    def code(self) -> str:
        """Compact notation: rank letter or digit, then suit letter (`7d`, `Rc`, `Fb`, `Ad`)."""
        return _RANK_CODE.get(self.rank, str(int(self.rank))) + self.suit.value

    def render(self, style: Style = "italian") -> str:
        if style == "french":
            return _RANK_FRENCH_CODE.get(self.rank, str(int(self.rank))) + self.suit.symbol
        return self.code

    @property
    def italian_name(self) -> str:
        return f"{self.rank.italian} di {self.suit.italian}"

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __format__(self, spec: str) -> str:
        return format(self.code, spec)


DECK: tuple[Card, ...] = tuple(Card(s, r) for s in SUITS for r in RANKS)
"""The 40 cards in deck order: index i is DECK[i]."""

SETTEBELLO = DECK[6]
MATTA = DECK[16]
"""The 7 of coppe (cuori), the matta of Cirulla."""




class UnknownCard(Card):
    """A card nobody saw, in a record written up by people: `??` in the notation and in events.

    An int one past the deck (40), so tables indexed by card can hold one more entry. It has
    no suit, rank or value: code that asks for them on an unknown card is a bug and fails
    loudly (AttributeError) instead of scoring a guess. Never in DECK; one singleton, UNKNOWN.
    """

    def __new__(cls) -> UnknownCard:
        return int.__new__(cls, UNKNOWN_INDEX)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_at, (UNKNOWN_INDEX,))

    @property
    def code(self) -> str:
        return UNKNOWN_CODE

    def render(self, style: Style = "italian") -> str:
        return UNKNOWN_CODE

    @property
    def italian_name(self) -> str:
        return "carta sconosciuta"


UNKNOWN_INDEX = 40
UNKNOWN_CODE = "??"
UNKNOWN: Card = UnknownCard()
"""The unknown card: equal only to itself; any number of them may stand in a transcribed deal."""


def is_known(c: Card) -> bool:
    return c is not UNKNOWN


def card_at(index: int) -> Card:
    return UNKNOWN if index == UNKNOWN_INDEX else DECK[index]


def card(suit: Suit, rank: Rank) -> Card:
    return DECK[SUITS.index(suit) * 10 + int(rank) - 1]


# ---- parsing ---------------------------------------------------------------------------------

_SUIT_WORDS: dict[str, Suit] = {
    "d": Suit.DENARI, "denari": Suit.DENARI, "denaro": Suit.DENARI, "q": Suit.DENARI,
    "quadri": Suit.DENARI, "quadro": Suit.DENARI, "♦": Suit.DENARI, "♢": Suit.DENARI,
    "c": Suit.COPPE, "coppe": Suit.COPPE, "coppa": Suit.COPPE, "cuori": Suit.COPPE,
    "cuore": Suit.COPPE, "♥": Suit.COPPE, "♡": Suit.COPPE, "h": Suit.COPPE,
    "b": Suit.BASTONI, "bastoni": Suit.BASTONI, "bastone": Suit.BASTONI, "f": Suit.BASTONI,
    "fiori": Suit.BASTONI, "fiore": Suit.BASTONI, "♣": Suit.BASTONI, "♧": Suit.BASTONI,
    "s": Suit.SPADE, "spade": Suit.SPADE, "spada": Suit.SPADE, "p": Suit.SPADE,
    "picche": Suit.SPADE, "picca": Suit.SPADE, "♠": Suit.SPADE, "♤": Suit.SPADE,
}
# Single letters that are both ranks and suits are read by position (rank first, suit last).
_RANK_WORDS: dict[str, Rank] = {
    "a": Rank.ASSO, "1": Rank.ASSO, "asso": Rank.ASSO, "ace": Rank.ASSO,
    "2": Rank.DUE, "due": Rank.DUE, "3": Rank.TRE, "tre": Rank.TRE,
    "4": Rank.QUATTRO, "quattro": Rank.QUATTRO, "5": Rank.CINQUE, "cinque": Rank.CINQUE,
    "6": Rank.SEI, "sei": Rank.SEI, "7": Rank.SETTE, "sette": Rank.SETTE,
    "f": Rank.FANTE, "fante": Rank.FANTE, "j": Rank.FANTE, "jack": Rank.FANTE,
    "c": Rank.CAVALLO, "cavallo": Rank.CAVALLO, "q": Rank.CAVALLO, "donna": Rank.CAVALLO,
    "regina": Rank.CAVALLO, "queen": Rank.CAVALLO,
    "r": Rank.RE, "re": Rank.RE, "k": Rank.RE, "king": Rank.RE,
}
_WORDS = re.compile(r"^(?P<rank>[^\s]+)\s+(?:di\s+|de\s+)?(?P<suit>[^\s]+)$")
# No 8, 9 or 10: the French deck is used "senza i Jolly, gli 8, i nove e i dieci" (000).
_COMPACT = re.compile(r"^(?P<rank>[1-7ajqkfcr])(?P<suit>[dcbsqhfp♦♥♣♠♢♡♧♤])$")

EXPECTED: Said = say("a card such as 7d, Rc, Fb, Cs, Ad (rank A 2-7 F C R or J Q K, then suit "
                     "d c b s or ♦ ♥ ♣ ♠), or words such as 'sette di denari' or 'K♥'")


def parse_card(text: str) -> Card:
    """Read one card in the compact notation, Italian or French words, or with suit symbols."""
    raw = unicodedata.normalize("NFC", text).strip()
    lowered = raw.lower().replace("\ufe0f", "")
    match = _COMPACT.match(lowered)
    if match is not None:
        return card(_SUIT_WORDS[match["suit"]], _RANK_WORDS[match["rank"]])
    words = _WORDS.match(lowered)
    if words is not None and words["rank"] in _RANK_WORDS and words["suit"] in _SUIT_WORDS:
        return card(_SUIT_WORDS[words["suit"]], _RANK_WORDS[words["rank"]])
    raise CardParseError(say("{text} is not a card: expected {expected}", text=excerpt(text),
                             expected=EXPECTED))


SUIT_EXPECTED: Said = say("a suit: d c b s, denari coppe bastoni spade, quadri cuori fiori "
                          "picche or ♦ ♥ ♣ ♠")


def parse_suit(text: str) -> Suit:
    """Read a suit: its letter, its Italian or French name, or its symbol."""
    lowered = unicodedata.normalize("NFC", text).strip().lower().replace("\ufe0f", "")
    suit = _SUIT_WORDS.get(lowered)
    if suit is None:
        raise CardParseError(say("{text} is not a suit: expected {expected}",
                                 text=excerpt(text), expected=SUIT_EXPECTED))
    return suit


_SUFFIX = re.compile(r"=\S*$")


def _is_one_card(piece: str) -> bool:
    """Whether `piece` is one card, maybe with a `=value` suffix (the matta's `7c=1`)."""
    try:
        parse_card(_SUFFIX.sub("", piece))
    except CardParseError:
        return False
    return True


def split_cards(text: str) -> tuple[str, ...]:
    """The items of a card list, as written. Commas separate cards ("sette di denari, re di
    coppe"); a piece between commas that is not one card in words is split at its spaces, so
    compact codes may be separated by spaces or commas ("4c 7b 2s", "7d, Rc Fb"). An item may
    carry a `=value` suffix for its caller (the matta's value in Cirulla). Empty items are
    dropped."""
    items: list[str] = []
    for piece in text.split(","):
        words = piece.split()
        if len(words) > 1 and _is_one_card(" ".join(words)):
            items.append(" ".join(words))
        else:
            items.extend(words)
    return tuple(items)


_LIST_WORDS = {"di", "de"} | {w for w in (*_RANK_WORDS, *_SUIT_WORDS) if len(w) > 1}


def parse_item(item: str, position: int, count: int) -> Card:
    """Item `position` (from 1) of a list of `count` items; the error names it and its place."""
    try:
        return parse_card(item)
    except CardParseError:
        pass
    if count == 1:
        raise CardParseError(say("{text} is not a card: expected {expected}",
                                 text=excerpt(item), expected=EXPECTED))
    if item.lower() in _LIST_WORDS:
        raise CardParseError(say(
            "item {position} of {count} in the list, {text}, is not a card: expected "
            "{expected}; separate cards written in words with commas: 'sette di denari, re di "
            "coppe'", position=position, count=count, text=excerpt(item), expected=EXPECTED))
    raise CardParseError(say("item {position} of {count} in the list, {text}, is not a card: "
                             "expected {expected}", position=position, count=count,
                             text=excerpt(item), expected=EXPECTED))


def check_distinct(cards: Iterable[Card], text: str) -> None:
    """Refuse a card listed twice in the list `text`."""
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardParseError(say("card {card} is listed twice in {text}", card=c.code,
                                     text=excerpt(text)))
        seen.add(c)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a list of cards (see `split_cards`): compact codes separated by spaces or commas,
    cards in words separated by commas; duplicates are an error, and so is any item that is not
    a card (named with its place in the list)."""
    items = split_cards(text)
    cards = tuple(parse_item(item, k, len(items)) for k, item in enumerate(items, 1))
    check_distinct(cards, text)
    return cards


def deck_sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_index))


def _index(c: Card) -> int:
    return c.index


def format_cards(cards: Iterable[Card], style: Style = "italian") -> str:
    return " ".join(c.render(style) for c in cards)
