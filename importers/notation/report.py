"""The report of a validation by replay: what the rules found in one written match.

Every finding names where in the text it was found (line and column, 1-based), its severity
(`error`: the record cannot be stored as written; `finding`: for the arbiter, e.g. an
irregularity the table accepted or a score claimed wrong; `note`: a check the unseen cards leave
open) and the check that made it. Beside them, per smazzata, the score the writers claimed and
the score the rules compute, category by category, and the match result claimed and computed.

`as_json` is the machine form (English messages, stable key order); `as_text_lines` the plain
form the command line prints and the documentation quotes, so it is deterministic: findings in
text order, then the scores. Its lines are `say` messages, translated by the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from domain.game import DeclareAccuso, PlayCard
from domain.text import Said, say
from importers.notation.model import WrittenMatch, WrittenPlay
from importers.notation.writer import play_text as written_play

Severity = Literal["error", "finding", "note"]
SEVERITIES: tuple[Severity, ...] = ("error", "finding", "note")


@dataclass(frozen=True, slots=True)
class ReportFinding:
    """One thing found at `line`:`column` of the text; `smazzata` 1-based (None: the header or
    after the end); `legal` the plays the rules allowed there, in the notation (an illegal play)."""

    severity: Severity
    check: str
    message: str
    line: int
    column: int
    smazzata: int | None = None
    legal: tuple[str, ...] | None = None

    def as_json(self) -> dict[str, object]:
        return {"severity": self.severity, "check": str(self.check),
                "message": str(self.message), "line": self.line, "column": self.column,
                "smazzata": self.smazzata,
                "legal": None if self.legal is None else [str(p) for p in self.legal]}


Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One category of a smazzata's score: as claimed (None: not written) and as computed
    (None: the rules give no such row, or the smazzata did not end)."""

    category: str
    claimed: Pair | None
    computed: Pair | None

    @property
    def differs(self) -> bool:
        return self.claimed is not None and self.claimed != self.computed

    def as_json(self) -> dict[str, object]:
        return {"category": self.category, "claimed": _pair_json(self.claimed),
                "computed": _pair_json(self.computed), "differs": self.differs}


@dataclass(frozen=True, slots=True)
class SmazzataScore:
    """Smazzata `number` (1-based): its rows, the computed categories first in the rules'
    order, then any category claimed that the rules do not give."""

    number: int
    rows: tuple[ScoreRow, ...]
    claimed: bool
    ended: bool

    def as_json(self) -> dict[str, object]:
        return {"number": self.number, "claimed": self.claimed, "ended": self.ended,
                "rows": [row.as_json() for row in self.rows]}


@dataclass(frozen=True, slots=True)
class Report:
    """The validation of match `match_index` (1-based) of file `source`."""

    source: str
    match_index: int
    title: str
    accepted: bool
    findings: tuple[ReportFinding, ...]
    smazzate: tuple[SmazzataScore, ...] = ()
    result_claimed: Pair | None = None
    result_computed: Pair | None = None

    def of(self, severity: Severity) -> tuple[ReportFinding, ...]:
        return tuple(f for f in self.findings if f.severity == severity)

    def counts(self) -> dict[str, int]:
        return {severity: len(self.of(severity)) for severity in SEVERITIES}

    def as_json(self) -> dict[str, object]:
        return {"source": self.source, "match_index": self.match_index,
                "title": str(self.title), "accepted": self.accepted, "counts": self.counts(),
                "findings": [f.as_json() for f in self.findings],
                "smazzate": [s.as_json() for s in self.smazzate],
                "result_claimed": _pair_json(self.result_claimed),
                "result_computed": _pair_json(self.result_computed)}

    def as_text_lines(self) -> tuple[Said, ...]:
        """The report for people, one line each (docs/notation.md quotes them exactly)."""
        return tuple(line for _, line in self.styled_lines())

    def styled_lines(self) -> tuple[tuple[str, Said], ...]:
        """Each line of `as_text_lines` with what it is: a severity, `score`, or `head`."""
        counts = self.counts()
        verdict = say("accepted") if self.accepted else say("rejected")
        lines: list[tuple[str, Said]] = [("head", say(
            "{source}, match {index}: {title}: {verdict} ({errors} errors, {findings} "
            "findings, {notes} notes)", source=self.source, index=self.match_index,
            title=self.title, verdict=verdict, errors=counts["error"],
            findings=counts["finding"], notes=counts["note"]))]
        for finding in self.findings:
            lines.extend((finding.severity, line) for line in _finding_lines(finding))
        for score in self.smazzate:
            lines.extend(("score", line) for line in _score_lines(score))
        if self.result_claimed is not None or self.result_computed is not None:
            lines.append(("score", say("result: claimed {claimed}, computed {computed}",
                                       claimed=pair_text(self.result_claimed),
                                       computed=pair_text(self.result_computed))))
        return tuple(lines)


