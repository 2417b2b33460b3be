"""What can be asked of a match record. `decide` checks each against the rules and the record.

Seeds travel in commands but only into events when the rules allow: a `DealSmazzata` carries the
seed so the deal can be checked against its commitment; the seed itself is recorded only by
`RevealSeed` (or the reveal that closes a match ended by timeout or abandon).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from domain.events import PlayEvent
from domain.game import DeclareAccuso, PlayCard
from domain.record.events import TimeControl
from domain.shuffle import Seed


@dataclass(frozen=True, slots=True)
class CreateMatch:
    game: str
    ruleset: Mapping[str, str]
    players: tuple[str, ...]
    match_format: Mapping[str, str]
    time_control: TimeControl = field(default_factory=TimeControl)
    first_dealer: int = 0
    tournament: str | None = None
    round: int | None = None
    table: int | None = None


@dataclass(frozen=True, slots=True)
class CommitSeed:
    commitment: str


@dataclass(frozen=True, slots=True)
class DealSmazzata:
    """Deal the next smazzata from `seed`. `claimed`: the deal as recorded elsewhere (an
    import); it must be exactly the deal that follows from the seed."""

    seed: Seed
    claimed: tuple[PlayEvent, ...] | None = None


@dataclass(frozen=True, slots=True)
class RevealSeed:
    seed: Seed


@dataclass(frozen=True, slots=True)
class RecordTimeout:
    """`seat` ran out of time; `seed` is the committed seed of the smazzata it interrupts."""

    seat: int
    seed: Seed | None = None


@dataclass(frozen=True, slots=True)
class RecordAbandon:
    seat: int
    reason: str
    last_seen: datetime | None = None
    seed: Seed | None = None


@dataclass(frozen=True, slots=True)
class RecordRuling:
    arbiter: str
    reason: str
    kind: str
    smazzata: int | None = None
    adjustment: tuple[int, int] = (0, 0)
    refers_to: int | None = None


MatchCommand = (CreateMatch | CommitSeed | DealSmazzata | RevealSeed | RecordTimeout
                | RecordAbandon | RecordRuling | PlayCard | DeclareAccuso)
