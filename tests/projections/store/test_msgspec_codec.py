"""The msgspec codec writes the bytes the old codec wrote, and reads every record back.

The reference is the old codec's rule, kept here only: an event is the object of its fields
(cards as their codes, tuples as lists, mappings as objects), written with
`json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)` as UTF-8
(docs/events.md). Stored bytes and hashes must never change (issue 24, point 2).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cards import DECK, UNKNOWN, Card, Rank
from domain.demo.matches import demo_set
from domain.events import CardPlayed
from domain.record.catalog import CATALOG
from domain.record.decide import decide
from domain.record.envelope import RECORDER_KINDS, RecordedBy
from domain.record.events import IrregularityNoted
from domain.record.match import initial
from domain.shuffle import Seed
from domain.text import say
from projections.store.app import CanonicalTranscoder, MatchStore
from projections.store.codec import CodecError, decode, decode_record, encode
from projections.store.facts import FACT_CLASSES, StoredFact, _typed_options, record_bytes
from replay_web.cli import _register, cli
from tests.projections.conftest import Backend, make_backend

# ---- the old codec's rule, as the reference ---------------------------------------------------


def old_form(value: Any) -> Any:
    """The plain JSON value the old codec made of `value`."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, msgspec.Struct):
        return {name: old_form(getattr(value, name)) for name in value.__struct_fields__}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: old_form(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [old_form(item) for item in value]
    if isinstance(value, Mapping):
        return {str(k): old_form(v) for k, v in value.items()}
    return value


def old_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def old_record(fact_class: type[StoredFact], event: object, by: RecordedBy) -> bytes:
    data = old_form(event)
    if fact_class.__name__ == "MatchCreated":
        _typed_options(data)
    return old_bytes({"class_version": fact_class.class_version, "data": data,
                      "previous_hash": "ab" * 32, "recorded_by": old_form(by),
                      "stream": STREAM, "timestamp": STAMP, "type": fact_class.__name__,
                      "version": 7})


STREAM = "5eed0000-0000-4000-8000-000000000001"
STAMP = "2026-11-22T18:00:00.000000Z"

# ---- values the old codec accepted ------------------------------------------------------------

TRICKY = ["\u2028", "\u2029", "\x7f", "\x00", "\x1f", "\b", "\f", "\n", "\r", "\t", "/", "\\",
          '"', "é", "€", "😀", "\ufeff", "</script>", "\uffff"]
TEXT = st.one_of(st.text(st.characters(codec="utf-8"), max_size=6),
                 st.lists(st.sampled_from(TRICKY), max_size=4).map("".join),
                 st.text(st.sampled_from([t for t in TRICKY if len(t) == 1] + ["a", "Z"]),
                         max_size=8))
INT = st.one_of(st.integers(-3, 60), st.integers(), st.integers(-(2 ** 130), 2 ** 130))
CARD = st.sampled_from((*DECK, UNKNOWN))


def strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Any value of the type hint `hint` an event field holds."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return st.one_of(*(st.none() if a is type(None) else strategy(a) for a in args))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(strategy(args[0]), max_size=4).map(tuple)
        return st.tuples(*(strategy(a) for a in args))
    if origin in (Mapping, dict):
        return st.dictionaries(TEXT, TEXT, max_size=4)
    simple: dict[Any, st.SearchStrategy[Any]] = {Card: CARD, int: INT, str: TEXT,
                                                  bool: st.booleans()}
    if hint in simple:
        return simple[hint]
    hints = typing.get_type_hints(hint)
    return st.builds(hint, **{name: strategy(h) for name, h in hints.items()})


ENVELOPES = st.builds(RecordedBy, st.sampled_from(RECORDER_KINDS),
                      TEXT.filter(lambda t: bool(t.strip())), st.none() | TEXT)
FACTS = {c.__name__: c for c in FACT_CLASSES}


def events_of(fact_class: type[StoredFact]) -> st.SearchStrategy[Any]:
    return strategy(fact_class.domain_type)


# ---- bytes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FACTS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bytes_equal_old_codec_for_every_event_type(name: str, data: st.DataObject) -> None:
    fact_class = FACTS[name]
    event = data.draw(events_of(fact_class))
    by = data.draw(ENVELOPES)
    assert record_bytes(fact_class, 7, STAMP, "ab" * 32, event, STREAM, by) == \
        old_record(fact_class, event, by)
    assert old_bytes(encode(event)) == old_bytes(old_form(event))


def test_subclasses_of_str_and_int_are_written_as_their_plain_values() -> None:
    noted = IrregularityNoted(refers_to=True + 2, seat=Rank.DUE, rule="r",
                              source=say("source {x}", x="\u2028"), message=say("m"),
                              noted_by="x", verified=True)
    fact_class, by = FACTS["IrregularityNoted"], RecordedBy("house", "x")
    made = record_bytes(fact_class, 7, STAMP, "ab" * 32, noted, STREAM, by)
    assert made == old_record(fact_class, noted, by)
    assert b'"seat":2' in made and b'"verified":true' in made


def test_the_tricky_characters_and_big_integers_are_written_as_before() -> None:
    event = CardPlayed(seat=2 ** 100, card=DECK[6], capture=(DECK[0], UNKNOWN))
    by = RecordedBy("importer", "".join(TRICKY), "\u2028\x00")
    made = record_bytes(FACTS["CardPlayed"], 7, STAMP, "ab" * 32, event, STREAM, by)
    assert made == old_record(FACTS["CardPlayed"], event, by)
    assert b'"seat":1267650600228229401496703205376' in made
    assert "\u2028".encode() in made and b"\\u0000" in made and b"\x7f" in made


# ---- decoding ---------------------------------------------------------------------------------


def _fact(fact_class: type[StoredFact], state: bytes, keep_bytes: bool) -> StoredFact:
    record = json.loads(state)
    record.pop("class_version")
    fact = fact_class(originator_id=None, originator_version=record["version"], **record)
    if keep_bytes:
        fact.encoded = state
    return fact


@pytest.mark.parametrize("name", sorted(FACTS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_event_type_decodes_to_the_event_it_was(name: str, data: st.DataObject) -> None:
    fact_class = FACTS[name]
    event = data.draw(events_of(fact_class))
    if name == "MatchCreated":
        # Options of a known game must be texts of their type to be written at all.
        event = msgspec.structs.replace(event, game="toy")
    state = record_bytes(fact_class, 7, STAMP, "ab" * 32, event, STREAM, RecordedBy("house",
                                                                                    "x"))
    from_bytes = _fact(fact_class, state, keep_bytes=True).to_domain()
    from_values = _fact(fact_class, state, keep_bytes=False).to_domain()
    assert from_bytes == event and from_values == event
    assert type(from_bytes) is type(event)


def test_a_match_created_with_typed_options_reads_back_its_texts() -> None:
    fact_class = FACTS["MatchCreated"]
    event = next(iter(_demo_created()))
    state = record_bytes(fact_class, 1, STAMP, "ab" * 32, event, STREAM, RecordedBy("house", "x"))
    assert state == old_record(fact_class, event, RecordedBy("house", "x")).replace(
        b'"version":7', b'"version":1')
    assert b'"length":"' not in state   # an integer option is a JSON number (v3)
    assert _fact(fact_class, state, keep_bytes=True).to_domain() == event


def _demo_created() -> Iterator[Any]:
    for demo in demo_set(Seed(b"\x11" * 16), 2):
        yield decide(initial(CATALOG), demo.setup, datetime(2026, 1, 1, tzinfo=UTC))[0]


BAD = [
    (b'"capture":["Ad","Zz"]', "CardPlayed (event 3).capture[1]: expected a card code such "
                               "as 7d or Rc, got 'Zz'"),
    (b'"capture":["Ad",7]', "CardPlayed (event 3).capture[1]: expected a card code such as 7d "
                            "or Rc, got 7"),
    (b'"seat":true', "CardPlayed (event 3).seat: Expected `int`, got `bool`"),
    (b'"seat":"1"', "CardPlayed (event 3).seat: Expected `int`, got `str`"),
    (b'"scopa":1', "CardPlayed (event 3).scopa: Expected `bool`, got `int`"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_decode_errors_keep_naming_the_path(change: bytes, message: str) -> None:
    good = {"capture": ["Ad", "2d"], "card": "7d", "matta_value": None, "scopa": False,
            "seat": 1}
    data = {**good, **json.loads(b"{" + change + b"}")}
    state = old_bytes({"class_version": 1, "data": data, "version": 3})
    with pytest.raises(CodecError) as from_bytes:
        decode_record(CardPlayed, state, "CardPlayed (event 3)")
    with pytest.raises(CodecError) as from_values:
        decode(CardPlayed, data, "CardPlayed (event 3)")
    assert str(from_bytes.value) == str(from_values.value) == message


@pytest.mark.parametrize(("data", "found"), [
    ({"card": "7d", "capture": [], "matta_value": None, "scopa": False},
     "CardPlayed (event 3): Object missing required field `seat`"),
    ({"card": "7d", "capture": [], "matta_value": None, "scopa": False, "seat": 0, "x": 1},
     "CardPlayed (event 3): Object contains unknown field `x`"),
    (["7d"], "CardPlayed (event 3): Expected `object`, got `array`"),
])
def test_a_missing_or_unknown_field_is_named(data: Any, found: str) -> None:
    with pytest.raises(CodecError) as from_values:
        decode(CardPlayed, data, "CardPlayed (event 3)")
    with pytest.raises(CodecError) as from_bytes:
        decode_record(CardPlayed, old_bytes({"data": data}), "CardPlayed (event 3)")
    assert str(from_values.value) == str(from_bytes.value) == found


def test_an_envelope_refused_by_its_checks_is_a_codec_error_naming_it() -> None:
    with pytest.raises(CodecError, match=r"^CardPlayed \(event 3\) recorded_by: .*'nobody'"):
        decode(RecordedBy, {"kind": "nobody", "name": "x", "where": None},
               "CardPlayed (event 3) recorded_by")


# ---- every record of a demo store -------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def demo_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    for backend in make_backend(request.param, tmp_path):
        _register()
        for args in (["simulate", "matches", "--count", "4"],
                     ["simulate", "briscola", "--seed", "5eed" * 8, "--players", "4"]):
            result = CliRunner().invoke(cli, [*args, "--store", "--database", backend.url])
            assert result.exit_code == 0, result.output
        yield backend


def test_every_demo_record_decodes_to_the_same_events(demo_store: Backend) -> None:
    """Each stored record decodes (straight from its bytes) to an event whose old-codec record
    is exactly the stored bytes, and to the same event through the upcasters' dict path."""
    store = MatchStore(url=demo_store.url, read_only=True)
    try:
        rows = [row for stream in store.streams() for row in store.stored(stream)]
        assert len(rows) > 100
        for row in rows:
            fact = store.mapper.to_domain_event(row)
            assert isinstance(fact, StoredFact)
            assert fact.encoded == row.state   # read straight from the bytes
            event = fact.to_domain()
            record = json.loads(row.state)
            data = old_form(event)
            if fact.type == "MatchCreated":
                _typed_options(data)
            assert old_bytes({**record, "data": data}) == row.state
            assert decode(type(fact).domain_type, fact.domain_data(), "x") == event
            by = fact.envelope()
            assert by is not None and old_bytes(old_form(by)) == old_bytes(record["recorded_by"])
    finally:
        store.close()


# ---- the store's parse of a row ---------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | INT | st.floats(allow_nan=False, allow_infinity=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12)
ODD_ROWS = [b'"\\ud800"', b"1e400", b"NaN", b'"\xff"', b"\xef\xbb\xbf{}", b'{"a":1,"a":2}',
            b"[1,]", b"  {}  ", b'"\\ud83d\\ude00"', b"-0", b"01"]


def _parsed(parse: Any, data: bytes) -> Any:
    try:
        return ("value", parse(data))
    except ValueError as error:   # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return ("refused", type(error).__name__)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_the_store_parses_a_row_as_json_loads_does(value: Any, canonical: bool) -> None:
    data = old_bytes(value) if canonical else json.dumps(value).encode()
    assert CanonicalTranscoder().decode(data) == json.loads(data)


@pytest.mark.parametrize("data", ODD_ROWS)
def test_what_msgspec_refuses_is_parsed_or_refused_as_json_loads_does(data: bytes) -> None:
    transcoder = CanonicalTranscoder()
    assert repr(_parsed(transcoder.decode, data)) == repr(
        _parsed(lambda d: json.loads(d.decode("utf-8")), data))


def test_a_nested_value_with_an_unknown_field_is_refused_naming_it() -> None:
    created = {"entrants": [{"members": [], "name": "Turi"}, {"name": "Nina", "members": [],
                                                              "x": 1}],
               "final": "fasce", "name": "T", "recomposition": "precostituito",
               "seating_commitment": "ab", "sorteggio_commitment": "cd"}
    where = "TarocchiTournamentCreated (event 1)"
    with pytest.raises(CodecError) as from_bytes:
        decode_record(FACTS["TarocchiTournamentCreated"].domain_type,
                      old_bytes({"data": created}), where)
    assert str(from_bytes.value) == (f"{where}.entrants[1]: Object contains unknown field `x`")
