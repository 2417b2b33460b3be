"""A stored row read once: its whole record decoded straight from the stored bytes with msgspec
into a typed record (the envelope, the row's domain event as `data`), then encoded again and
compared with the bytes, byte for byte.

A row is taken here only when it is a sound record of its class's newest layout: it decodes
strictly (every field present, none unknown, each of its type, the envelope a RecordedBy), its
type is its topic's, it names its stream and version, a class_version 2 record holds its
fields, and the bytes are exactly the canonical JSON of what was decoded (the codec writes
docs/events.md's canonical JSON: tests/projections/store/test_msgspec_codec.py). Those are the
checks structure.py's exact route makes on the parsed record, and decoding it through the
store's mapper gives the same event. Any other row (an older layout, an upcast, MatchCreated's
typed options, anything wrong) is None here, and structure.py checks it by the exact route,
which names what is wrong. The chain, the clock and the envelope's continuity are checked on
both alike (structure.py).

A speed-only route beside its reference, the exact route: `VERBALE_EXACT=1` (`verify --exact`,
importers/notation/exact.py: read here from the environment, projections and importers being
independent) turns it off. tests/projections/verify/test_whole.py holds it to the exact route.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec
from eventsourcing.persistence import StoredEvent

from domain.record.envelope import RecordedBy
from projections.store.codec import json_bytes, record_decoder
from projections.store.facts import FACT_CLASSES, TOPIC_OF, StoredFact

V2_REQUIRED = {"MatchCreated": ("provenance", "visibility"), "SmazzataEnded": ("outcome",),
               "MatchEnded": ("settlement",)}
"""A record of class_version 2 holds these fields (docs/events.md section 6): null there is not
"not recorded", as in a version-1 record, but a record stripped of them."""

EXACT = "VERBALE_EXACT"


def whole_read() -> bool:
    """Whether rows are read whole: not with VERBALE_EXACT set (to anything but empty or 0)."""
    return os.environ.get(EXACT, "") in ("", "0")


_CLASS_OF_TOPIC = {TOPIC_OF[c.__name__]: c for c in FACT_CLASSES}


_DECODERS: dict[str, msgspec.json.Decoder[Any] | None] = {}


def _decoder(topic: str) -> msgspec.json.Decoder[Any] | None:
    """The whole record of the newest layout of the class stored with `topic`, typed (made
    once); None for an unknown topic, or a class whose stored `data` is not its event's own
    JSON (MatchCreated's typed options)."""
    if topic not in _DECODERS:
        fact_class = _CLASS_OF_TOPIC.get(topic)
        _DECODERS[topic] = None if fact_class is None else _made(fact_class)
    return _DECODERS[topic]


def _made(fact_class: type[StoredFact]) -> msgspec.json.Decoder[Any] | None:
    if fact_class.domain_data is not StoredFact.domain_data:
        return None
    record = msgspec.defstruct(
        f"Whole{fact_class.__name__}",
        [("class_version", int), ("data", fact_class.domain_type), ("previous_hash", str),
         ("stream", str), ("timestamp", str), ("type", str), ("version", int),
         ("recorded_by", RecordedBy | msgspec.UnsetType, msgspec.UNSET)],
        forbid_unknown_fields=True, frozen=True)
    return record_decoder(record)


def whole(row: StoredEvent, stream: str) -> Any | None:
    """The typed record of `row` of stream `stream` (its text), or None when the row is not a
    sound record of its class's newest layout (the exact route then checks it)."""
    decoder = _decoder(row.topic)
    if decoder is None:
        return None
    fact_class = _CLASS_OF_TOPIC[row.topic]
    try:
        record = decoder.decode(row.state)
    except (msgspec.DecodeError, ValueError, TypeError):
        return None
    if record.class_version != fact_class.class_version \
            or record.type != fact_class.__name__ or record.stream != stream \
            or record.version != row.originator_version:
        return None
    if any(getattr(record.data, name) is None for name in V2_REQUIRED.get(record.type, ())):
        return None
    return record if json_bytes(record) == row.state else None


def envelope_of(record: Any) -> RecordedBy | None:
    """A typed record's envelope; None for a record written before the envelope existed."""
    by = record.recorded_by
    return None if by is msgspec.UNSET else by
