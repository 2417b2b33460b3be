"""`verbale export`: a stream's events as JSON lines an auditor can check without our code.

Each line is the stored record (canonical JSON, docs/events.md) with one more field, `hash`:
SHA-256 of the canonical JSON of the line without `hash`, which is exactly the stored bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from uuid import UUID

from projections.store.app import MatchStore
from projections.store.canonical import canonical_json, event_hash


class ExportError(LookupError):
    """A stream that the store does not hold."""


def export_jsonl(store: MatchStore, stream: UUID) -> Iterator[str]:
    stored = store.stored(stream)
    if not stored:
        raise ExportError(f"match {stream}: no such match in the store")
    for row in stored:
        record = json.loads(row.state.decode("utf-8"))
        record["hash"] = event_hash(row.state)
        yield canonical_json(record).decode("utf-8")
