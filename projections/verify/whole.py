"""A stored row read once: its whole record decoded straight from the stored bytes with msgspec
into a typed record (the row's domain event as `data`; the envelope as its bytes, each distinct
envelope decoded and checked once), then encoded again and compared with the bytes, byte for
byte.

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


_Reader = tuple[msgspec.json.Decoder[Any], int, str, tuple[str, ...]]
"""A topic's whole-record decoder, its class's newest class_version and name, and the fields
its class_version 2 records hold."""

_READERS: dict[str, _Reader | None] = {}


def _reader(topic: str) -> _Reader | None:
    """The reader of the records stored with `topic` (made once); None for an unknown topic,
    or a class whose stored `data` is not its event's own JSON (MatchCreated's typed
    options)."""
    if topic not in _READERS:
        fact_class = _CLASS_OF_TOPIC.get(topic)
        _READERS[topic] = None if fact_class is None \
            or fact_class.domain_data is not StoredFact.domain_data else (
                _made(fact_class), fact_class.class_version, fact_class.__name__,
                V2_REQUIRED.get(fact_class.__name__, ()))
    return _READERS[topic]


def _made(fact_class: type[StoredFact]) -> msgspec.json.Decoder[Any]:
    """The envelope is kept as its bytes (`msgspec.Raw`, written back as they are): the few
    envelopes of a store are each decoded and checked once (`_envelope`)."""
    record = msgspec.defstruct(
        f"Whole{fact_class.__name__}",
        [("class_version", int), ("data", fact_class.domain_type), ("previous_hash", str),
         ("stream", str), ("timestamp", str), ("type", str), ("version", int),
         ("recorded_by", msgspec.Raw | msgspec.UnsetType, msgspec.UNSET)],
        forbid_unknown_fields=True, frozen=True)
    return record_decoder(record)


def whole(row: StoredEvent, stream: str) -> Any | None:
    """The typed record of `row` of stream `stream` (its text), or None when the row is not a
    sound record of its class's newest layout (the exact route then checks it)."""
    reader = _reader(row.topic)
    if reader is None:
        return None
    decoder, class_version, name, required = reader
    try:
        record = decoder.decode(row.state)
    except (msgspec.DecodeError, ValueError, TypeError):
        return None
    if record.class_version != class_version or record.type != name \
            or record.stream != stream or record.version != row.originator_version:
        return None
    if required and any(getattr(record.data, field) is None for field in required):
        return None
    by = record.recorded_by
    if by is not msgspec.UNSET and _envelope(bytes(by)) is None:
        return None
    return record if json_bytes(record) == row.state else None


_ENVELOPES: dict[bytes, RecordedBy | None] = {}
_ENVELOPES_KEPT = 4096   # a store has a few: one per recorder, not per row


def _envelope(raw: bytes) -> RecordedBy | None:
    """The envelope stored as `raw`: decoded strictly and canonical (its bytes msgspec's
    encoding of what they decode to), else None. Canonical JSON is the same writing at every
    depth, so a record is canonical when its envelope's bytes are and the rest, written
    around them as they are, gives the stored bytes."""
    if raw in _ENVELOPES:
        return _ENVELOPES[raw]
    try:
        by: RecordedBy | None = _ENVELOPE.decode(raw)
    except (msgspec.DecodeError, ValueError, TypeError):
        by = None
    if by is not None and json_bytes(by) != raw:
        by = None
    if len(_ENVELOPES) < _ENVELOPES_KEPT:
        _ENVELOPES[raw] = by
    return by


_ENVELOPE = msgspec.json.Decoder(RecordedBy)


def envelope_of(record: Any) -> RecordedBy | None:
    """A typed record's envelope; None for a record written before the envelope existed."""
    by = record.recorded_by
    return None if by is msgspec.UNSET else _envelope(bytes(by))
