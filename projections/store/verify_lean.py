"""The lean path of `verbale verify` (issue 13): a stream's rows confirmed sound in as few
Python steps as possible, or not confirmed at all.

`confirmed_events` makes every check of verify's structure check (the versions without a gap,
each record canonical JSON of exactly its fields, its stream, version, type and topic, the
envelope, the fields a class_version 2 record holds, the chain, the head, the clock) and
decodes the events, but reports nothing: at the first thing that is not a clean confirmation it
gives None, and verify checks the stream again by its exact path, whose report is the one given.
So its findings stay word for word what they are, and the lean path only ever confirms what the
exact path confirms (tests/projections/store/test_verify_lean.py).

What makes it lean: the rows are read as (version, topic, bytes) (verify_rows.py); a record
of the commonest event types is read by its canonical shape, the event built from the matched
bytes (verify_shapes.py); any other record is parsed once and compared with its canonical bytes
once, its fields checked in one pass, no Problem, generator or envelope object made for a sound
row, and an event whose record is of its class's current class_version is decoded straight from
the parsed record (the stored-fact object and the library's mapper skipped), the play events by
decoders made once per event class from its fields' types, which accept exactly what the codec
accepts and build the same values (anything else: the codec). An older class_version goes
through the store's mapper and its upcasters, as verify reads it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import typing
from collections.abc import Callable, Hashable
from datetime import datetime
from functools import cache
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain import events as play
from domain.cards import DECK, UNKNOWN, Card
from domain.record.envelope import EnvelopeError, RecordedBy
from projections.store.app import MatchStore
from projections.store.canonical import GENESIS
from projections.store.codec import CodecError, decode
from projections.store.facts import FACT_NAMED, TOPIC_OF, StoredFact
from projections.store.recorders import Head
from projections.store.verify_fast import (
    canonical,
    envelope_decoded,
    envelope_key,
    envelope_known,
    stamp,
)
from projections.store.verify_rows import Row, Rows
from projections.store.verify_shapes import Shaped, shaped

RECORD_KEYS = {"class_version", "data", "previous_hash", "stream", "timestamp", "type",
               "version"}
ENVELOPE = "recorded_by"   # in every record written since the envelope (docs/events.md)
_ENVELOPED_KEYS = RECORD_KEYS | {ENVELOPE}

# A record of class_version 2 holds these fields (docs/events.md section 6): null there is not
# "not recorded", as in a version-1 record, but a record stripped of them.
V2_REQUIRED = {"MatchCreated": ("provenance", "visibility"), "SmazzataEnded": ("outcome",),
               "MatchEnded": ("settlement",)}

Decoded = list[tuple[object, datetime]]


def v2_missing(record: dict[str, Any]) -> list[str]:
    """The fields a class_version 2 (or later) record of its type holds that are null here."""
    required = V2_REQUIRED.get(record.get("type", ""), ())
    class_version = record.get("class_version")
    if not required or not isinstance(class_version, int) or class_version < 2 \
            or not isinstance(record.get("data"), dict):
        return []
    return [name for name in required if record["data"].get(name) is None]


def confirmed_events(store: MatchStore, stream: UUID, stored: Rows,
                     head: Head | None) -> Decoded | None:
    """The stream's events decoded with their timestamps when its rows pass every structure
    check and decode; None at the first thing that does not (verify then reports it)."""
    if not stored or head is None or head[1] != len(stored):
        return None
    text = str(stream)
    previous_hash, previous_at = GENESIS, None
    enveloped = False
    decoded: Decoded = []
    for position, row in enumerate(stored, start=1):
        state = row.state
        if row.originator_version != position:
            return None
        read = shaped(state, row.topic) or _parsed(store, stream, row)
        if read is None or read.previous_hash != previous_hash or read.stream != text \
                or read.version != position or TOPIC_OF.get(read.kind) != row.topic \
                or (enveloped and not read.enveloped):
            return None
        try:
            at = stamp(read.timestamp)
        except Exception:   # ClockError, or a timestamp that is not even text
            return None
        if previous_at is not None and at < previous_at:
            return None
        decoded.append((read.event, at))
        enveloped = read.enveloped
        previous_hash, previous_at = hashlib.sha256(state).hexdigest(), at
    return decoded if head[2] == previous_hash else None


def _parsed(store: MatchStore, stream: UUID, row: Row | StoredEvent) -> Shaped | None:
    """A record of any other shape, parsed: its parts when it is canonical JSON of exactly the
    record's fields, with a sound envelope, the fields its class_version holds, and an event
    that decodes; else None. The parts are compared by the caller, as JSON values: the version
    as `record["version"] != version` compares it, True for 1 included."""
    state = row.state
    try:
        record = json.loads(state.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if type(record) is not dict:
        return None
    keys = record.keys()
    if keys == _ENVELOPED_KEYS:
        if not _envelope_sound(record[ENVELOPE]):
            return None
    elif keys != RECORD_KEYS:
        return None
    kind = record["type"]
    if canonical(record) != state or type(kind) is not str or kind not in TOPIC_OF \
            or (kind in V2_REQUIRED and v2_missing(record)):
        return None
    event = _event(store, stream, row, record, kind)
    if event is None:
        return None
    return Shaped(kind, event, record["previous_hash"], keys == _ENVELOPED_KEYS,
                  record["stream"], record["timestamp"], record["version"])


def _envelope_sound(envelope: object) -> bool:
    """verify's envelope check, as a yes or no."""
    key = envelope_key(envelope)
    if envelope_known(key):
        return True
    try:
        decode(RecordedBy, envelope, ENVELOPE)
    except (CodecError, EnvelopeError):
        return False
    envelope_decoded(key)
    return True


