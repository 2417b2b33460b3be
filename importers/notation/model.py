"""A match as people wrote it down: the parsed record, before any rule has judged it.

The reader (reader.py) builds these from text, the writer (writer.py) turns them back into text,
`from_events.py` builds them from a stored match's events, and `replay.py` judges them through the
rules. Like python-chess's `Game` beside its `Board`, the record keeps what was written (a seat
written or not, a scopa marked or not, an irregularity marker) apart from what the rules make of
it. Every element carries where it was read (`Pos`); a record built from events has `NOWHERE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from domain.cards import Card


class Pos(msgspec.Struct, frozen=True):
    """Where something was read: 1-based line and column of its first character. A frozen
    msgspec Struct, as `WrittenPlay`: one is built for each card read."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


NOWHERE = Pos(0, 0)
"""The position of what was not read from text (a record built from events)."""

CLAIMED_BY_RECORD = "hand record"
"""Whose claim a record's own `Claimed` line is (ScoreClaimed.claimed_by); a score sheet's claims
name the sheet or its keeper, and are not part of the hand record."""

EVENT_TYPES = (
    "SmazzataDealt", "DealAnnulled", "AccusoDeclared", "CardPlayed", "HandDealt", "CardsDrawn",
    "TrickTaken", "SmazzataEnded",
    "MatchCreated", "TagsTranscribed", "SeedCommitted", "SeedContributed", "SeedRevealed",
    "MatchSeedRevealed", "TimeoutRecorded", "Abandoned", "RulingRecorded", "IrregularityNoted",
    "ScoreClaimed", "MatchEnded", "MatchResumed",
)
"""The types of event a match's stream holds (domain/events.py, domain/record/events.py): a
ruling's `refers` names one of them. Spelled out here, not imported, so that the record stays a
plain model; a test checks the list against the domain's `MatchEvent`."""

IRREGULARITY_MARKERS = ("fuori-turno", "presa-mancata", "presa-sbagliata", "carta-sbagliata",
                        "accuso-mancato")
"""The markers of a play the table accepted against the rules (`!fuori-turno` in the text)."""


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    value: str
    pos: Pos = field(default=NOWHERE, compare=False)


class WrittenPlay(msgspec.Struct, frozen=True):
    """One card played. `seat` (0-based) is None when the record leaves it to the turn order;
    `capture` the table cards taken as written (Cirulla; empty: a discard, and always empty in
    Briscola); `matta_value` the value written for the matta; `scopa` whether the writer marked a
    scopa (`#`); `irregular` the marker of an irregularity the table accepted, or None.

    A frozen msgspec Struct (built in C, one per card read; changed with
    `msgspec.structs.replace`); like the dataclasses beside it, equal whatever its `pos`."""

    card: Card
    seat: int | None = None
    capture: tuple[Card, ...] = ()
    matta_value: int | None = None
    scopa: bool = False
    irregular: str | None = None
    pos: Pos = NOWHERE

    def _written(self) -> tuple[object, ...]:
        return (self.card, self.seat, self.capture, self.matta_value, self.scopa,
                self.irregular)

    def __eq__(self, other: object) -> bool:
        if type(other) is not WrittenPlay:
            return NotImplemented
        return self._written() == other._written()

    def __hash__(self) -> int:
        return hash(self._written())


@dataclass(frozen=True, slots=True)
class WrittenAccuso:
    """An accuso a player declared (Cirulla), with the cards shown. `seat` 0-based."""

    seat: int
    kind: str
    cards: tuple[Card, ...]
    matta_value: int | None = None
    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class WrittenLayout:
    """One dealt attempt as written: the table cards (Cirulla) or the briscola card, the first
    hands by seat (None: not written, all unknown) and the stock top first (None: not written)."""

    table: tuple[Card, ...] = ()
    briscola: Card | None = None
    hands: tuple[tuple[Card, ...] | None, ...] | None = None
    stock: tuple[Card, ...] | None = None
    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class WrittenIncident:
    """What happened beside the play. `kind`: `timeout` (seat, `elapsed_ms` the time the seat had
    used on its move), `abandon` (seat, `reason`, `elapsed_ms` its absence), `ruling` (`arbiter`,
    `ruling` the ruling kind, `smazzata` 0-based or None, `adjustment`, `refers`, `reason`).

    `refers` names the event a ruling is about by its type and its ordinal (from 1) among the
    match's events of that type, `("CardPlayed", 12)`: not by its version in a stream, since an
    import numbers its events otherwise than the stream the record was written from (it adds a
    TagsTranscribed, a transcribed deal has no seed events)."""

    kind: str
    seat: int | None = None
    elapsed_ms: int | None = None
    reason: str = ""
    arbiter: str = ""
    ruling: str = ""
    smazzata: int | None = None
    adjustment: tuple[int, int] = (0, 0)
    refers: tuple[str, int] | None = None
    pos: Pos = field(default=NOWHERE, compare=False)


Move = WrittenPlay | WrittenAccuso | WrittenIncident


@dataclass(frozen=True, slots=True)
class WrittenClaim:
    """The score the writers claimed for a smazzata: (category, side 0, side 1) rows, in the
    order written, categories as in docs/events.md section 5.2."""

    rows: tuple[tuple[str, int, int], ...]
    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class WrittenSmazzata:
    """One smazzata: its number (0-based, written from 1), the dealer (0-based) if written, the
    seed (hex) if known, the dealt attempts (all but the last went "a monte"), then the moves in
    the order they happened, and the claimed score if written."""

    number: int
    dealer: int | None
    seed: str | None
    attempts: tuple[WrittenLayout, ...]
    moves: tuple[Move, ...] = ()
    claim: WrittenClaim | None = None
    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class WrittenMatch:
    """One match of a file: its tag pairs in the order written, its smazzate, what happened
    after the last smazzata (incidents: a ruling after the end, an abandon between smazzate),
    and where it was read (`source` the file's name, `pos` its first tag)."""

    tags: tuple[Tag, ...]
    smazzate: tuple[WrittenSmazzata, ...] = ()
    after: tuple[WrittenIncident, ...] = ()
    source: str = field(default="", compare=False)
    pos: Pos = field(default=NOWHERE, compare=False)

    def tag(self, name: str) -> str | None:
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return None
