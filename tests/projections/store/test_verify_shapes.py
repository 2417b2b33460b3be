"""verify_shapes.py reads a record by its shape only when its bytes are the canonical JSON of
that record: whatever the bytes, `shaped` gives None or exactly the parts and the event that
parsing, encoding again and decoding them give."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK, UNKNOWN
from projections.store.canonical import canonical_json
from projections.store.codec import CodecError, decode
from projections.store.facts import FACT_NAMED, TOPIC_OF
from projections.store.verify_shapes import shaped

_CODE = st.sampled_from([c.code for c in (*DECK, UNKNOWN)]) | st.sampled_from(["7D", "1d", "x"])
_INT = st.integers(-3, 12)
_HEXES = st.sampled_from(["ab" * 32, "AB", "", "0f"])
_WORDS = st.sampled_from(["target", "maggioranza certa", "punti", "parità", "", "A"])
_PAIR = st.lists(_INT, min_size=2, max_size=2) | st.lists(_INT, max_size=3)
_ODD_TEXTS = ("AB", "", "Decino", "parità", "A")
_ODD = st.sampled_from([b"-0", b"01", b" 1", b"1.0", b"1e2", b'"1"', b"true", b"\\u0037d"])
_DATA = {
    "CardPlayed": st.fixed_dictionaries({
        "capture": st.lists(_CODE, max_size=3), "card": _CODE,
        "matta_value": st.none() | _INT, "scopa": st.booleans(), "seat": _INT}),
    "TrickTaken": st.fixed_dictionaries({"cards": st.lists(_CODE, max_size=4),
                                         "points": _INT, "seat": _INT}),
    "HandDealt": st.fixed_dictionaries({"hands": st.lists(st.lists(_CODE, max_size=3),
                                                          max_size=4)}),
    "CardsDrawn": st.fixed_dictionaries({"draws": st.lists(st.tuples(_INT, _CODE).map(list),
                                                           max_size=4)}),
    "SeedCommitted": st.fixed_dictionaries({"commitment": _HEXES, "smazzata": _INT}),
    "SeedRevealed": st.fixed_dictionaries({"seed": _HEXES, "smazzata": _INT}),
    "AccusoDeclared": st.fixed_dictionaries({
        "cards": st.lists(_CODE, max_size=3), "kind": st.sampled_from(["cirulla", "Decino", ""]),
        "matta_value": st.none() | _INT, "points": _INT, "seat": _INT}),
    "SmazzataDealt": st.fixed_dictionaries({
        "attempt": _INT, "briscola": st.none() | _CODE, "dealer": _INT,
        "hands": st.lists(st.lists(_CODE, max_size=3), max_size=4), "number": _INT,
        "seed_commitment": st.none() | _HEXES, "stock": st.lists(_CODE, max_size=6),
        "table": st.lists(_CODE, max_size=4)}),
    "MatchSeedRevealed": st.fixed_dictionaries({"seed": _HEXES}),
    "MatchScheduled": st.fixed_dictionaries({
        "match": st.sampled_from(["1e7a996c-1dd2-53df-9c91-18539563f919", "AB"]),
        "round": _INT, "table": _INT}),
    "MatchEnded": st.fixed_dictionaries({
        "reason": _WORDS, "scores": _PAIR, "smazzate": _INT, "winner": st.none() | _INT,
        "settlement": st.fixed_dictionaries({"how": _WORDS, "mp": _INT, "points": _PAIR,
                                             "unit": _WORDS})}),
    "SmazzataEnded": st.fixed_dictionaries({
        "breakdown": st.lists(st.tuples(_WORDS, _INT, _INT).map(list), max_size=3),
        "leftover_to": st.none() | _INT, "number": _INT, "scores": _PAIR,
        "outcome": st.fixed_dictionaries({
            "cappotto": st.none() | _INT, "cappotto_ends_match": st.booleans(),
            "last_capture": st.none() | _INT, "unplayed": st.lists(_CODE, max_size=3),
            "vinco_subito": st.none() | _INT})}),
}
_ENVELOPE = st.none() | st.fixed_dictionaries({
    "kind": st.sampled_from(["simulator", "live", "import", "x{y}"]),
    "name": st.text(max_size=6), "where": st.none() | st.text(max_size=4)})


def current(kind: str) -> int:
    return FACT_NAMED[kind].class_version


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(_DATA)))
    record: dict[str, Any] = {
        "class_version": draw(st.sampled_from([current(kind)] * 3 + [1, 2, 3, True])),
        "data": draw(_DATA[kind]),
        "previous_hash": draw(st.sampled_from(["0" * 64, "a" * 64, "A" * 64, "ab"])),
        "stream": "1e7a996c-1dd2-53df-9c91-18539563f919",
        "timestamp": draw(st.sampled_from(["2026-11-22T18:00:32.889000Z", "x"])),
        "type": kind, "version": draw(st.integers(-1, 40))}
    envelope = draw(_ENVELOPE)
    if envelope is not None:
        record["recorded_by"] = envelope
    return record


@st.composite
def stored_bytes(draw: st.DrawFn) -> bytes:
    """A record's canonical bytes, often changed: one byte replaced, or a number or string
    written in a way JSON reads but never writes canonically."""
    state = canonical_json(draw(records()))
    change = draw(st.integers(0, 4))
    if change == 1:
        at = draw(st.integers(0, len(state) - 1))
        state = state[:at] + bytes([draw(st.integers(32, 126))]) + state[at + 1:]
    elif change == 2:
        digits = [i for i, b in enumerate(state) if 48 <= b <= 57]
        if digits:
            at = draw(st.sampled_from(digits))
            state = state[:at] + draw(_ODD) + state[at + 1:]
    elif change == 3:
        state = state.replace(b",", b", ", 1)
    return state


@given(state=stored_bytes())
def test_a_shape_is_read_only_from_the_canonical_bytes_of_its_record(state: bytes) -> None:
    for topic in TOPIC_OF.values():
        found = shaped(state, topic)
        if found is None:
            continue
        record = json.loads(state)
        assert canonical_json(record, checked=False) == state
        assert TOPIC_OF[found.kind] == topic
        assert record["class_version"] == current(found.kind)
        assert type(record["class_version"]) is int
        assert (found.kind, found.previous_hash, found.stream, found.timestamp, found.version,
                found.enveloped) == (record["type"], record["previous_hash"], record["stream"],
                                     record["timestamp"], record["version"],
                                     "recorded_by" in record)
        assert found.event == decode(FACT_NAMED[found.kind].domain_type, record["data"])


def _texts(value: Any) -> list[str]:
    """Every string in a JSON value, keys aside."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
        else []
    return [text for item in items for text in _texts(item)]


def _pairs(record: dict[str, Any]) -> list[Any]:
    """The values a record holds as (side 0, side 1) pairs."""
    data = record["data"]
    found = [data.get("scores")] if "scores" in data else []
    if isinstance(data.get("settlement"), dict):
        found.append(data["settlement"]["points"])
    return found


@given(record=records())
def test_every_sound_record_of_these_types_is_read_by_its_shape(record: dict[str, Any]) -> None:
    """Not a check that passes by reading nothing: a current-version record whose cards are
    cards, whose texts are the lowercase hex or words the patterns take, and whose envelope has
    no brace in it is read."""
    state = canonical_json(record)
    try:
        decode(FACT_NAMED[record["type"]].domain_type, record["data"])
    except CodecError:
        return
    plain = record["class_version"] == current(record["type"]) \
        and type(record["class_version"]) is int \
        and record["previous_hash"] in ("0" * 64, "a" * 64) and record["timestamp"] != "x" \
        and "{" not in json.dumps(record.get("recorded_by")) \
        and not any(text in _ODD_TEXTS for text in _texts(record["data"])) \
        and all(len(pair) == 2 for pair in _pairs(record))
    if plain:
        assert shaped(state, TOPIC_OF[record["type"]]) is not None
