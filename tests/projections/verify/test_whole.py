"""Each row parsed once (projections/verify/whole.py): a sound row of its newest layout is read
whole from its bytes, and what verify finds is the same, finding for finding and event for
event, as by the exact route alone (every row parsed as JSON, checked, then decoded through the
store's mapper), whatever a row's bytes were changed into."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import patch
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections.store.app import MatchStore
from projections.verify.structure import Read, decode_row, kind_of, read_stream
from projections.verify.whole import envelope_of, whole

VALUES: st.SearchStrategy[object] = st.sampled_from([
    None, 0, 1, -1, 2**70, "", "x", "7d", "??", True, False, [], {}, 1.5, "à",
    "2026-01-01T00:00:00.000000Z", {"kind": "house"}])


def _exact(store: MatchStore, stream: UUID, stored: list[StoredEvent]) -> Read:
    """verify's reading of the stream by the exact route alone."""
    with patch("projections.verify.structure.whole", lambda _row, _stream: None):
        return read_stream(store, stream, stored, store.chained.select_head(stream))


def test_every_sound_row_but_match_created_is_read_whole_as_the_mapper_reads_it(
        games_store: MatchStore) -> None:
    read = 0
    for stream in games_store.streams():
        for row, fact in zip(games_store.stored(stream), games_store.facts(stream), strict=True):
            typed = whole(row, str(stream))
            if kind_of(row) == "MatchCreated":   # its options are stored typed: exact route
                assert typed is None
                continue
            assert typed is not None, row
            assert typed.data == decode_row(games_store, row)[0]
            assert envelope_of(typed) == fact.envelope()
            read += 1
    assert read > 100


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for position, item in enumerate(value):
            found += _paths(item, (*path, position))
    return found


def _changed(record: Any, path: tuple[Any, ...], how: str, value: object) -> Any:
    if not path:
        return value if how == "value" else record
    *inner, last = path
    holder = record
    for step in inner:
        holder = holder[step]
    if how == "value":
        holder[last] = value
    elif how == "drop" and isinstance(holder, dict):
        del holder[last]
    elif how == "add" and isinstance(holder, dict):
        holder[f"{last}_"] = value
    return record


ENCODINGS = {
    "canonical": lambda r: json.dumps(r, sort_keys=True, separators=(",", ":"),
                                      ensure_ascii=False),
    "spaced": lambda r: json.dumps(r, sort_keys=True, ensure_ascii=False),
    "unsorted": lambda r: json.dumps(r, separators=(",", ":"), ensure_ascii=False),
    "ascii": lambda r: json.dumps(r, sort_keys=True, separators=(",", ":"))}


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), how=st.sampled_from(["value", "drop", "add", "none"]),
       encoding=st.sampled_from(sorted(ENCODINGS)))
def test_a_changed_row_gets_the_findings_of_the_exact_route(
        games_store: MatchStore, data: st.DataObject, how: str, encoding: str) -> None:
    streams = sorted(games_store.streams(), key=str)
    stream = data.draw(st.sampled_from(streams))
    stored = list(games_store.stored(stream))
    at = data.draw(st.integers(0, len(stored) - 1))
    record = json.loads(stored[at].state)
    paths = _paths(record)
    path = data.draw(st.sampled_from([p for p in paths if len(p) == 1]) | st.sampled_from(paths))
    changed = _changed(record, path, how, data.draw(VALUES))
    row = stored[at]
    stored[at] = StoredEvent(row.originator_id, row.originator_version, row.topic,
                             ENCODINGS[encoding](changed).encode())
    once = read_stream(games_store, stream, stored, games_store.chained.select_head(stream))
    assert once == _exact(games_store, stream, stored)
    if how == "none" and encoding == "canonical":   # the bytes as stored: sound
        assert not once.problems and once.broken is None and len(once.decoded) == len(stored)


EDITS = {
    "another stream": lambda r: r.update(stream="00000000-0000-0000-0000-000000000001"),
    "another version": lambda r: r.update(version=r["version"] + 1),
    "another type": lambda r: r.update(type="SeedRevealed"),
    "an older layout": lambda r: r.update(class_version=1),
    "a v2 field null": lambda r: r["data"].update(outcome=None),
    "no envelope": lambda r: r.pop("recorded_by"),
    "an envelope without where": lambda r: r["recorded_by"].pop("where"),
    "a card not in its code": lambda r: r["data"].update(stock=["7D", *r["data"]["stock"][1:]]),
}


FOUND_AT_THE_ROW = {"another stream", "another version", "another type", "a v2 field null",
                    "no envelope"}
"""The others are no finding of the stored record (an envelope's `where` may be left out, an
older layout is upcast) or one of decoding, told only when the record is sound (and the edit
breaks the chain at the next event)."""


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_each_check_of_the_whole_read_is_the_exact_routes(games_store: MatchStore,
                                                            edit: str) -> None:
    """A SmazzataEnded (a class_version 2 record) or a deal, edited and written canonically:
    what verify finds is the exact route's, and a record the exact route finds wrong is not read
    whole."""
    kind = "SmazzataDealt" if edit.startswith("a card") else "SmazzataEnded"
    stream, at, stored = next((s, at, list(games_store.stored(s)))
                              for s in sorted(games_store.streams(), key=str)
                              for at, row in enumerate(games_store.stored(s))
                              if kind_of(row) == kind and row.originator_version > 1)
    record = json.loads(stored[at].state)
    EDITS[edit](record)
    row = stored[at]
    stored[at] = StoredEvent(row.originator_id, row.originator_version, row.topic,
                             ENCODINGS["canonical"](record).encode())
    exact = _exact(games_store, stream, stored)
    assert read_stream(games_store, stream, stored, games_store.chained.select_head(stream)) \
        == exact
    if edit in FOUND_AT_THE_ROW:
        assert exact.broken or any(p.version == row.originator_version for p in exact.problems)
    if edit != "no envelope":   # (the stream's envelope check finds it, on either route)
        assert whole(stored[at], str(stream)) is None


def test_verbale_exact_turns_the_whole_read_off(games_store: MatchStore,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    stream = sorted(games_store.streams(), key=str)[0]
    stored = list(games_store.stored(stream))
    head = games_store.chained.select_head(stream)
    fast = read_stream(games_store, stream, stored, head)
    monkeypatch.setenv("VERBALE_EXACT", "1")

    def refused(_row: StoredEvent, _stream: str) -> None:
        raise AssertionError("read whole with VERBALE_EXACT=1")

    with patch("projections.verify.structure.whole", refused):
        assert read_stream(games_store, stream, stored, head) == fast
