"""The stored event classes: one per event type, each the canonical record of one event.

A stored event is a record `{class_version, data, previous_hash, stream, timestamp, type,
version}` (docs/events.md); `data` is the domain event in plain JSON (codec.py). The library
stores the record's canonical JSON as the row's state and the class's module path as its topic,
so these classes are a stored schema: never rename or move one; change one by raising its
`class_version` and adding `upcast_vN_vN+1(state)` (a static method that rewrites the old
state's `data` in place), and add a golden test of the new JSON.
"""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from domain import events as play
from domain.record import events as record
from projections.store.codec import JSON, decode, encode


class StoredFact:
    """Base of the stored event classes. Instances are plain attribute bags (the library's
    mapper rebuilds them by setting `__dict__`), so every attribute is a record field."""

    __slots__ = ("__dict__", "_record", "encoded")

    domain_type: ClassVar[type[Any]]
    class_version: ClassVar[int] = 1
    encoded: bytes   # the canonical bytes it was hashed as (a slot: not a record field)
    _record: dict[str, JSON]

    originator_id: UUID
    originator_version: int
    stream: str
    version: int
    type: str
    timestamp: str
    previous_hash: str
    data: dict[str, JSON]

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    @classmethod
    def of(cls, stream: UUID, version: int, timestamp: str, previous_hash: str,
           event: object, stream_text: str | None = None) -> StoredFact:
        fact_class = FACT_OF[type(event)]
        fact = fact_class(originator_id=stream, originator_version=version)
        record = record_of(fact_class, version, timestamp, previous_hash, event,
                           stream_text or str(stream))
        fact.__dict__.update(record)
        fact._record = record
        return fact

    def record(self) -> dict[str, JSON]:
        """The record as stored (without the identity columns the library keeps apart)."""
        made: dict[str, JSON] | None = getattr(self, "_record", None)
        if made is not None:
            return made
        return {k: v for k, v in vars(self).items()
                if k not in ("originator_id", "originator_version")}

    def to_domain(self) -> Any:
        return decode(self.domain_type, self.data, f"{self.type} (event {self.version})")


def record_of(fact_class: type[StoredFact], version: int, timestamp: str, previous_hash: str,
              event: object, stream: str) -> dict[str, JSON]:
    """The record of `event`, keys in sorted order (canonical.presorted_json relies on it)."""
    return {"class_version": fact_class.class_version, "data": encode(event),
            "previous_hash": previous_hash, "stream": stream, "timestamp": timestamp,
            "type": fact_class.__name__, "version": version}


class MatchCreated(StoredFact):
    domain_type = record.MatchCreated


class SeedCommitted(StoredFact):
    domain_type = record.SeedCommitted


class SmazzataDealt(StoredFact):
    domain_type = play.SmazzataDealt


class DealAnnulled(StoredFact):
    domain_type = play.DealAnnulled


class AccusoDeclared(StoredFact):
    domain_type = play.AccusoDeclared


class CardPlayed(StoredFact):
    domain_type = play.CardPlayed


class HandDealt(StoredFact):
    domain_type = play.HandDealt


class CardsDrawn(StoredFact):
    domain_type = play.CardsDrawn


class TrickTaken(StoredFact):
    domain_type = play.TrickTaken


class SmazzataEnded(StoredFact):
    domain_type = play.SmazzataEnded


class SeedRevealed(StoredFact):
    domain_type = record.SeedRevealed


class TimeoutRecorded(StoredFact):
    domain_type = record.TimeoutRecorded


class Abandoned(StoredFact):
    domain_type = record.Abandoned


class RulingRecorded(StoredFact):
    domain_type = record.RulingRecorded


class MatchEnded(StoredFact):
    domain_type = record.MatchEnded


class TournamentCreated(StoredFact):
    domain_type = record.TournamentCreated


class MatchScheduled(StoredFact):
    domain_type = record.MatchScheduled


FACT_CLASSES: tuple[type[StoredFact], ...] = (
    MatchCreated, SeedCommitted, SmazzataDealt, DealAnnulled, AccusoDeclared, CardPlayed,
    HandDealt, CardsDrawn, TrickTaken, SmazzataEnded, SeedRevealed, TimeoutRecorded, Abandoned,
    RulingRecorded, MatchEnded, TournamentCreated, MatchScheduled)
FACT_OF: dict[type[Any], type[StoredFact]] = {c.domain_type: c for c in FACT_CLASSES}
FACT_NAMED: dict[str, type[StoredFact]] = {c.__name__: c for c in FACT_CLASSES}
TOPIC_OF: dict[str, str] = {c.__name__: f"{c.__module__}:{c.__qualname__}" for c in FACT_CLASSES}
