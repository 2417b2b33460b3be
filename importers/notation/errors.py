"""The notation's errors: the only exceptions the reader lets out, whatever the input.

Each names the file, the line and column (1-based), what was found and what was expected, like
python-chess's `ValueError` subclasses. The message is a `domain.text.say` string: English
template, translated by the command line.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.text import Said, say


class NotationError(ValueError):
    """Text that is not a record in the notation: where, what was found, what was expected."""

    def __init__(self, source: str, line: int, column: int, found: str, expected: str,
                 message: Said | None = None) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.found = found
        self.expected = expected
        self.message = message if message is not None else say(
            "found {found}, expected {expected}", found=found, expected=expected)
        super().__init__(say("{source}:{line}:{column}: {message}", source=source, line=line,
                             column=column, message=self.message))


@dataclass(frozen=True, slots=True)
class ErrorReport:
    """A NotationError as data, for JSON reports."""

    source: str
    line: int
    column: int
    found: str
    expected: str
    message: str

    def as_json(self) -> dict[str, object]:
        return {"source": self.source, "line": self.line, "column": self.column,
                "found": self.found, "expected": self.expected, "message": self.message}

    @classmethod
    def of(cls, error: NotationError) -> ErrorReport:
        return cls(error.source, error.line, error.column, str(error.found),
                   str(error.expected), str(error.message))
