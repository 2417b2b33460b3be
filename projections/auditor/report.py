"""The outside auditor's report: its messages, kept as English templates with their parameters
(`Message`), so that `verbale --lang it audit` can show them from verbale's catalogue
(replay_web/cli_audit.py, docs/i18n.md) while this package imports none of it; the lines of an
export (`Line`), each check's verdict (`Check`), the whole report (`Report`) and the findings a
check collects (`Findings`). Every template is wrapped in `N_` (it returns it as it is), the
keyword Babel extracts it by.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(template: str) -> str:
    """Marks a message template for extraction (the Babel keyword `N_`); returns it unchanged."""
    return template


OK, FAILED, SKIPPED = N_("OK"), N_("FAILED"), N_("SKIPPED")
CHECKS = (N_("chain"), N_("seeds"), N_("match seed"), N_("deals"), N_("draws"), N_("scores"),
          N_("rulings"))
SHOWN = 20
"""Problems printed per check; the JSON report lists every one."""
NOTE = N_("note: {note}")


Lookup = Callable[[str], str]
"""A template in the reader's language, from its English (a catalogue's `gettext`)."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message of the report: its English template (`{name}` placeholders) and parameters.
    A parameter that is a `Message` is shown, and translated, with it; any other (a line number,
    a card code, a hash) as it is."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lookup: Lookup | None = None) -> str:
        """The message filled in: in English, or with each template looked up by `lookup` (a
        translation that breaks a placeholder gives the English)."""
        params = {name: value.text(lookup) if isinstance(value, Message) else value
                  for name, value in self.params.items()}
        if lookup is not None:
            try:
                return lookup(self.template).format(**params)
            except (KeyError, IndexError, ValueError):
                pass
        return self.template.format(**params)

    def __str__(self) -> str:
        return self.text()


def say(template: str, /, **params: Any) -> Message:
    """The message of `template` with its parameters."""
    return Message(template, params)


class UnreadableExport(ValueError):
    """Input that is not an export: names the file and, when it can, the line."""

    def __init__(self, source: str, line: int | None, reason: Message) -> None:
        self.source, self.line, self.reason = source, line, reason
        self.message = reason.text()
        super().__init__(self.explain())

    def explain(self, lookup: Lookup | None = None) -> str:
        """`FILE:LINE: reason` (or `FILE: reason`), the reason looked up by `lookup`."""
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.reason.text(lookup)}"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the export: its number in the file (from 1) and its record."""

    number: int
    record: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.record["type"])

    @property
    def data(self) -> dict[str, Any]:
        data = self.record["data"]
        return data if isinstance(data, dict) else {}


@dataclass(frozen=True, slots=True)
class Check:
    """A check's name (one of CHECKS), status (OK, FAILED, SKIPPED), summary, problems and
    notes; `summary`, `problems` and `notes` are their English texts."""

    name: str
    status: str
    summary_message: Message
    problem_messages: tuple[Message, ...] = ()
    note_messages: tuple[Message, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status != FAILED

    @property
    def summary(self) -> str:
        return self.summary_message.text()

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(problem.text() for problem in self.problem_messages)

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(note.text() for note in self.note_messages)


@dataclass(frozen=True, slots=True)
class Report:
    source: str
    events: int
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def check(self, name: str) -> Check:
        return next(check for check in self.checks if check.name == name)

    def render(self, lookup: Lookup | None = None) -> list[str]:
        """One line per check (name, OK/FAILED/SKIPPED, summary), its problems and notes
        indented below it, and a last line with the verdict: in English, or with every template
        looked up by `lookup` (the names and statuses too, their columns as wide as they need)."""
        def word(text: str) -> str:
            return text if lookup is None else lookup(text)

        names = max(len(word(name)) for name in CHECKS) + 1
        statuses = max(len(word(status)) for status in (OK, FAILED, SKIPPED)) + 1
        lines = []
        for check in self.checks:
            lines.append(f"{word(check.name):<{names}} {word(check.status):<{statuses}} "
                         f"{check.summary_message.text(lookup)}")
            lines.extend(f"    {problem.text(lookup)}"
                         for problem in check.problem_messages[:SHOWN])
            if len(check.problem_messages) > SHOWN:
                more = say(N_("... and {count} more (--json lists all)"),
                           count=len(check.problem_messages) - SHOWN)
                lines.append(f"    {more.text(lookup)}")
            for note in check.note_messages:
                lines.append(f"    {say(NOTE, note=note).text(lookup)}")
        failed = [word(c.name) for c in self.checks if not c.ok]
        verdict = (say(N_("{source}: {events} events, OK"), source=self.source,
                       events=self.events) if not failed else
                   say(N_("{source}: {events} events, FAILED ({checks})"), source=self.source,
                       events=self.events, checks=", ".join(failed)))
        lines.append(verdict.text(lookup))
        return lines

    def as_json(self) -> dict[str, Any]:
        return {"file": self.source, "events": self.events, "ok": self.ok,
                "checks": [{"name": c.name, "status": c.status, "summary": c.summary,
                            "problems": list(c.problems), "notes": list(c.notes)}
                           for c in self.checks]}

MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError)
"""What reading a record's data can raise when the data is not as docs/events.md says."""


@dataclass
class Findings:
    """The problems and notes a check finds, then its verdict (`check`)."""

    problems: list[Message] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)

    def problem(self, template: str, /, **params: Any) -> None:
        self.problems.append(Message(template, params))

    def note(self, template: str, /, **params: Any) -> None:
        self.notes.append(Message(template, params))

    def check(self, name: str, summary: Message, skipped: bool = False) -> Check:
        status = FAILED if self.problems else (SKIPPED if skipped else OK)
        return Check(name, status, summary, tuple(self.problems), tuple(self.notes))

    def malformed(self, line: Line, error: Exception) -> None:
        self.problem(N_("line {line}: {type} data not as docs/events.md says: {error_type} "
                        "{error}"), line=line.number, type=line.type,
                     error_type=type(error).__name__, error=error)
