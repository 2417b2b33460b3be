"""A stored event class that changes shape reads its old records through an upcaster.

The store keeps the bytes as written (so the chain still holds); the library's mapper runs
`upcast_v1_v2` on the decoded state before the class sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import uuid4

from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from projections.store.app import MatchStore
from projections.store.canonical import GENESIS, canonical_json, event_hash
from projections.store.facts import StoredFact


@dataclass(frozen=True, slots=True)
class Note:
    text: str
    author: str


class ArbiterNote(StoredFact):
    """Version 2 of a note: version 1 had no author."""

    domain_type = Note
    class_version = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["data"]["author"] = "sconosciuto"


def test_a_version_1_record_is_read_as_version_2_and_its_bytes_stay_as_written(
        store: MatchStore) -> None:
    stream = uuid4()
    old = canonical_json({"class_version": 1, "data": {"text": "ok"}, "previous_hash": GENESIS,
                          "stream": str(stream), "timestamp": "2026-11-22T18:00:00.000000Z",
                          "type": "ArbiterNote", "version": 1})
    # As older code wrote it: version 1 of the class, straight through the recorder.
    store.recorder.insert_events([StoredEvent(stream, 1, get_topic(ArbiterNote), old)])
    assert store.facts(stream)[0].to_domain() == Note(text="ok", author="sconosciuto")
    assert store.stored(stream)[0].state == old
    assert store.chained.select_head(stream) == (stream, 1, event_hash(old))
