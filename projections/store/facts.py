"""The stored event classes: one per event type, each the canonical record of one event.

A stored event is a record `{class_version, data, previous_hash, stream, timestamp, type,
version}` (docs/events.md); `data` is the domain event in plain JSON (codec.py). The library
stores the record's canonical JSON as the row's state and the class's module path as its topic,
so these classes are a stored schema: never rename or move one; change one by raising its
`class_version` and adding `upcast_vN_vN+1(state)` (a static method that rewrites the old
state's `data` in place), and add a golden test of the new JSON. A class whose stored `data`
is not exactly the codec's JSON of its domain event says so in `data_of` (writing) and
`domain_data` (reading): MatchCreated stores its options as typed JSON values (since v3) while
the domain keeps them as the option texts the rules parse.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, ClassVar
from uuid import UUID

from domain import events as play
from domain.record import events as record
from domain.record.envelope import RecordedBy
from domain.tarocchi import events as tarocchi
from projections.store.codec import (
    JSON,
    CodecError,
    decode,
    decode_record,
    encode,
    json_bytes,
    wrong_type,
)


class StoredFact:
    """Base of the stored event classes. Instances are plain attribute bags (the library's
    mapper rebuilds them by setting `__dict__`), so every attribute is a record field."""

    __slots__ = ("__dict__", "_record", "encoded")

    domain_type: ClassVar[type[Any]]
    class_version: ClassVar[int] = 1
    encoded: bytes   # the canonical bytes it was hashed as or read from (a slot: not a field)
    _record: dict[str, JSON]

    originator_id: UUID
    originator_version: int
    stream: str
    version: int
    type: str
    timestamp: str
    previous_hash: str
    data: dict[str, JSON]
    recorded_by: dict[str, JSON] | None   # absent from records written before the envelope

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    @classmethod
    def of(cls, stream: UUID, version: int, timestamp: str, previous_hash: str,
           event: object, by: RecordedBy, stream_text: str | None = None) -> StoredFact:
        fact_class = FACT_OF[type(event)]
        fact = fact_class(originator_id=stream, originator_version=version)
        record = {"class_version": fact_class.class_version, "data": fact_class.data_of(event),
                  "previous_hash": previous_hash, "recorded_by": _envelope(by),
                  "stream": stream_text or str(stream), "timestamp": timestamp,
                  "type": fact_class.__name__, "version": version}
        fact.__dict__.update(record)
        fact._record = record
        fact.encoded = record_bytes(fact_class, version, timestamp, previous_hash, event,
                                    stream_text or str(stream), by)
        return fact

    def record(self) -> dict[str, JSON]:
        """The record as stored (without the identity columns the library keeps apart)."""
        made: dict[str, JSON] | None = getattr(self, "_record", None)
        if made is not None:
            return made
        return {k: v for k, v in vars(self).items()
                if k not in ("originator_id", "originator_version")}

    @classmethod
    def data_of(cls, event: object) -> dict[str, JSON]:
        """The record's `data` for `event`: its fields as JSON (codec.py)."""
        return encode(event)

    @classmethod
    def stored_data(cls, event: object) -> object:
        """What the record's `data` is written from: the event itself (its canonical JSON is
        `data_of`'s), unless the class stores something else (MatchCreated)."""
        return event

    def domain_data(self) -> dict[str, JSON]:
        """`data` (in the newest layout, after the upcasters) as the codec decodes it."""
        return self.data

    def to_domain(self) -> Any:
        """The domain event: decoded straight from the stored bytes when the record is in the
        newest layout and its data is the event's own JSON, else from `domain_data`."""
        where = f"{self.type} (event {self.version})"
        state = _state(self)
        if state is not None and type(self).domain_data is StoredFact.domain_data:
            return decode_record(self.domain_type, state, where)
        return decode(self.domain_type, self.domain_data(), where)

    def envelope(self) -> RecordedBy | None:
        """Who recorded it; None for a record written before the envelope existed."""
        made = self.__dict__.get("recorded_by")
        if made is None:
            return None
        envelope: RecordedBy = decode(RecordedBy, made, f"{self.type} (event {self.version}) "
                                                        "recorded_by")
        return envelope


def _state(fact: StoredFact) -> bytes | None:
    """The bytes `fact` was read from, when the mapper kept them (a record already in the newest
    layout, app.ChainMapper); else None."""
    try:
        return fact.encoded
    except AttributeError:
        return None


def record_bytes(fact_class: type[StoredFact], version: int, timestamp: str,
                 previous_hash: str, event: object, stream: str, by: RecordedBy) -> bytes:
    """The canonical JSON of the record of `event`, written in one pass (codec.json_bytes)."""
    return json_bytes({"class_version": fact_class.class_version,
                       "data": fact_class.stored_data(event), "previous_hash": previous_hash,
                       "recorded_by": by, "stream": stream, "timestamp": timestamp,
                       "type": fact_class.__name__, "version": version})