def _event(store: MatchStore, stream: UUID, row: Row | StoredEvent, record: dict[str, Any],
           kind: str) -> object:
    """The domain event of a sound record, or None when it does not decode."""
    fact_class = FACT_NAMED[kind]
    class_version = record["class_version"]
    try:
        if type(class_version) is not int or class_version != fact_class.class_version:
            stored = StoredEvent(originator_id=stream, originator_version=row.originator_version,
                                 topic=row.topic, state=row.state)
            fact = cast(StoredFact, store.mapper.to_domain_event(stored))   # the upcasters
            return fact.to_domain()
        data = record["data"]
        fast = _fast_decoder(cast(Hashable, fact_class.domain_type))
        if fast is not None:
            try:
                return fast(data)
            except _Unfit:
                pass   # the codec decides, and names what is wrong
        if fact_class.domain_data is StoredFact.domain_data:
            return decode(fact_class.domain_type, data, kind)
        return fact_class(**record).to_domain()
    except Exception:   # any decoding failure: verify's exact path reports it
        return None


# ---- decoders made once per event class -----------------------------------------------------

class _Unfit(Exception):
    """A value the lean decoder does not take: the codec decodes it (or says why not)."""


_CARDS = {c.code: c for c in (*DECK, UNKNOWN)}
Lean = Callable[[Any], Any]
_HOT = (play.CardPlayed, play.HandDealt, play.TrickTaken, play.CardsDrawn, play.AccusoDeclared)


@cache
def _fast_decoder(cls: type[Any]) -> Lean | None:
    """A decoder of `cls` from its JSON object: the codec's value when the codec accepts the
    object, else _Unfit. None: `cls` is left to the codec (not a play event, or a field type
    this module does not decode)."""
    if cls not in _HOT:
        return None
    hints = typing.get_type_hints(cls)
    names = tuple(f.name for f in dataclasses.fields(cls))
    fields = [_lean(hints[name]) for name in names]
    if any(f is None for f in fields):
        return None
    expected = set(names)
    steps = tuple(zip(names, cast(list[Lean], fields), strict=True))

    def run(data: Any) -> Any:
        if type(data) is not dict or data.keys() != expected:
            raise _Unfit
        return cls(*[field(data[name]) for name, field in steps])
    return run


def _lean(hint: Any) -> Lean | None:
    """A field's decoder: the codec's value of a value of type `hint`, else _Unfit."""
    if hint in (int, str, bool):
        return _exactly(hint)
    if hint is Card:
        return _card
    if hint == int | None:
        return _int_or_none
    if hint == tuple[Card, ...]:
        return _cards
    if hint == tuple[tuple[Card, ...], ...]:
        return _hands
    if hint == tuple[tuple[int, Card], ...]:
        return _draws
    return None


def _exactly(kind: type) -> Lean:
    def run(value: Any) -> Any:
        if type(value) is not kind:
            raise _Unfit
        return value
    return run


def _int_or_none(value: Any) -> int | None:
    if value is not None and type(value) is not int:
        raise _Unfit
    return value


def _card(value: Any) -> Card:
    card = _CARDS.get(value) if type(value) is str else None
    if card is None:
        raise _Unfit
    return card


def _cards(value: Any) -> tuple[Card, ...]:
    if type(value) is not list:
        raise _Unfit
    try:
        return tuple([_CARDS[code] for code in value])
    except (KeyError, TypeError):   # not a card code, or not even hashable
        raise _Unfit from None


def _hands(value: Any) -> tuple[tuple[Card, ...], ...]:
    if type(value) is not list:
        raise _Unfit
    return tuple([_cards(hand) for hand in value])


def _draws(value: Any) -> tuple[tuple[int, Card], ...]:
    if type(value) is not list:
        raise _Unfit
    drawn = []
    for item in value:
        if type(item) is not list or len(item) != 2 or type(item[0]) is not int:
            raise _Unfit
        drawn.append((item[0], _card(item[1])))
    return tuple(drawn)