_SEVERITY_WORDS = {"error": say("error"), "finding": say("finding"), "note": say("note")}


def _finding_lines(finding: ReportFinding) -> list[Said]:
    where = say("{line}:{column}", line=finding.line, column=finding.column)
    if finding.smazzata is not None:
        where = say("{where} (smazzata {smazzata})", where=where, smazzata=finding.smazzata)
    lines = [say("  {where} {severity} [{check}]: {message}", where=where,
                 severity=_SEVERITY_WORDS[finding.severity], check=finding.check,
                 message=finding.message)]
    if finding.legal is not None:
        plays = "; ".join(finding.legal) if finding.legal else say("none")
        lines.append(say("      legal: {plays}", plays=plays))
    return lines


def _score_lines(score: SmazzataScore) -> list[Said]:
    if not score.claimed:
        return []
    lines = [say("  smazzata {number}: claimed / computed", number=score.number)]
    for row in score.rows:
        if row.claimed is None:
            continue
        mark = say(" (differs)") if row.differs else ""
        lines.append(say("    {category} {claimed} / {computed}{mark}", category=row.category,
                         claimed=pair_text(row.claimed), computed=pair_text(row.computed),
                         mark=mark))
    return lines


def pair_text(pair: Pair | None) -> str:
    return "?" if pair is None else f"{pair[0]}-{pair[1]}"


def score_rows(claimed: Sequence[tuple[str, int, int]],
               computed: Sequence[tuple[str, int, int]]) -> tuple[ScoreRow, ...]:
    """Claimed against computed, category by category: the rules' categories first, in their
    order, then any category claimed that the rules do not give."""
    mine = {category_of(c): (a, b) for c, a, b in claimed}
    theirs = {c: (a, b) for c, a, b in computed}
    order = [*theirs, *(c for c in mine if c not in theirs)]
    return tuple(ScoreRow(c, mine.get(c), theirs.get(c)) for c in order)


def claim_differences(rows: Sequence[ScoreRow]) -> list[Said]:
    """One message per category claimed otherwise than computed."""
    return [say("{category}: claimed {claimed}, computed {computed}", category=row.category,
                claimed=pair_text(row.claimed), computed=pair_text(row.computed))
            for row in rows if row.differs]


def category_of(name: str) -> str:
    """A claimed category as the breakdown names it (`vinco_subito` is `vinco subito`)."""
    return name.replace("_", " ")


def play_text(command: PlayCard | DeclareAccuso) -> str:
    """A legal command as the notation writes it: `7d x 3c+4b`, `7c=5`, `Accuso 2 decino`."""
    if isinstance(command, DeclareAccuso):
        return f"Accuso {command.seat + 1} {command.kind}"
    return written_play(WrittenPlay(command.card, capture=tuple(command.capture),
                               matta_value=command.matta_value))


def title_of(match: WrittenMatch) -> str:
    """The players, and the Event when there is one."""
    players = ", ".join(name.strip() for name in (match.tag("Players") or "?").split(","))
    event = match.tag("Event")
    return say("{players} ({event})", players=players, event=event) if event else players


def _pair_json(pair: Pair | None) -> list[int] | None:
    return None if pair is None else [pair[0], pair[1]]
