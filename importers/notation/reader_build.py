"""From lark's parse to the record model: the embedded transformer and the line converters.

The transformer (`ToRaw`) runs inside lark's LALR parser (no tree is built, for speed) and is
stateless, so one parser serves every thread. It turns each line into a `Line` and each play into
a `WrittenPlay`; what it can judge alone (a marker) it returns as a `Problem` in place of the
item. reader_check.py then checks what needs the match's tags (the game, the number of players)
and the order of the lines, and assembles the `WrittenMatch` with the converters below.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from lark import Token, Transformer

from domain.cards import UNKNOWN, Card, parse_card
from domain.text import excerpt, say
from importers.notation.model import (
    EVENT_TYPES,
    IRREGULARITY_MARKERS,
    Pos,
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenIncident,
    WrittenLayout,
    WrittenPlay,
)

CLAIM_CATEGORIES = {
    "cirulla": ("scope", "settebello", "primiera", "denari", "carte", "grande", "piccola",
                "accusi"),
    "briscola": ("punti", "prese", "carte", "vinco_subito"),
}
ACCUSO_KINDS = ("cirulla", "decino")
_HUGE = 10 ** 9  # stands for a number too long to be a seat or a count (int() limits digits)
_CARDS: dict[str, Card] = {"??": UNKNOWN}
_EVENT_TYPES = {name.lower(): name for name in EVENT_TYPES}   # keywords are case-insensitive


@dataclass(frozen=True, slots=True)
class Problem:
    """An error found while reading, before the source name is known."""

    line: int
    column: int
    found: str
    expected: str


@dataclass(slots=True)
class Line:
    """One line of a smazzata (or after `End`): its keyword token and what followed it (the
    tokens; a line's run of cards as one string, `ToRaw._cards_line`)."""

    kind: str
    head: Token
    args: list[Any] = field(default_factory=list)


@dataclass(slots=True)
class RawMatch:
    tags: list[Tag]
    smazzate: list[tuple[Token, Token, list[Line]]]
    after: list[Line]


def at(token: Token, expected: str, found: str | None = None) -> Problem:
    """A problem at `token`, quoting it unless `found` says otherwise."""
    return Problem(token.line or 1, token.column or 1,
                   excerpt(str(token)) if found is None else found, expected)


def or_list(words: Sequence[str]) -> str:
    """Words joined as "a, b or c", with translatable joints (each item may be a `Said`)."""
    if len(words) == 1:
        return words[0]
    joined = words[0]
    for word in words[1:-1]:
        joined = say("{words}, {word}", words=joined, word=word)
    return say("{words} or {word}", words=joined, word=words[-1])


def number(text: str) -> int:
    return int(text) if len(text) < 10 else _HUGE


def read_card(text: str) -> Card:
    found = _CARDS.get(text)
    if found is None:  # the grammar's CARD only lets through what parse_card reads
        found = _CARDS[text] = parse_card(text)
    return found


def read_cards(text: str) -> tuple[Card, ...]:
    """The cards of a line's run of CARD tokens, kept as their text one space apart (`ToRaw`:
    a lark Token per card, looked up in a dict, would compare itself with the key by its own
    `__eq__`, a Python call per card; a plain string compares at C speed)."""
    if not text:
        return ()
    return _cards_of(text.split(" "))


def _cards_of(codes: list[str]) -> tuple[Card, ...]:
    """The cards of their codes (as the grammar's CARD reads them): looked up at C speed once
    each code has been read (a Stock line is some thirty of them), else one by one."""
    try:
        return tuple(map(_CARDS.__getitem__, codes))
    except KeyError:
        return tuple(map(read_card, codes))


def cards_text(tokens: Sequence[Token]) -> str:
    """A run of CARD tokens as one plain string, one space apart (what `read_cards` reads)."""
    return " ".join(tokens)


def _pos(token: Token) -> Pos:
    return Pos(token.line or 1, token.column or 1)


class ToRaw(Transformer[Token, Any]):
    """Lark callbacks, one per rule (names as in grammar.lark)."""

    def start(self, children: list[list[RawMatch]]) -> list[RawMatch]:
        return [raw for matches in children for raw in matches]

    def match(self, children: list[Any]) -> list[RawMatch]:
        """One match, or several: a match with no smazzata runs into the next one's tags (the
        grammar cannot tell where one tag section ends), so a new match starts at each Game."""
        tags = [c for c in children if isinstance(c, Tag)]
        smazzate = [c for c in children if isinstance(c, tuple)]
        after = next((c for c in children if isinstance(c, list)), [])
        starts = [i for i, tag in enumerate(tags) if i and tag.name == "Game"]
        heads = [RawMatch(tags[a:b], [], []) for a, b in pairwise([0, *starts])]
        return [*heads, RawMatch(tags[starts[-1] if starts else 0:], smazzate, after)]

    def tag(self, children: list[Token]) -> Tag:
        opening, name, value = children
        return Tag(str(name), unquote(value), _pos(opening))

    def smazzata(self, children: list[Any]) -> tuple[Token, Token, list[Line]]:
        # a line of plays comes as its token: one reduction less per line, for speed
        return (children[0], children[1],
                [Line("plays", c, plays_of(c)) if type(c) is Token else c for c in children[2:]])

    def end(self, children: list[Any]) -> list[Line]:
        return children[1:]

    def _keyword_line(self, children: list[Token]) -> Line:
        return Line(children[0].type.lower(), children[0], children[1:])

    def _cards_line(self, children: list[Token]) -> Line:
        """A line ending with cards (Table, Briscola, Stock; Hand after its seat): the cards
        as one string (`cards_text`), which is all that reader_check.py reads of them. The
        fast route (reader_fast.py) takes that string from the line as it stands."""
        head = children[0]
        split = 2 if head.type == "HAND" else 1
        return Line(head.type.lower(), head, [*children[1:split], cards_text(children[split:])])

    table = briscola = hand = stock = _cards_line
    dealer = seed = accuso = _keyword_line
    claimed = timeout = abandon = ruling = _keyword_line


def play_regex(card: str) -> re.Pattern[str]:
    """One play of a PLAYS_LINE token (grammar.lark's PLAY) with its parts as groups; `card` is
    the grammar's CARD pattern, so both read the same cards."""
    return re.compile(
        rf"(?:(?P<seat>[0-9]+):[ \t]*)?(?P<card>{card})"
        rf"(?:[ \t]*x[ \t]*(?P<capture>{card}(?:[ \t]*\+[ \t]*{card})*))?"
        r"(?:[ \t]*=(?P<matta>[0-9]+))?(?P<scopa>[ \t]*#)?(?:[ \t]*!(?P<marker>[a-z][a-z-]*))?")


PLAY_RE = re.compile("")  # set by reader.py from the grammar's CARD terminal (play_regex)
_COMMENTS = re.compile(r"\{[^}]*\}|;[^\n]*")
_PLUS = re.compile(r"[ \t]*\+[ \t]*")


def plays_of(token: Token) -> list[WrittenPlay | Problem]:
    """The plays of a line the grammar accepted (so every match below is a whole play)."""
    text: str = token   # read as it is: a copy of the line as a plain str would cost more
    if "{" in text or ";" in text:  # blanked, so that positions stay true
        text = _COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    line, column = token.line or 1, token.column or 1
    # Something after the first newline but blanks: a comment spans lines, so a play's line
    # may be a later one (`"\n" in text.rstrip()`, without copying the line).
    newline = text.find("\n")
    if newline >= 0 and not text[newline:].isspace():
        return [full_play(found, _pos_in(text, found.start(), line, column))
                for found in PLAY_RE.finditer(text)]
    plays: list[WrittenPlay | Problem] = []
    append = plays.append
    cards = _CARDS
    for found in PLAY_RE.finditer(text):
        seat, card, capture, matta, scopa, marker = found.groups()
        if seat is None and matta is None and marker is None:   # as the writer writes plays
            played = cards.get(card)
            append(WrittenPlay(read_card(card) if played is None else played, None,
                               () if capture is None else _captured(capture), None,
                               scopa is not None, None, Pos(line, column + found.start())))
        else:
            append(full_play(found, Pos(line, column + found.start())))
    return plays


def _captured(text: str) -> tuple[Card, ...]:
    """The cards a play takes, `+` between them (spaces and tabs around it allowed)."""
    if " " in text or "\t" in text:
        return _cards_of(_PLUS.split(text))
    return _cards_of(text.split("+"))


def _pos_in(text: str, start: int, line: int, column: int) -> Pos:
    if "\n" in text[:start]:  # after a comment that spans lines
        return Pos(line + text.count("\n", 0, start), start - text.rfind("\n", 0, start))
    return Pos(line, column + start)


def full_play(found: re.Match[str], pos: Pos) -> WrittenPlay | Problem:
    seat, card, capture, matta, scopa, marker = found.groups()
    if marker is not None and marker not in IRREGULARITY_MARKERS:
        return Problem(pos.line, pos.column + found.start("marker") - found.start() - 1,
                       excerpt("!" + marker),
                       say("a marker among {markers}",
                           markers=", ".join("!" + m for m in IRREGULARITY_MARKERS)))
    return WrittenPlay(
        read_card(card), None if seat is None else number(seat) - 1,
        () if capture is None else _captured(capture),
        None if matta is None else number(matta), scopa is not None, marker, pos)


def seconds_ms(token: Token) -> int:
    """`12.5s` as milliseconds."""
    whole, _, fraction = token[:-1].partition(".")
    return number(whole) * 1000 + int((fraction + "000")[:3])


def unquote(token: Token) -> str:
    return token[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def score(token: Token) -> tuple[int, int]:
    """`A-B` (each may be negative: `-1-2`, `3--1`)."""
    text = str(token)
    split = text.index("-", 1)
    return number_signed(text[:split]), number_signed(text[split + 1:])


def number_signed(text: str) -> int:
    return -number(text[1:]) if text.startswith("-") else number(text)


def accuso_of(line: Line, seat: int) -> WrittenAccuso | Problem:
    kind = line.args[1]
    if kind.lower() not in ACCUSO_KINDS:
        return at(kind, say("an accuso kind: cirulla or decino"))
    cards = tuple(read_card(c) for c in line.args[2:] if c.type == "CARD")
    matta = number(line.args[-1]) if line.args[-2].type == "MATTA" else None
    return WrittenAccuso(seat, kind.lower(), cards, matta, _pos(line.head))


def incident_of(line: Line, seat: int | None) -> WrittenIncident | Problem:
    args = line.args
    pos = _pos(line.head)
    if line.kind == "timeout":
        elapsed = seconds_ms(args[1]) if len(args) > 1 else None
        return WrittenIncident("timeout", seat, elapsed, pos=pos)
    if line.kind == "abandon":
        elapsed = seconds_ms(args[2]) if len(args) > 2 else None
        return WrittenIncident("abandon", seat, elapsed, unquote(args[1]), pos=pos)
    return ruling_of(line, pos)


def ruling_of(line: Line, pos: Pos) -> WrittenIncident | Problem:
    args = line.args
    smazzata: int | None = None
    adjustment = (0, 0)
    refers: tuple[str, int] | None = None
    for index, token in enumerate(args[2:-1], start=2):
        if token.type == "SMAZZATA":
            value = args[index + 1]
            if number(value) < 1:
                return at(value, say("a smazzata number from 1"))
            smazzata = number(value) - 1
        elif token.type == "ADJUST":
            adjustment = score(args[index + 1])
        elif token.type == "REFERS":
            found = refers_of(args[index + 1], args[index + 2])
            if isinstance(found, Problem):
                return found
            refers = found
    return WrittenIncident("ruling", None, None, unquote(args[-1]), unquote(args[0]),
                           str(args[1]), smazzata, adjustment, refers, pos)


def refers_of(kind: Token, ordinal: Token) -> tuple[str, int] | Problem:
    """`refers CardPlayed 12`: the event's type (its name, in any case) and its ordinal."""
    name = _EVENT_TYPES.get(kind.lower())
    if name is None:
        return at(kind, say(
            "an event type such as CardPlayed, SmazzataEnded or SeedRevealed"))
    if number(ordinal) < 1:
        return at(ordinal, say("the event's ordinal among those of its type, from 1"))
    return name, number(ordinal)


def claim_of(line: Line, game: str) -> WrittenClaim | Problem:
    known = CLAIM_CATEGORIES[game]
    rows: list[tuple[str, int, int]] = []
    for name, value in zip(line.args[0::2], line.args[1::2], strict=True):
        if name not in known:
            return at(name, say("a category among {categories}", categories=", ".join(known)))
        rows.append((str(name), *score(value)))
    return WrittenClaim(tuple(rows), _pos(line.head))


def layout_of(line: Line, game: str, players: int) -> WrittenLayout | Problem:
    """A `Table` (Cirulla) or `Briscola` line as an attempt with no hand or stock yet."""
    want = "table" if game == "cirulla" else "briscola"
    if line.kind != want:
        return at(line.head, say("a Table line of 4 cards") if want == "table"
                  else say("a Briscola line with one card"))
    cards = read_cards(line.args[0])
    if want == "table":
        if len(cards) != 4:
            return at(line.head, say("a Table line of 4 cards"),
                      found=excerpt(line.args[0]) if cards else say("no card"))
        return WrittenLayout(table=cards, pos=_pos(line.head))
    return WrittenLayout(briscola=cards[0], pos=_pos(line.head))
