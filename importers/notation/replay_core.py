"""The replay's machinery (replay.py): one command decided against the state folded so far, the
findings it gives, the events it adds numbered for the rulings that refer to them.

Kept apart from what the replay does with a written match so that both the smazzata's plays
(replay.py) and its incidents and closing (replay_incidents.py) build on the same steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.record.catalog import CATALOG
from domain.record.commands import MatchCommand
from domain.record.decide import Decided, decide_folded
from domain.record.envelope import RecordedBy, importer, importer_line
from domain.record.match import MatchEvent, MatchState, initial
from domain.shuffle import Seed
from domain.text import said_of, say
from importers.notation import setup
from importers.notation.model import Pos, WrittenMatch, WrittenSmazzata
from importers.notation.report import ReportFinding, Severity, SmazzataScore

Action = tuple[MatchCommand, datetime, RecordedBy]
"""One command as `MatchStore.execute_batch` takes it: the command, its moment, its envelope."""

ONE_STEP = timedelta(seconds=1)


@dataclass(frozen=True, slots=True)
class Refusal:
    rule: str
    message: str   # a Said when decide built it so


class Stop(Exception):
    """The replay cannot go on: what follows is not checked."""


class ReplayCore:
    def __init__(self, match: WrittenMatch, program: str) -> None:
        self.match = match
        self.program = program
        self.state: MatchState = initial(CATALOG)
        self.at = setup.start_of(match)
        self.clock = setup.time_control(match)
        self.arbiter = setup.arbiter_of(match)
        self.actions: list[Action] = []
        self.findings: list[ReportFinding] = []
        self.scores: list[SmazzataScore] = []
        self.number: int | None = None      # the smazzata being replayed, 1-based
        self.seed: Seed | None = None       # its seed, when dealt from one
        self.closing: WrittenSmazzata | None = None   # its seed and claim still to record
        # The events accepted so far, in order: the i-th is version i + 1 of the imported
        # stream. A ruling's `refers` (type, ordinal among its type) is looked up in it.
        self.recorded: list[MatchEvent] = []
        self.last_envelope: tuple[int, RecordedBy | None] = (0, None)

    def find(self, severity: Severity, check: str, message: str, pos: Pos,
             legal: tuple[str, ...] | None = None) -> None:
        self.findings.append(ReportFinding(severity, check, message, pos.line, pos.column,
                                           self.number, legal))

    def attempt(self, command: MatchCommand, pos: Pos,
                step: timedelta = ONE_STEP) -> Decided | Refusal:
        """Decide `command` one `step` after the last action; fold it if accepted."""
        at = self.at + step
        outcome = self.tried(self.state, command, at)
        if isinstance(outcome, Refusal):
            return outcome
        decided, state = outcome
        return self.accepted(command, pos, decided, state, at)

    @staticmethod
    def tried(state: MatchState, command: MatchCommand,
              at: datetime) -> tuple[Decided, MatchState] | Refusal:
        """`command` decided at `at` against `state` and folded into it, nothing recorded."""
        try:
            decided, state = decide_folded(state, command, at)
        except ValueError as error:
            rule = getattr(error, "rule", "replay")
            message = getattr(error, "message", None) or said_of(error) or str(error)
            return Refusal(str(rule), message)
        except (TypeError, LookupError, AttributeError, AssertionError) as error:
            # Written input the rules cannot even judge: reported, never a crash.
            return Refusal("replay", say("{kind}: {error}", kind=type(error).__name__,
                                         error=said_of(error) or str(error)))
        return decided, state

    def accepted(self, command: MatchCommand, pos: Pos, decided: Decided, state: MatchState,
                 at: datetime) -> Decided:
        """What `tried` gave, recorded: the state, the moment, the action, its notes."""
        self.recorded.extend(decided.events)
        self.state = state
        self.at = at
        self.actions.append((command, at, self.envelope(pos)))
        for note in decided.notes:
            self.find("note", "unverifiable", note, pos)
        return decided

    def envelope(self, pos: Pos) -> RecordedBy:
        """Where an action comes from: this importer, the file and the line (one envelope for
        the plays of a line: it is immutable). The first is made by `importer`, which checks
        it; the others differ from it only in the line, which its checks do not read, so they
        are built without checking again."""
        line, envelope = self.last_envelope
        if envelope is None:
            envelope = importer(self.program, self.match.source or "<text>", pos.line)
            self.last_envelope = (pos.line, envelope)
        elif line != pos.line:
            envelope = importer_line(envelope, self.match.source or "<text>", pos.line)
            self.last_envelope = (pos.line, envelope)
        return envelope

    def version_of(self, refers: tuple[str, int]) -> int | None:
        """The version of the `ordinal`-th event of type `kind` accepted so far, if any."""
        kind, ordinal = refers
        seen = 0
        for version, event in enumerate(self.recorded, start=1):
            if type(event).__name__ == kind:
                seen += 1
                if seen == ordinal:
                    return version
        return None

    def act(self, command: MatchCommand, pos: Pos, step: timedelta = ONE_STEP) -> Decided | None:
        """`attempt`, a refusal reported as an error."""
        outcome = self.attempt(command, pos, step)
        if isinstance(outcome, Refusal):
            self.find("error", outcome.rule, outcome.message, pos)
            return None
        return outcome

    def stop(self, pos: Pos) -> Stop:
        self.find("note", "replay", say("the replay stops here: the rest of the record is not "
                                        "checked"), pos)
        return Stop()
