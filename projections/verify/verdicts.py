"""What `verbale verify` finds: a Problem at an event or in a stream as a whole, a Verdict for
each stream, and the Tally the command line sums them in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from uuid import UUID

from domain.record.audit import Severity
from domain.text import said_of


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding at event `version` (None: the stream as a whole), by the check that made it;
    `message` is a domain.text.Said (or an error's own text) for the command line to translate,
    `check` a name shown as it is."""

    version: int | None
    check: str
    message: str
    severity: Severity = Severity.FAILURE

    def __str__(self) -> str:
        where = f"event {self.version}" if self.version is not None else "stream"
        label = "" if self.severity is Severity.FAILURE else f"{self.severity}: "
        return f"{where} [{self.check}] {label}{self.message}"


@dataclass(frozen=True, slots=True)
class Verdict:
    stream: UUID
    kind: str
    events: int
    problems: tuple[Problem, ...]
    note: str | None = None
    category: str = "?"            # "match" or "tournament", from the first event's type
    in_progress: bool = False      # a sound match not finished yet (no failure)
    head: str | None = None        # the hash of the last stored event
    unrevealed: tuple[tuple[int | None, str], ...] = ()
    """A match in progress: the commitments not revealed yet, (smazzata counted from 1, or None
    for the match seed's commitment, commitment)."""
    place: tuple[str, int | None, int | None] | None = None
    """A match: the tournament its MatchCreated names, with the round and table."""
    scheduled: tuple[tuple[int, int, str], ...] | None = None
    """A tournament that decoded: (round, table, match) of every MatchScheduled."""
    standing: tuple[int, str] | None = None
    """A match not finished: (smazzata counted from 1, phase), the phase "ended" when only
    seeds are left to reveal; `note` says it in English."""

    @property
    def ok(self) -> bool:
        """Nothing failed; noted irregularities and notes leave a record sound."""
        return all(p.severity is not Severity.FAILURE for p in self.problems)

    @property
    def verdict(self) -> Severity | None:
        return max((p.severity for p in self.problems), default=None)

    def of(self, severity: Severity) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is severity)


def with_problems(verdict: Verdict, problems: list[Problem]) -> Verdict:
    return replace(verdict, problems=verdict.problems + tuple(problems), in_progress=False)


def message_of(error: BaseException) -> str:
    """An error's message as it was made (a Said keeps its template), else its text."""
    return said_of(error) or str(error)


@dataclass(frozen=True, slots=True)
class Tally:
    streams: int
    tournaments: int   # card-game tournaments (their schedules and seed commitments)
    matches: int
    events: int
    finished: int      # matches finished, and sound
    in_progress: int   # matches sound so far, not finished
    failed: int        # streams with a failure (matches, tournaments or unreadable ones)
    irregularities: int
    unverifiable: int
    tarocchi: int = 0  # Tarocchi tournaments
    keys: int = 0      # arbiters' keys streams


def tally(verdicts: Sequence[Verdict]) -> Tally:
    return Tally(
        streams=len(verdicts),
        tournaments=sum(v.category == "tournament" for v in verdicts),
        matches=sum(v.category == "match" for v in verdicts),
        events=sum(v.events for v in verdicts),
        finished=sum(v.ok and v.category == "match" and not v.in_progress for v in verdicts),
        in_progress=sum(v.ok and v.in_progress for v in verdicts),
        failed=sum(not v.ok for v in verdicts),
        irregularities=sum(len(v.of(Severity.FINDING)) for v in verdicts),
        unverifiable=sum(len(v.of(Severity.NOTE)) for v in verdicts),
        tarocchi=sum(v.category == "tarocchi" for v in verdicts),
        keys=sum(v.category == "keys" for v in verdicts))