@lru_cache(maxsize=256)
def _envelope(by: RecordedBy) -> dict[str, JSON]:
    """The envelope's JSON, made once per recorder: every event of an action, and every action
    of an import, carries the same one (read only: the record is written, never changed)."""
    return encode(by)


# Upcasters: a record of an older class_version is read in the newest layout. The stored bytes
# stay as written (the chain covers them); a field added since reads as None, "not recorded".

def _added(*names: str) -> Any:
    def upcast(state: dict[str, Any]) -> None:
        for name in names:
            state["data"].setdefault(name, None)
    return staticmethod(upcast)


# MatchCreated v3: the values of `ruleset` and `match_format` are JSON values of the option's
# declared type (domain/match_format.py MatchFormat, domain/cirulla/ruleset.py Ruleset,
# domain/briscola/state.py BriscolaRules; docs/events.md section 4): `"length":21`,
# `"ko":false`, `"piccola_fino_al":6`. An option not listed here (a game of another catalog, an
# option added later without a class_version) is a string, as before. The domain keeps the
# options as the texts its parsers read ("21", "false"): the codec of this class converts.
_FORMAT_TYPES: dict[str, type] = {
    "kind": str, "length": int, "ko": bool, "cappotto_ends": bool, "vinco_subito": bool,
    "target_strict": bool, "vinco_subito_ends_smazzata_only": bool, "smazzate_pari": bool,
    "vp": bool, "cappotto_waits_end": bool}
OPTION_TYPES: dict[str, dict[str, dict[str, type]]] = {
    "cirulla": {"match_format": _FORMAT_TYPES,
                "ruleset": {"redeal": str, "deal_order": str, "direction": str,
                            "asso_su_asso": str, "piccola_fino_al": int, "primiera": str,
                            "matta_durata": str, "decino_tre_assi": int, "accuso": str,
                            "presa_obbligata": str}},
    "briscola": {"match_format": _FORMAT_TYPES, "ruleset": {"vinco_subito": bool}},
}
_OPTIONS = ("match_format", "ruleset")
_INTEGER = re.compile(r"0|-?[1-9][0-9]*")


def _typed_value(kind: type, value: JSON) -> JSON:
    """The text `value` as a JSON value of type `kind`; as it is when it is not exactly the
    text of one (`"021"`, `"yes"`): decoding then reports it, nothing is lost."""
    if kind is bool and value in ("true", "false"):
        return value == "true"
    if kind is int and isinstance(value, str) and _INTEGER.fullmatch(value):
        return int(value)
    return value


def _types_of(data: dict[str, JSON]) -> dict[str, dict[str, type]]:
    game = data.get("game")
    return OPTION_TYPES.get(game, {}) if isinstance(game, str) else {}


def _typed_options(data: dict[str, JSON]) -> None:
    """Every option text of `data` (MatchCreated, v2 layout) as its declared type, in place."""
    game = _types_of(data)
    for name in _OPTIONS:
        options, types = data.get(name), game.get(name, {})
        if isinstance(options, dict):
            data[name] = {k: _typed_value(types.get(k, str), v) for k, v in options.items()}


def _upcast_v2_v3(state: dict[str, Any]) -> None:
    if isinstance(state.get("data"), dict):
        _typed_options(state["data"])


def _option_text(value: JSON, kind: type, path: str) -> str:
    if type(value) is not kind:
        raise CodecError(wrong_type(path, kind, value))
    if kind is bool:
        return "true" if value else "false"
    return str(value)



class MatchCreated(StoredFact):
    """v2: provenance, visibility, match_seed_commitment. v3: `ruleset` and `match_format`
    values of their type (21, false), not all strings."""

    domain_type = record.MatchCreated
    class_version = 3
    upcast_v1_v2 = _added("provenance", "visibility", "match_seed_commitment")
    upcast_v2_v3 = staticmethod(_upcast_v2_v3)

    @classmethod
    def data_of(cls, event: object) -> dict[str, JSON]:
        data = encode(event)
        _typed_options(data)
        return data

    @classmethod
    def stored_data(cls, event: object) -> object:
        return cls.data_of(event)

    def domain_data(self) -> dict[str, JSON]:
        """The options back as the texts the domain parses; a value not of its declared type
        is a decoding error naming it."""
        data = self.data
        if not isinstance(data, dict):
            return data
        game = _types_of(data)
        texts = dict(data)
        for name in _OPTIONS:
            options, types = data.get(name), game.get(name, {})
            if isinstance(options, dict):
                where = f"{self.type} (event {self.version}).{name}"
                texts[name] = {k: _option_text(v, types.get(k, str), f"{where}.{k}")
                               for k, v in options.items()}
        return texts


