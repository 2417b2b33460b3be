"""A line of plays written the plain way, read by splitting it at its spaces.

Most lines of plays are written as the writer writes them: a giro's number, then each play one
space apart, a card in its compact code alone (`7d`, `7d#`) or taking cards (`7d x 4c+Rc#`);
no seat, no matta value, no marker, no comment, no tab. Matching the grammar's play pattern
once per play (its groups read one by one) was a third of reading a record (docs/benchmarks.md,
issue 12); such a line reads the same word by word. `plain_plays` gives the plays
`reader_build.plays_of` gives for the line, or None when the line is anything else, and
plays_of then reads it with the pattern (tests/importers/notation/test_plays_simple.py).
"""

from __future__ import annotations

from domain.building import builder
from domain.cards import DECK, Card
from importers.notation.model import Pos, WrittenPlay

_CODES: dict[str, Card] = {card.code: card for card in DECK}
"""The 40 compact codes as the writer writes them: each is a whole CARD of the grammar."""
_new_pos = builder(Pos)
_new_play = builder(WrittenPlay)


def plain_plays(text: str, line: int, column: int) -> list[WrittenPlay] | None:
    """The plays of a line of plays on one line (`text` from its column `column`, with its
    line break), or None: not written the plain way."""
    body = text.rstrip()
    if "\t" in body or "  " in body:
        return None
    words = body.split(" ")
    codes = _CODES
    plays: list[WrittenPlay] = []
    at = 0
    index = 0
    first = words[0]
    if first[-1:] == "." and first[:-1].isascii() and first[:-1].isdigit():
        at, index = len(first) + 1, 1
    count = len(words)
    while index < count:
        word = words[index]
        start = at
        at += len(word) + 1
        index += 1
        scopa = word[-1:] == "#"
        card = codes.get(word[:-1] if scopa else word)
        if card is None:
            return None
        capture: tuple[Card, ...] = ()
        if not scopa and index < count and words[index] == "x":
            if index + 1 == count:
                return None
            taken = words[index + 1]
            at += len(taken) + 3
            index += 2
            scopa = taken[-1:] == "#"
            cards: list[Card] = []
            for code in (taken[:-1] if scopa else taken).split("+"):
                taken_card = codes.get(code)
                if taken_card is None:
                    return None
                cards.append(taken_card)
            capture = tuple(cards)
        plays.append(_new_play(card, None, capture, None, scopa, None,
                               _new_pos(line, column + start)))
    return plays
