"""Whatever the input, the reader lets out only NotationError, each with a true position."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given, settings

from importers.notation.errors import NotationError
from importers.notation.reader import Parsed, read, read_bytes
from tests.importers.notation.strategies import VALID_RECORDS, malformed_bytes, malformed_texts

# settings() is the loaded profile (tests/conftest.py): the count scales with it
MANY = settings(max_examples=settings().max_examples * 5)


def _survives(read_once: Callable[[bool], Parsed]) -> None:
    """Strict: a result or one NotationError; lenient: a result whose errors have positions."""
    try:
        read_once(False)
    except NotationError as raised:
        assert raised.line >= 1 and raised.column >= 1
        assert raised.found and raised.expected
    parsed = read_once(True)
    assert isinstance(parsed, Parsed)
    for error in parsed.errors:
        assert isinstance(error, NotationError)
        assert error.line >= 1 and error.column >= 1
        assert error.found and error.expected


def _strict_error_is_the_first_lenient_error(text: str) -> None:
    lenient = read(text, "f", lenient=True)
    try:
        read(text, "f")
    except NotationError as error:
        assert lenient.errors, "strict failed where lenient found nothing"
        assert (error.line, error.column) in [(e.line, e.column) for e in lenient.errors]
    else:
        assert lenient.errors == ()


@MANY
@given(malformed_texts())
@example("{\n[Game}:")   # a comment in braces over two lines, "[Game" inside it
def test_any_text(text: str) -> None:
    _survives(lambda lenient: read(text, "fuzz.vbl", lenient=lenient))
    _strict_error_is_the_first_lenient_error(text)


@MANY
@given(malformed_bytes())
def test_any_bytes(data: bytes) -> None:
    _survives(lambda lenient: read_bytes(data, "fuzz.vbl", lenient=lenient))


@MANY
@given(malformed_texts())
def test_errors_lie_inside_the_text(text: str) -> None:
    lines = text.lstrip("\ufeff").split("\n")
    for error in read(text, "f", lenient=True).errors:
        assert error.line <= len(lines) + 1
        assert error.column <= len(lines[error.line - 1]) + 2 if error.line <= len(lines) else True


def test_valid_records_read_strictly() -> None:
    for record in VALID_RECORDS:
        assert len(read(record).matches) == 1
