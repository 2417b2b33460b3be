"""The audit's findings of a match as the viewer shows them: all of them to the arbiter (the
match page's panel, the verbale's table), and to a seat or the public only those that tell
nothing the viewer could not see at the step.

The audit (domain/record/audit.py) replays the whole record; it is made once per record head
and kept by the app (replay_web/web/rendered.py `KeptFindings`), not once per request.

A seat or the public sees, up to the step and from the record up to the step only:

- a claimed score that differs from the computed one (`claimed score`): it compares what the
  paper says with the breakdown of an ended smazzata, which everyone sees once it ended; shown
  from the ScoreClaimed's step;
- an irregularity the table noted (`irregularity: …`): its words are the IrregularityNoted's,
  which the public timeline already shows whole (events_text.py); shown from the step it was
  noted at, not from the earlier play it refers to (that would tell of a later event);
- the header's Result against the ended match's (`claimed result`): the audit places it at the
  header's step, but it compares with the result of the end, so for a seat or the public it is
  worked out from the state at the step (domain/record/decide_claims.py `result_difference`)
  and shown from the match's end;
- of the checks the unknown cards of a transcribed record leave open (NOTE), only how many.

What the audit finds at a play an irregularity was noted on is known once the note is recorded:
the audit judges the play and its notes as one action.

A failure of the record (the rules or the seeds disagree) may name a hidden card: the arbiter
sees it here, everyone else in verify's verdict badge.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import has_app_context
from flask_babel import gettext

from domain.record.audit import Finding, Severity, audit
from domain.record.catalog import CATALOG
from domain.record.decide_claims import result_difference
from domain.record.events import IrregularityNoted, MatchEnded
from domain.text import Said
from domain.viewing import ARBITER, Viewer
from replay_web.i18n import translate
from replay_web.web.app import services
from replay_web.web.records import Replay, head_of

JSON = dict[str, object]

CLAIMED_SCORE, CLAIMED_RESULT = "claimed score", "claimed result"
IRREGULARITY = "irregularity: {rule}"
"""The template of an irregularity's check (audit.py `_irregularity`)."""


def audited(replay: Replay) -> tuple[Finding, ...]:
    """The audit's findings of the record as it stands, in the audit's order; made once per
    record head when an app is at hand."""
    def make() -> tuple[Finding, ...]:
        return audit(CATALOG, list(zip(replay.events, replay.moments, strict=True))).findings
    if not has_app_context():
        return make()
    return services().findings.findings_of(head_of(replay), make)


def _ordered(found: Iterable[Finding]) -> list[Finding]:
    return sorted(found, key=lambda f: (f.version, -f.severity))


def record_findings(replay: Replay) -> list[JSON]:
    """Every finding of the record as it now stands, in the order of the record, its message in
    the request's language: the verbale's table."""
    return [{"version": f.version, "severity": str(f.severity), "check": f.check,
             "message": translate(f.message, gettext)} for f in _ordered(audited(replay))]


def step_findings(replay: Replay, step: int, viewer: Viewer) -> JSON:
    """The findings panel of a step: `shown` (each with the step it links to, its severity,
    check and message; messages stay `Said`: English in the JSON, translated by the page) and
    `open_checks`, the NOTEs up to the step. The arbiter's `shown` is the whole record's."""
    found = audited(replay)
    noted = _noted(replay)
    open_checks = sum(1 for f in found if f.severity is Severity.NOTE
                      and noted.get(f.version, f.version) <= step)
    if viewer is ARBITER:
        shown = [_item(f) for f in _ordered(found)]
    else:
        shown = _public(replay, step, found, noted)
    return {"shown": shown, "open_checks": open_checks}


def _noted(replay: Replay) -> dict[int, int]:
    """For each play an irregularity was noted on, the step of the last note: the audit judges
    the play with its notes as one action (audit.py `_played`), so what it finds at the play is
    known only once they are recorded."""
    noted: dict[int, int] = {}
    for version, event in enumerate(replay.events, start=1):
        if isinstance(event, IrregularityNoted):
            noted[event.refers_to] = version
    return noted


def _item(finding: Finding) -> JSON:
    return {"step": finding.version, "severity": str(finding.severity), "check": finding.check,
            "message": finding.message}


def _public(replay: Replay, step: int, found: tuple[Finding, ...],
            noted: dict[int, int]) -> list[JSON]:
    """What a seat or the public may see of the findings, each from the step it is known at."""
    shown = [f for f in found if (at := _known_at(f, noted)) is not None and at <= step]
    differs = result_difference(replay.line.state(step))
    if differs is not None:
        ended = max((v for v in range(1, step + 1)
                     if isinstance(replay.events[v - 1], MatchEnded)), default=step)
        shown.append(Finding(ended, CLAIMED_RESULT, differs, Severity.FINDING))
    return [_item(f) for f in _ordered(shown)]


def _known_at(finding: Finding, noted: dict[int, int]) -> int | None:
    """The step from which a seat or the public may see `finding`; None: never (a failure, a
    note, the claimed result, which `_public` works out at the step)."""
    if finding.severity is not Severity.FINDING:
        return None
    if finding.check == CLAIMED_SCORE:
        return finding.version
    if isinstance(finding.check, Said) and finding.check.template == IRREGULARITY:
        return noted.get(finding.version)
    return None
