"""`verbale verify`: every stream of the store re-checked, or one match by its id or prefix."""

from __future__ import annotations

import sys
from pathlib import Path
from uuid import UUID

import click

from domain.record.audit import Severity
from importers.notation.exact import require_exact
from projections.store.app import MatchStore
from projections.verify.streams import verify_store
from projections.verify.verdicts import Problem, Tally, Verdict, tally
from replay_web.cli import CommandFailed, UsageProblem, classify, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext, translate
from replay_web.match_ids import check_match_text, resolve_match
from replay_web.progress import bar, progress


@cli.command("verify")
@click.option("--match", "match_text", default=None, help="Check only this match (its id).")
@click.option("--record", is_flag=True,
              help="Then write each match's verdict into the read models, for 'verbale "
                   "matches' (the events are still only read).")
@click.option("--against", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Then compare the store with this signed checkpoint of the audit log "
                   "(docs/audit-log.md).")
@click.option("--public-key", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The public key the --against checkpoint was signed with.")
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes to verify with (0: one per core); the report is the same.")
@click.option("--read-models", "read_models", is_flag=True,
              help="Then fold the record again and compare the read models (match list, "
                   "scores, standings) with it, row by row (implied by --against).")
@click.option("--exact", is_flag=True,
              help="Turn every fast route off, in the --jobs workers too (as VERBALE_EXACT=1 "
                   "does).")
@database_option
def verify(match_text: str | None, record: bool, database: str | None,
           against: Path | None = None, public_key: Path | None = None, jobs: int = 1,
           read_models: bool = False, exact: bool = False) -> None:
    """Re-check every match: chain, head, seeds and deals, every play, and the result. The
    store is only read; with --record each match's verdict (ok, warning, error) and number of
    findings are written into the read models beside it, never into the events. With
    --against, the store is then compared with a signed checkpoint: every stream changed, cut
    back, gone or reopened since is named."""
    if exact:
        require_exact()   # through the environment, so that the --jobs workers see it
    if match_text is not None:
        check_match_text(match_text)
    anchor = None
    if against is not None or public_key is not None:
        from replay_web.cli_auditlog import anchor_of
        anchor = anchor_of(against, public_key, match_text)
    read_models = read_models or anchor is not None
    if read_models and match_text is not None:
        raise UsageProblem(_("--read-models compares the whole read models: it cannot be used "
                             "with --match"))
    store = open_store(database, read_only=True)
    try:
        only = resolve_match(store, match_text) if match_text else None
        verdicts = _verified(store, only, jobs, database)
        compared = anchor.compare(store) if anchor is not None else None
        folded = None
        if read_models:   # SQLAlchemy and the read models: imported only then (start-up)
            from replay_web.cli_read_models import compared_read_models
            folded = compared_read_models(store, database)
    finally:
        store.close()
    for verdict in verdicts:
        for line in render_verdict(verdict):
            click.echo(line)
    for line in render_in_progress(verdicts):
        click.echo(line)
    click.echo(render_summary(tally(verdicts)))
    if anchor is not None and compared is not None:
        from replay_web.cli_auditlog import against_lines
        for line in against_lines(anchor, compared):
            click.echo(line)
    if folded is not None:
        from replay_web.cli_read_models import read_model_lines, record_check
        for line in read_model_lines(folded):
            click.echo(line)
        record_check(folded, database)
    if record:
        click.echo(_record(verdicts, database))
    if only is not None:
        for verdict in verdicts:
            click.echo(_("head of {stream}: event {version}, hash {hash}").format(
                stream=verdict.stream, version=verdict.events, hash=verdict.head or "-"))
    if not all(v.ok for v in verdicts) or (compared is not None and compared.flagged) or (
            folded is not None and not folded.agrees):
        sys.exit(1)


def _verified(store: MatchStore, only: UUID | None, jobs: int,
              database: str | None) -> list[Verdict]:
    """The whole store by --jobs worker processes (projections/verify/jobs.py), else
    here, stream by stream."""
    from projections.verify.jobs import jobs_wanted, verify_parallel
    workers = jobs_wanted(jobs)
    if only is not None or workers == 1:
        return verify_store(store, only, lambda streams: progress(
            streams, len(streams), _("verifying")))
    from projections.store.config import database_url
    return verify_parallel(database or database_url(), workers,
                           lambda total: bar(total, _("verifying")), store)


def _record(verdicts: list[Verdict], database: str | None) -> str:
    """The verdicts written into rm_verdetti; a store that cannot be written is one line,
    exit 1, once the verdicts are printed."""
    from projections.read_models.engine import read_model_engine
    from projections.read_models.verdicts import record_verdicts
    from projections.store.config import database_url

    try:
        engine = read_model_engine(database or database_url())
        try:
            written = record_verdicts(engine, verdicts)
        finally:
            engine.dispose()
    except Exception as error:   # the checks are printed; only their record failed
        raise CommandFailed(_("the verdicts could not be recorded in the read models: "
                              "{reason}").format(reason=classify(error)[1])) from None
    return ngettext("{n} verdict recorded in the read models",
                    "{n} verdicts recorded in the read models", written).format(n=written)


def render_verdict(verdict: Verdict) -> list[str]:
    failed = len(verdict.of(Severity.FAILURE))
    if not verdict.ok:
        status = ngettext("FAILED ({n} problem)", "FAILED ({n} problems)", failed).format(
            n=failed)
    elif verdict.in_progress:
        status = _("OK so far, in progress")
    else:
        status = _("OK")
    findings, notes = len(verdict.of(Severity.FINDING)), len(verdict.of(Severity.NOTE))
    found = [ngettext("{n} finding", "{n} findings", findings).format(n=findings)
             if findings else "",
             ngettext("{n} unverifiable check", "{n} unverifiable checks", notes).format(n=notes)
             if notes else ""]
    extra = ", ".join(f for f in found if f)
    if extra:
        status += f", {extra}"
    events = ngettext("{n} event", "{n} events", verdict.events).format(n=verdict.events)
    head = f"{verdict.stream}  {translate(verdict.kind):<14} {events:>11}  {status}"
    note = _standing(verdict)
    lines = [head + (f"  ({note})" if note and verdict.ok else "")]
    what = {"tournament": _("tournament"), "keys": _("arbiter keys"),
            "tarocchi": _("Tarocchi tournament")}.get(verdict.category, _("match"))
    lines.extend(f"    {what} {verdict.stream} {render_problem(problem)}"
                 for problem in sorted(verdict.problems, key=lambda p: -p.severity))
    if note and not verdict.ok:
        lines.append(f"    {note}")
    return lines


def render_problem(problem: Problem) -> str:
    """`event 3 [chain] message`: where, the check's name, the severity unless a failure,
    and the message, in the chosen language (the check's name is shown as it is)."""
    where = (_("event {version}").format(version=problem.version)
             if problem.version is not None else _("stream"))
    message = translate(problem.message)
    if problem.severity is Severity.FINDING:
        message = _("for the arbiter: {message}").format(message=message)
    elif problem.severity is Severity.NOTE:
        message = _("unverifiable check: {message}").format(message=message)
    return f"{where} [{problem.check}] {message}"


def _standing(verdict: Verdict) -> str | None:
    """Where a match not finished stands, for people (smazzate counted from 1)."""
    if verdict.standing is None:
        return translate(verdict.note) if verdict.note is not None else None
    smazzata, phase = verdict.standing
    if phase == "ended":
        return _("in progress: the play is over, a seed is not revealed yet")
    return _("in progress: smazzata {n}, phase '{phase}'").format(n=smazzata, phase=phase)


def render_in_progress(verdicts: list[Verdict]) -> list[str]:
    """The matches in progress, each with the commitments it has not revealed yet."""
    going = [v for v in verdicts if v.ok and v.in_progress]
    if not going:
        return []
    lines = [ngettext("{n} match in progress, its commitments not yet revealed:",
                      "{n} matches in progress, their commitments not yet revealed:",
                      len(going)).format(n=len(going))]
    for verdict in going:
        lines.append(f"  {verdict.stream}  {verdict.kind}  {_standing(verdict) or ''}".rstrip())
        for smazzata, commitment in verdict.unrevealed:
            label = (_("commitment to the match seed") if smazzata is None else
                     _("commitment to the seed of smazzata {n}").format(n=smazzata))
            lines.append(f"      {label}: {commitment}")
    return lines


def render_summary(t: Tally) -> str:
    counts = {
        "streams": ngettext("{n} stream", "{n} streams", t.streams).format(n=t.streams),
        "tournaments": ngettext("{n} tournament", "{n} tournaments",
                                t.tournaments).format(n=t.tournaments),
        "matches": ngettext("{n} match", "{n} matches", t.matches).format(n=t.matches),
        "events": ngettext("{n} event", "{n} events", t.events).format(n=t.events),
        "finished": t.finished, "in_progress": t.in_progress, "failed": t.failed}
    kinds = _("{tournaments}, {matches}").format(**counts)
    if t.tarocchi:
        kinds = _("{kinds}, {tarocchi}").format(kinds=kinds, tarocchi=ngettext(
            "{n} Tarocchi tournament", "{n} Tarocchi tournaments", t.tarocchi).format(
                n=t.tarocchi))
    if t.keys:
        kinds = _("{kinds}, {keys}").format(kinds=kinds, keys=ngettext(
            "{n} arbiter's keys", "{n} arbiters' keys", t.keys).format(n=t.keys))
    summary = _("{streams} ({kinds}), {events}: {finished} finished ok, {in_progress} in "
                "progress, {failed} failed").format(kinds=kinds, **counts)
    if not (t.irregularities or t.unverifiable):
        return summary
    irregularities = ngettext("{n} finding for the arbiter",
                              "{n} findings for the arbiter",
                              t.irregularities).format(n=t.irregularities)
    unverifiable = ngettext("{n} unverifiable check", "{n} unverifiable checks",
                            t.unverifiable).format(n=t.unverifiable)
    return _("{summary}; {irregularities}, {unverifiable}").format(
        summary=summary, irregularities=irregularities, unverifiable=unverifiable)