class SeedCommitted(StoredFact):
    domain_type = record.SeedCommitted


class SmazzataDealt(StoredFact):
    """v2: `seed_commitment` may be null (a transcribed deal) and cards may be `??`; a v1
    record is already a valid v2 record."""

    domain_type = play.SmazzataDealt
    class_version = 2
    upcast_v1_v2 = _added()


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
    """v2: outcome."""

    domain_type = play.SmazzataEnded
    class_version = 2
    upcast_v1_v2 = _added("outcome")


class SeedRevealed(StoredFact):
    domain_type = record.SeedRevealed


class TimeoutRecorded(StoredFact):
    domain_type = record.TimeoutRecorded
    class_version = 2
    upcast_v1_v2 = _added("kept")


class Abandoned(StoredFact):
    domain_type = record.Abandoned
    class_version = 2
    upcast_v1_v2 = _added("kept")


class RulingRecorded(StoredFact):
    """v2: signature (the arbiter's, projections/store/signatures.py; null: nobody signed)."""

    domain_type = record.RulingRecorded
    class_version = 2
    upcast_v1_v2 = _added("signature")


class MatchEnded(StoredFact):
    """v2: settlement."""

    domain_type = record.MatchEnded
    class_version = 2
    upcast_v1_v2 = _added("settlement")


class MatchResumed(StoredFact):
    domain_type = record.MatchResumed


class SeedContributed(StoredFact):
    domain_type = record.SeedContributed


class MatchSeedRevealed(StoredFact):
    domain_type = record.MatchSeedRevealed


class IrregularityNoted(StoredFact):
    domain_type = record.IrregularityNoted


class TagsTranscribed(StoredFact):
    domain_type = record.TagsTranscribed


class ScoreClaimed(StoredFact):
    domain_type = record.ScoreClaimed


class TournamentCreated(StoredFact):
    """v2: vp_table (the declared VP table, name and text; null: the standard table)."""

    domain_type = record.TournamentCreated
    class_version = 2
    upcast_v1_v2 = _added("vp_table")


class MatchScheduled(StoredFact):
    domain_type = record.MatchScheduled


class TournamentSeedsCommitted(StoredFact):
    domain_type = record.TournamentSeedsCommitted


class SessionSeedRevealed(StoredFact):
    domain_type = record.SessionSeedRevealed


class ArbiterKeyRegistered(StoredFact):
    domain_type = record.ArbiterKeyRegistered


class ArbiterKeyRevoked(StoredFact):
    domain_type = record.ArbiterKeyRevoked


# A Sicilian Tarocchi tournament (source 003, docs/tarocchi.md): one stream, these events.

class TarocchiTournamentCreated(StoredFact):
    domain_type = tarocchi.TarocchiTournamentCreated


class SeatingDrawn(StoredFact):
    domain_type = tarocchi.SeatingDrawn


class TurnSeated(StoredFact):
    domain_type = tarocchi.TurnSeated


class PlayerLineWritten(StoredFact):
    domain_type = tarocchi.PlayerLineWritten


class TableLineWritten(StoredFact):
    domain_type = tarocchi.TableLineWritten


class PenaltyImposed(StoredFact):
    domain_type = tarocchi.PenaltyImposed


class SorteggioRevealed(StoredFact):
    domain_type = tarocchi.SorteggioRevealed


TAROCCHI_FACTS: tuple[type[StoredFact], ...] = (
    TarocchiTournamentCreated, SeatingDrawn, TurnSeated, PlayerLineWritten, TableLineWritten,
    PenaltyImposed, SorteggioRevealed)


FACT_CLASSES: tuple[type[StoredFact], ...] = (
    MatchCreated, SeedCommitted, SmazzataDealt, DealAnnulled, AccusoDeclared, CardPlayed,
    HandDealt, CardsDrawn, TrickTaken, SmazzataEnded, SeedRevealed, TimeoutRecorded, Abandoned,
    RulingRecorded, MatchEnded, MatchResumed, TournamentCreated, MatchScheduled, SeedContributed,
    MatchSeedRevealed, IrregularityNoted, TagsTranscribed, ScoreClaimed,
    ArbiterKeyRegistered, ArbiterKeyRevoked, TournamentSeedsCommitted, SessionSeedRevealed,
    *TAROCCHI_FACTS)
FACT_OF: dict[type[Any], type[StoredFact]] = {c.domain_type: c for c in FACT_CLASSES}
FACT_NAMED: dict[str, type[StoredFact]] = {c.__name__: c for c in FACT_CLASSES}
TOPIC_OF: dict[str, str] = {c.__name__: f"{c.__module__}:{c.__qualname__}" for c in FACT_CLASSES}
