"""The reader's fast route (reader_fast.py) against its reference, lark's parse of the grammar.

Wherever the fast path reads a text, its result is lark's, positions included; where lark does
not read a text, the fast path gives up. Over the strict export form (the writer's text of random
stored matches and of partial records) the fast path is taken every time, and `read` then never
calls lark; with VERBALE_EXACT=1 it is never taken and `read` always calls lark. `read` gives the
same matches and the same errors with the fast path as without it (VERBALE_EXACT=1), strict and
lenient, over mutated records. Stored records: test_reader_fast_store.py.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token
from lark.exceptions import UnexpectedInput

from importers.notation import reader
from importers.notation.errors import NotationError
from importers.notation.exact import VARIABLE
from importers.notation.exact import exact as is_exact
from importers.notation.from_events import StoredEvent, written_from_events
from importers.notation.reader_build import RawMatch
from importers.notation.writer import write, write_matches
from tests.importers.notation.match_strategies import partial_records, stored_matches
from tests.importers.notation.strategies import VALID_RECORDS, malformed_texts

ROOT = Path(__file__).resolve().parents[3]
# The notation's examples; docs/examples/tarocchi holds Tarocchi score sheets, another format.
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").glob("**/*.txt")
                  if "tarocchi" not in p.parts)
MANY = settings(max_examples=settings().max_examples * 5)


@contextmanager
def switch(on: bool) -> Iterator[None]:
    """VERBALE_EXACT set (on) or unset (off) meanwhile, read again on entry and on exit."""
    with pytest.MonkeyPatch.context() as patch:
        if on:
            patch.setenv(VARIABLE, "1")
        else:
            patch.delenv(VARIABLE, raising=False)
        is_exact.cache_clear()
        try:
            assert is_exact() is on
            yield
        finally:
            patch.undo()
            is_exact.cache_clear()
    assert is_exact() is (os.environ.get(VARIABLE, "") not in ("", "0"))


def exact(value: object) -> object:
    """Everything of a parse's result, positions included: lark's `Token` compares its text and
    type only, and a `WrittenPlay` leaves out its position."""
    if isinstance(value, Token):
        return ("Token", value.type, str(value), value.start_pos, value.line, value.column,
                value.end_line, value.end_column, value.end_pos)
    if isinstance(value, list | tuple):
        return (type(value).__name__, *(exact(item) for item in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                *(exact(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, msgspec.Struct):   # a WrittenPlay, its Pos
        return (type(value).__name__,
                *(exact(getattr(value, name)) for name in value.__struct_fields__))
    return (type(value).__name__, value)


def by_lark(text: str) -> list[RawMatch] | None:
    try:
        raws: list[RawMatch] = reader._PARSER.parse(text)  # type: ignore[assignment]
    except UnexpectedInput:
        return None
    return raws


def fast(text: str) -> list[RawMatch] | None:
    """The fast path's result for a text as `reader._parse` gets it (with a newline after)."""
    return reader._FAST.read(text + "\n")


def assert_as_lark(text: str) -> bool:
    """The fast path gives up on `text`, or gives lark's result exactly; whether it read it."""
    found = fast(text)
    if found is None:
        return False
    expected = by_lark(text + "\n")
    assert expected is not None, "the fast path read a text lark refuses"
    assert exact(found) == exact(expected)
    return True


# ---- the strict export form: taken every time, lark's result --------------------------------


@given(stored_matches())
def test_the_export_form_of_a_stored_match_is_read_by_the_fast_path(
        events: tuple[StoredEvent, ...]) -> None:
    assert assert_as_lark(write(written_from_events(events)))


@given(stored_matches(), st.data())
def test_the_export_form_of_a_partial_record_is_read_by_the_fast_path(
        events: tuple[StoredEvent, ...], data: st.DataObject) -> None:
    partial = data.draw(partial_records(written_from_events(events)))
    assert assert_as_lark(write(partial))


@given(st.lists(stored_matches(), min_size=2, max_size=3))
def test_several_matches_are_read_by_the_fast_path(
        matches: list[tuple[StoredEvent, ...]]) -> None:
    assert assert_as_lark(write_matches([written_from_events(events) for events in matches]))


class Refusing:
    """Stands for lark's parser or for the fast route: any call fails the test."""

    def parse(self, text: str) -> object:
        raise AssertionError("lark was called")

    def read(self, text: str) -> object:
        raise AssertionError("the fast route was taken")


@given(stored_matches())
def test_read_does_not_call_lark_on_the_export_form(events: tuple[StoredEvent, ...]) -> None:
    match = written_from_events(events)
    with switch(False), pytest.MonkeyPatch.context() as patch:
        patch.setattr(reader, "_PARSER", Refusing())
        assert reader.read(write(match), "round-trip.txt").matches == (match,)


class Counting:
    """Stands for lark's parser: counts its calls and parses with it."""

    def __init__(self) -> None:
        self.calls = 0
        self.parser = reader._PARSER

    def parse(self, text: str) -> object:
        self.calls += 1
        return self.parser.parse(text)


@given(stored_matches())
def test_with_verbale_exact_read_calls_lark_and_never_the_fast_route(
        events: tuple[StoredEvent, ...]) -> None:
    match = written_from_events(events)
    counting = Counting()
    with switch(True), pytest.MonkeyPatch.context() as patch:
        patch.setattr(reader, "_PARSER", counting)
        patch.setattr(reader, "_FAST", Refusing())
        assert reader.read(write(match), "round-trip.txt").matches == (match,)
    assert counting.calls == 1


# ---- the examples and the sample records -----------------------------------------------------


