"""Who recorded an event: the envelope every stored event carries beside its data.

The envelope is not part of the fact (`data`): the same play is the same fact whoever typed it.
It is part of the record, so the hash chain covers it (docs/events.md section 1). Kinds:
`seat` (a player at the table, `name` the player, `where` the seat), `arbiter` (`name`),
`house` (the table system that seeds, deals and reveals in live play), `importer` (`name` the
program and its version, `where` the file and line the event was read from) and `simulator`
(`name` the program and its version).
"""

from __future__ import annotations

from msgspec import structs

from domain.events import Fact
from domain.text import say

RECORDER_KINDS = ("seat", "arbiter", "house", "importer", "simulator")


class EnvelopeError(ValueError):
    """An envelope that does not say who recorded the event."""


class RecordedBy(Fact, frozen=True):
    kind: str
    name: str
    where: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in RECORDER_KINDS:
            raise EnvelopeError(say("recorded by {kind!r}: expected one of {known}",
                                    kind=self.kind, known=", ".join(RECORDER_KINDS)))
        if not self.name.strip():
            raise EnvelopeError(say("recorded by a {kind} with no name", kind=self.kind))

    def __str__(self) -> str:
        where = f" ({self.where})" if self.where else ""
        return f"{self.kind} {self.name}{where}"


def seat(player: str, number: int) -> RecordedBy:
    return RecordedBy("seat", player, f"seat {number}")


def arbiter(name: str) -> RecordedBy:
    return RecordedBy("arbiter", name)


def importer(program: str, file: str, line: int) -> RecordedBy:
    return RecordedBy("importer", program, f"{file}:{line}")


def importer_line(envelope: RecordedBy, file: str, line: int) -> RecordedBy:
    """`importer(envelope.name, file, line)` for an importer's envelope already made: built
    without running the checks again (they read the kind and the name, which stay), since an
    import makes one per line of plays (docs/benchmarks.md, issue 12)."""
    return structs.replace(envelope, where=f"{file}:{line}")
