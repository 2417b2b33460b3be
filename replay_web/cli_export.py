"""`verbale export`: a match's events as JSON lines for an auditor, and its head hash."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO, cast

import click

from domain.games import recorded_names
from projections.store.export import MANIFEST, ExportError
from projections.store.listing import Filters
from replay_web.cli import CommandFailed, UsageProblem, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext, translate_error
from replay_web.match_ids import resolve_match
from replay_web.progress import progress


@cli.command("export")
@click.option("--match", "match_text", default=None,
              help="The match id, or a unique prefix of it.")
@click.option("--all", "every", is_flag=True,
              help="Every stored match, each to its own file in the directory -o DIR.")
@click.option("--game", type=click.Choice(recorded_names()), default=None,
              help="Every stored match of this game, into the directory -o DIR.")
@click.option("--tournament", default=None,
              help="Every match of this tournament (the start of its id or a part of its "
                   "name), into the directory -o DIR.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "notation"]), default="jsonl",
              show_default=True, help="jsonl: one stored record per line (docs/events.md); "
                                      "notation: the hand record in its strict export form "
                                      "(docs/notation.md).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              metavar="FILE|DIR",
              help="Write to FILE, all or nothing (default: standard output); with --all, "
                   "--game or --tournament, the new directory DIR.")
@database_option
def export(match_text: str | None, every: bool, game: str | None, tournament: str | None,
           fmt: str, output: Path | None, database: str | None) -> None:
    """Write a match's events as JSON lines (docs/events.md), then say how many and the head
    hash (the hash of the last event): on standard error when the lines go to standard output,
    on standard output when they go to a file. A file is written whole or not at all. With
    --all, --game or --tournament, every selected match goes to DIR/<id>.jsonl, with
    DIR/heads.txt listing each match's events and head hash; the directory appears whole or
    not at all."""
    many = every or game is not None or tournament is not None
    if many == (match_text is not None):
        raise UsageProblem(_("give --match ID, or --all, --game or --tournament with -o DIR"))
    if many:
        if output is None or str(output) == "-":
            raise UsageProblem(_("--all, --game and --tournament write a directory: give -o "
                                 "DIR"))
        if fmt == "notation":
            raise UsageProblem(_("--format notation writes one match: give --match ID"))
        _export_many(Filters(game=game, tournament=tournament), output, database)
        return
    assert match_text is not None
    if fmt == "notation":
        _export_notation(match_text, output, database)
        return
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


def _export_many(filters: Filters, directory: Path, database: str | None) -> None:
    from projections.store.export import export_directory
    from projections.store.listing import list_matches

    store = open_store(database, read_only=True)
    try:
        streams = [m.stream for m in list_matches(store, filters).matches]
        try:
            done = export_directory(store, progress(streams, len(streams), _("exporting")),
                                    directory)
        except OSError as error:
            raise CommandFailed(_("cannot write {file}: {reason}").format(
                file=error.filename or directory, reason=error.strerror or error)) from None
    finally:
        store.close()
    for exported in done:
        click.echo(_("{stream}  {events:>5} events  head hash {head}").format(
            stream=exported.stream, events=exported.events, head=exported.head))
    click.echo(ngettext("{count} match exported to {directory}; its head hash is in {manifest}",
                        "{count} matches exported to {directory}; their head hashes are in "
                        "{manifest}", len(done)).format(count=len(done), directory=directory,
                                                        manifest=directory / MANIFEST))
    stale = [e.stream for e in done if not e.head_agrees]
    if stale:
        raise CommandFailed(_("the store's head of match {stream} is not the last event "
                              "exported: run 'verbale verify --match {stream}'").format(
                                  stream=stale[0]))


def _export_notation(match_text: str, output: Path | None, database: str | None) -> None:
    """One match as a hand record (docs/notation.md), to standard output or, whole or not at
    all, to a file."""
    from domain.record.events import MatchCreated
    from importers.notation.from_events import written_from_events
    from importers.notation.writer import write
    from projections.store.export import write_whole

    store = open_store(database, read_only=True)
    try:
        stream = resolve_match(store, match_text)
        events = [fact.to_domain() for fact in store.facts(stream)]
    finally:
        store.close()
    if not isinstance(events[0], MatchCreated):
        raise UsageProblem(_("--match {text}: {stream} is a tournament, not a match: the "
                             "notation writes one match").format(text=match_text,
                                                                 stream=stream))
    text = write(written_from_events(events))
    if output is None or str(output) == "-":
        click.echo(text, nl=False)
        return
    try:
        write_whole(output, text.encode("utf-8"))
    except OSError as error:
        raise CommandFailed(_("cannot write {file}: {reason}").format(
            file=output, reason=error.strerror or error)) from None
    click.echo(_("match {stream} written to {where} in the notation").format(
        stream=stream, where=output))