def test_the_examples_read_as_lark_reads_them() -> None:
    # comments before the first tag, after a line and in lines of plays are read: every
    # example is taken (the refused one is refused by the checks, not by the grammar)
    taken = [path.name for path in EXAMPLES
             if assert_as_lark(path.read_text(encoding="utf-8").removeprefix(reader.BOM))]
    assert len(EXAMPLES) >= 10
    assert taken == [path.name for path in EXAMPLES]


@pytest.mark.parametrize("record", VALID_RECORDS)
def test_the_sample_records_read_as_lark_reads_them(record: str) -> None:
    assert_as_lark(record)
    assert_as_lark(record.replace("\n", "\r\n"))


def test_the_samples_with_english_and_italian_keywords_are_taken() -> None:
    # the first sample has brace comments and two spaces inside lines of plays: still taken
    assert all(assert_as_lark(record) for record in VALID_RECORDS)
    assert all(assert_as_lark(record.replace("\n", "\r\n")) for record in VALID_RECORDS)


HEAD = '[Game "cirulla"]\n[Players "Anna, Bruno"]\nSmazzata 1\nTable 7d 3c 4b 5s\n'


@pytest.mark.parametrize("line", [
    "Hand 1 7d  3c",          # two spaces
    "Hand 1\t7d",             # a tab
    " Hand 1 7d",             # a space before
    "Hand 1 {seen} 7d",       # a brace comment
    "Hand 1 7d{x}",
    "Claimed scope 1-0  carte 0-1",
    '[Event  "x"]',
    '[ Event "x"]',
])
def test_what_lark_reads_another_way_is_left_to_lark(line: str) -> None:
    assert fast(HEAD + line) is None
    assert by_lark(HEAD + line + "\n") is not None


@pytest.mark.parametrize("text", [
    HEAD + "Hand 1 7d 3", HEAD + "Hand x 7d", HEAD + "Table", HEAD + "Accuso 1 cirulla",
    HEAD + "Dealer", HEAD + "End\nHand 1 7d", HEAD + "End\n1. 7d", HEAD + "Hand-1 7d",
    HEAD + "Dealer 1x", HEAD + "Claimed scope", HEAD + "Timeout 1 3", HEAD + "1. 7d 3",
    "Smazzata 1\n", '[Game "cirulla"]\n1. 7d', '[Game "cirulla"]\nHand 1 7d',
    '[Game "cirulla"\n', '[Game cirulla]\n', HEAD + 'Ruling "a" b "c" "d"',
])
def test_a_syntax_error_is_left_to_lark(text: str) -> None:
    assert fast(text) is None
    assert by_lark(text + "\n") is None


@pytest.mark.parametrize("text", [
    "", "\n\n", "; only a comment\n", HEAD, HEAD + "End", HEAD + "Fine\nTimeout 1\n",
    HEAD + "Hand 1 7d ; seen late\n\n; more\n1. 7d\n\n\n2. 3c", HEAD + "Stock\nHand 2",
    HEAD + "Accuso 1 cirulla Ad 2d 3d matta 1", HEAD + "1. 7d !nonsense",
    '[Game "cirulla"]\n[Game "briscola"]\n[Players "a,b"]\n',
    HEAD + 'Ruling "a" b smazzata 1 adjust -1--2 refers CardPlayed 3 "x"',
    HEAD + 'Abandon 2 "x" 3.5s\nTimeout 1 12s',
])
def test_the_fast_path_reads_these_as_lark(text: str) -> None:
    assert assert_as_lark(text)


# ---- mutated records: the fast path gives up or agrees, and `read` does not change -----------

_PIECES = st.sampled_from([" ", "  ", "\t", "\n", "\r\n", ";", "{", "}", "[", "]", '"', "x", "+",
                           "#", "=", "!", ":", ".", "-", "1", "7d", "??", "Hand", "Stock",
                           "Smazzata", "End", "matta", "adjust", "s", "Ab", "♦", "\ufe0f"])


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` after a few edits: a piece inserted, a character deleted or replaced, a line
    doubled, dropped or moved, the text cut."""
    for _ in range(draw(st.integers(1, 3))):
        if not text:
            return text
        at = draw(st.integers(0, len(text) - 1))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "line", "cut"]))
        if edit in ("insert", "replace"):
            text = text[:at] + draw(_PIECES) + text[at + (edit == "replace"):]
        elif edit == "delete":
            text = text[:at] + text[at + 1:]
        elif edit == "cut":
            text = text[:at]
        else:
            lines = text.split("\n")
            one, two = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines.insert(two, lines[one] if draw(st.booleans()) else lines.pop(one))
            text = "\n".join(lines)
    return text


def exported() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(VALID_RECORDS),
                     stored_matches().map(lambda events: write(written_from_events(events))))


@MANY
@given(exported().flatmap(mutated))
def test_a_mutated_record_is_read_as_lark_reads_it(text: str) -> None:
    assert_as_lark(text)


@MANY
@given(malformed_texts())
def test_a_malformed_text_is_read_as_lark_reads_it(text: str) -> None:
    assert_as_lark(text)


def outcome(text: str, lenient: bool) -> object:
    """All that `read` returns or raises, positions included."""
    try:
        parsed = reader.read(text, "t.vbl", lenient=lenient)
    except NotationError as error:
        return ("error", str(error), error.line, error.column)
    return exact(parsed.matches), [(str(e), e.line, e.column) for e in parsed.errors]


@MANY
@given(st.one_of(exported().flatmap(mutated), malformed_texts()), st.booleans())
def test_read_is_the_same_without_the_fast_path(text: str, lenient: bool) -> None:
    with switch(False):
        with_it = outcome(text, lenient)
    with switch(True):
        assert outcome(text, lenient) == with_it
