"""`verbale import FILE...`: hand records (the notation, docs/notation.md) and score sheets (CSV).

Each file is read, each match judged by replay and reported (text for people, or --json for
programs); a file with any error stores nothing, and says why. --dry-run judges and stores
nothing; --lenient reports every error of a file instead of stopping at the first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from domain.text import said_of, say
from importers.notation.errors import ErrorReport, NotationError
from importers.notation.exact import require_exact
from projections.store.app import BatchRefused, MatchStore
from replay_web.cli import CommandFailed, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext, translate, translate_error
from replay_web.importing import FileOutcome, import_record, import_sheet, refused
from replay_web.progress import progress
from replay_web.read_models import catch_up_read_models

_STYLES = {"error": "bold red", "finding": "yellow", "note": "dim", "head": "bold"}


@cli.command("import")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--lenient", is_flag=True,
              help="Report every error of a file, not only the first (nothing of a file with "
                   "an error is stored either way).")
@click.option("--dry-run", is_flag=True, help="Read and judge the files; store nothing.")
@click.option("--json", "as_json", is_flag=True, help="The reports as one JSON document.")
@click.option("--exact", is_flag=True,
              help="Turn every fast route off (as VERBALE_EXACT=1 does): read with the "
                   "reference reader only.")
@database_option
def import_files(files: tuple[Path, ...], lenient: bool, dry_run: bool, as_json: bool,
                 database: str | None, exact: bool = False) -> None:
    """Import hand records (the notation of docs/notation.md) and score sheets (.csv): each
    match is replayed through the rules and reported; a file enters the store all or nothing,
    a match already imported (the same content hash) is not stored twice, and a file with an
    error leaves the store unchanged. Exit code 1 when a file was refused."""
    if exact:
        require_exact()
    store = open_store(database, read_only=dry_run) if not dry_run or _exists(database) else None
    outcomes: list[FileOutcome] = []
    try:
        # Hand records before score sheets, so that a sheet finds the matches it names.
        ordered = sorted(files, key=lambda path: path.suffix.lower() == ".csv")
        for path in progress(ordered, len(ordered), _("importing")):
            outcomes.append(_one(path, store, lenient, dry_run))
        behind = None if dry_run or store is None or not any(o.stored for o in outcomes) \
            else catch_up_read_models(store, database)
    finally:
        if store is not None:
            store.close()
        _show(outcomes, as_json, dry_run)   # also the files stored before a failure
    refusals = [o for o in outcomes if o.failed]
    if refusals:
        raise CommandFailed(ngettext("{count} file refused: nothing of it was stored",
                                     "{count} files refused: nothing of them was stored",
                                     len(refusals)).format(count=len(refusals)))
    if behind is not None:
        raise behind


def _exists(database: str | None) -> bool:
    """Whether a dry run has a store to look in for matches already imported: a SQLite file
    that is not there (named by --database or not) is none, and a dry run creates nothing."""
    from projections.store.config import database_url
    url = database if database is not None else database_url()
    return not url.startswith("sqlite:///") or Path(url.removeprefix("sqlite:///")).exists()


def _one(path: Path, store: MatchStore | None, lenient: bool, dry_run: bool) -> FileOutcome:
    try:
        if path.suffix.lower() == ".csv":
            return import_sheet(path, store, dry_run)
        return import_record(path, store, lenient, dry_run)
    except NotationError as error:
        outcome = FileOutcome(str(path))
        outcome.errors.append(error)
        return outcome
    except BatchRefused as error:
        return refused(FileOutcome(str(path)), said_of(error) or say("{error}", error=error))
    except (OSError, UnicodeDecodeError) as error:
        raise CommandFailed(_("cannot read {file}: {reason}").format(
            file=path, reason=getattr(error, "strerror", None) or error)) from None


def _show(outcomes: list[FileOutcome], as_json: bool, dry_run: bool) -> None:
    if as_json:
        click.echo(json.dumps({"files": [_as_json(o, dry_run) for o in outcomes]},
                              ensure_ascii=False, indent=2))
        return
    console = Console(highlight=False, soft_wrap=True)
    for outcome in outcomes:
        for line, style in _text(outcome, dry_run):
            console.print(Text(line, style=style))


def _text(outcome: FileOutcome, dry_run: bool) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = [(outcome.path, "bold")]
    lines += [("  " + translate_error(e), "bold red") for e in outcome.errors]
    if outcome.refusal is not None:
        lines.append(("  " + translate(outcome.refusal), "bold red"))
    for report in outcome.reports:
        lines += [("  " + translate(text), _STYLES.get(kind, "")) for kind, text
                  in report.styled_lines()]
    lines.append(("  " + _verdict(outcome, dry_run), "bold"))
    return lines


def _verdict(outcome: FileOutcome, dry_run: bool) -> str:
    if outcome.failed:
        return _("refused: nothing of this file was stored")
    parts = []
    if outcome.stored:
        parts.append(_stored(outcome))
    if outcome.already:
        count = len(outcome.already)
        ids = ", ".join(str(s) for s in dict.fromkeys(outcome.already))
        parts.append(ngettext("{count} claim already recorded: {ids}",
                              "{count} claims already recorded: {ids}", count)
                     if outcome.sheet else
                     ngettext("{count} match already imported: {ids}",
                              "{count} matches already imported: {ids}", count))
        parts[-1] = parts[-1].format(count=count, ids=ids)
    if dry_run:
        parts.append(_("dry run: nothing stored"))
    return "; ".join(parts) or _("nothing to store")


def _stored(outcome: FileOutcome) -> str:
    count = len(outcome.stored)
    ids = ", ".join(str(s) for s in dict.fromkeys(outcome.stored))
    if outcome.sheet:
        return ngettext("{count} claim recorded, in {ids}", "{count} claims recorded, in {ids}",
                        count).format(count=count, ids=ids)
    return ngettext("{count} match stored: {ids}", "{count} matches stored: {ids}",
                    count).format(count=count, ids=ids)


def _as_json(outcome: FileOutcome, dry_run: bool) -> dict[str, Any]:
    return {
        "file": outcome.path,
        "accepted": not outcome.failed,
        "dry_run": dry_run,
        "errors": [ErrorReport.of(e).as_json() for e in outcome.errors],
        "refusal": None if outcome.refusal is None else str(outcome.refusal),
        "matches": [r.as_json() for r in outcome.reports],
        "stored": [str(s) for s in outcome.stored],
        "already_imported": [str(s) for s in dict.fromkeys(outcome.already)],
    }
