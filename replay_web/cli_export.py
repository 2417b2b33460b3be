"""`verbale export`: a match's events as JSON lines for an auditor, and its head hash."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO, cast

import click

from projections.store.export import ExportError
from replay_web.cli import CommandFailed, cli
from replay_web.cli_database import DATABASE_HELP, open_store
from replay_web.i18n import _, ngettext, translate_error
from replay_web.match_ids import resolve_match


@cli.command("export")
@click.option("--match", "match_text", required=True,
              help="The match id, or a unique prefix of it.")
@click.option("--format", "fmt", type=click.Choice(["jsonl"]), default="jsonl",
              show_default=True, help="JSON lines: one stored record per line.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE",
              help="Write to FILE, all or nothing (default: standard output).")
@click.option("--database", default=None, help=DATABASE_HELP)
def export(match_text: str, fmt: str, output: Path | None, database: str | None) -> None:
    """Write a match's events as JSON lines (docs/events.md), then say how many and the head
    hash (the hash of the last event): on standard error when the lines go to standard output,
    on standard output when they go to a file. A file is written whole or not at all."""
    from projections.store.export import Exported, export_file, write_jsonl

    to_file = output is not None and str(output) != "-"
    store = open_store(database, read_only=True)
    try:
        stream = resolve_match(store, match_text)
        done: Exported
        if to_file:
            assert output is not None
            try:
                done = export_file(store, stream, output)
            except OSError as error:
                raise CommandFailed(_("cannot write {file}: {reason}").format(
                    file=output, reason=error.strerror or error)) from None
        else:
            with click.open_file("-", "w", encoding="utf-8") as lines:
                done = write_jsonl(store, stream, cast(TextIO, lines))
                lines.flush()
    except ExportError as error:
        raise CommandFailed(translate_error(error)) from None
    finally:
        store.close()
    where = str(output) if to_file else _("standard output")
    click.echo(ngettext("{count} event of match {stream} written to {where}; head hash {head}",
                        "{count} events of match {stream} written to {where}; head hash {head}",
                        done.events).format(count=done.events, stream=stream, where=where,
                                            head=done.head), err=not to_file)
    if not done.head_agrees:
        last, head = done.stored_head or (0, "-")
        raise CommandFailed(_("the store's head of match {stream} is event {version} (hash "
                              "{head}), not the last event exported: run 'verbale verify "
                              "--match {stream}'").format(stream=stream, version=last,
                                                          head=head))
