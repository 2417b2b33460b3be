"""The writer: a WrittenMatch as text in the notation's strict export form (docs/notation.md).

The form is deterministic, so that the SHA-256 of a record's export names the record (replay.py
`content_hash`): the tags in a fixed order, then each smazzata with its dealer, seed, deal
attempts, one giro (Cirulla) or trick (Briscola) per line with its number, accusi, incidents and
the claimed score on their own lines; cards as compact Italian codes, `??` for a card nobody saw.
Reading the text back (reader.py) gives the same WrittenMatch, positions aside.

The writer is faithful to the model: it writes the hands, seats and markers the record has and
adds none (`from_events.py` decides what a stored match's record holds). Only the tags are put in
order. What the notation cannot say (a line break in a quoted string) is a ValueError.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from domain.cards import DECK, UNKNOWN_CODE, Card
from domain.text import say
from importers.notation.model import (
    Move,
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenIncident,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)

FIRST_TAGS = ("Game", "Event", "Site", "Date", "Round", "Table", "Players", "Format", "Ruleset",
              "Visibility", "FirstDealer")
"""The tags the strict form writes first, in this order; then the others as the model has them,
and `Result` last."""

LAST_TAG = "Result"
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_EVENT_TYPE = re.compile(r"[A-Za-z]+")
_CODE: tuple[str, ...] = (*(card.code for card in DECK), UNKNOWN_CODE)
"""Each card's compact code by its index (a Card is an int; `??` is index 40): read per card
written, once per play, where `Card.code` would build the text again every time."""
_CODE_OF = _CODE.__getitem__


def write_matches(matches: Iterable[WrittenMatch]) -> str:
    """Several matches in one text, a blank line between them."""
    return "\n".join(write(match) for match in matches)


def write(match: WrittenMatch) -> str:
    """One match in the strict export form, ending with a newline."""
    blocks = ["".join(_tag_line(tag) for tag in ordered_tags(match.tags))]
    players = _players(match)
    blocks.extend(_smazzata(smazzata, players) for smazzata in match.smazzate)
    if match.after or not match.smazzate:
        # With no smazzata, `End` closes the tags, so the match's end is written, not implied
        # by the next Game tag (the reader starts a match at each); content hashes rely on it.
        blocks.append("End\n" + "".join(_incident(i) + "\n" for i in match.after))
    return "\n".join(blocks)


def ordered_tags(tags: tuple[Tag, ...]) -> tuple[Tag, ...]:
    """The tags in the strict order, each name once (its first value)."""
    first: dict[str, Tag] = {}
    for tag in tags:
        first.setdefault(tag.name, tag)
    known = [first[name] for name in FIRST_TAGS if name in first]
    others = [t for name, t in first.items() if name not in FIRST_TAGS and name != LAST_TAG]
    last = [first[LAST_TAG]] if LAST_TAG in first else []
    return (*known, *others, *last)


def quoted(text: str) -> str:
    """A string of the notation: double quotes, `\\"` and `\\\\` escaped. A line break or a
    control character but the tab cannot be written (the reader refuses them): ValueError."""
    if _CONTROL.search(text):
        raise ValueError(say("a line break or a control character cannot be written in a "
                             "quoted string of the notation: {text}", text=repr(text)))
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(map(_CODE_OF, cards))


def seconds(elapsed_ms: int) -> str:
    """Milliseconds as seconds with up to 3 decimals: `61.25s`, `60s`."""
    whole, part = divmod(elapsed_ms, 1000)
    decimals = f"{part:03d}".rstrip("0")
    return f"{whole}.{decimals}s" if decimals else f"{whole}s"


def score(pair: tuple[int, int]) -> str:
    return f"{pair[0]}-{pair[1]}"


def _tag_line(tag: Tag) -> str:
    return f"[{tag.name} {quoted(tag.value)}]\n"


def _players(match: WrittenMatch) -> int:
    """How many plays a giro or trick has: the number of players (2 when not readable)."""
    names = match.tag("Players")
    count = len(names.split(",")) if names else 0
    return count if count in (2, 4) else 2


def _smazzata(smazzata: WrittenSmazzata, players: int) -> str:
    lines = [f"Smazzata {smazzata.number + 1}"]
    if smazzata.dealer is not None:
        lines.append(f"Dealer {smazzata.dealer + 1}")
    if smazzata.seed is not None:
        lines.append(f"Seed {smazzata.seed}")
    for attempt in smazzata.attempts:
        lines.extend(_layout(attempt))
    lines.extend(_moves(smazzata.moves, players))
    if smazzata.claim is not None:
        lines.append(_claim(smazzata.claim))
    lines.append("")
    return "\n".join(lines)


def _layout(layout: WrittenLayout) -> list[str]:
    lines = []
    if layout.briscola is not None:
        lines.append("Briscola " + _CODE[layout.briscola])
    if layout.table or layout.briscola is None:
        lines.append(_joined("Table", layout.table))
    for seat, hand in enumerate(layout.hands or ()):
        if hand is not None:
            lines.append(_joined(f"Hand {seat + 1}", hand))
    if layout.stock is not None:
        lines.append(_joined("Stock", layout.stock))
    return lines


def _joined(head: str, cards: tuple[Card, ...]) -> str:
    return head + " " + " ".join(map(_CODE_OF, cards)) if cards else head


def _moves(moves: tuple[Move, ...], players: int) -> list[str]:
    """One giro or trick per line, numbered from 1; an accuso or an incident breaks the line
    (the plays after it go on, unnumbered, on the next)."""
    lines: list[str] = []
    line: list[str] = []
    plays = 0
    for move in moves:
        if isinstance(move, WrittenPlay):
            if not plays % players:
                _flush(lines, line)
                giro = plays // players
                line.append(_NUMBERS[giro] if giro < len(_NUMBERS) else f"{giro + 1}.")
            line.append(play_text(move))
            plays += 1
            continue
        _flush(lines, line)
        lines.append(_accuso(move) if isinstance(move, WrittenAccuso) else _incident(move))
    _flush(lines, line)
    return lines


_NUMBERS = tuple(f"{number}." for number in range(1, 41))
"""The numbers of the giri or tricks of a smazzata (at most 40 plays), written once."""


def _flush(lines: list[str], line: list[str]) -> None:
    if line:
        lines.append(" ".join(line))
        line.clear()


def play_text(play: WrittenPlay) -> str:
    """`[S:]card[ x c+c][=N][#][!marker]`."""
    text = _CODE[play.card]
    if play.seat is not None:
        text = f"{play.seat + 1}:{text}"
    if play.capture:
        text += " x " + "+".join(map(_CODE_OF, play.capture))
    if play.matta_value is not None:
        text += f"={play.matta_value}"
    if play.scopa:
        text += "#"
    if play.irregular is not None:
        text += f"!{play.irregular}"
    return text


def _accuso(accuso: WrittenAccuso) -> str:
    text = f"Accuso {accuso.seat + 1} {accuso.kind} {cards_text(accuso.cards)}"
    return text if accuso.matta_value is None else f"{text} matta {accuso.matta_value}"


def _incident(incident: WrittenIncident) -> str:
    elapsed = "" if incident.elapsed_ms is None else " " + seconds(incident.elapsed_ms)
    if incident.kind == "timeout":
        return f"Timeout{_seat(incident)}{elapsed}"
    if incident.kind == "abandon":
        return f"Abandon{_seat(incident)} {quoted(incident.reason)}{elapsed}"
    if incident.kind == "ruling":
        return _ruling(incident)
    raise ValueError(say("an incident of kind {kind} cannot be written", kind=incident.kind))


def _seat(incident: WrittenIncident) -> str:
    # The notation always names the seat; a record built by hand without it is still written
    # (deterministically, for its content hash), though the reader will not take it back.
    return "" if incident.seat is None else f" {incident.seat + 1}"


def _ruling(incident: WrittenIncident) -> str:
    words = ["Ruling", quoted(incident.arbiter), incident.ruling]
    if incident.smazzata is not None:
        words.append(f"smazzata {incident.smazzata + 1}")
    if incident.adjustment != (0, 0):
        words.append(f"adjust {score(incident.adjustment)}")
    if incident.refers is not None:
        kind, ordinal = incident.refers
        if not _EVENT_TYPE.fullmatch(kind):   # a word of letters, or the line reads otherwise
            raise ValueError(say("a ruling refers to an event type, a word of letters: {kind}",
                                 kind=repr(kind)))
        words.append(f"refers {kind} {ordinal}")
    words.append(quoted(incident.reason))
    return " ".join(words)


def _claim(claim: WrittenClaim) -> str:
    rows = " ".join(f"{category.replace(' ', '_')} {score((a, b))}"
                    for category, a, b in claim.rows)
    return f"Claimed {rows}" if rows else "Claimed"
