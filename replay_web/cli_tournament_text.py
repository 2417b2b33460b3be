"""What `verbale tournament` prints and reads: the places given on the command line, a turn's
tables, the standings (a table or JSON), and the import of sheet files with its report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast
from uuid import UUID

import click
from rich.console import Console
from rich.text import Text

from domain.record.envelope import RecordedBy
from domain.tarocchi.entrants import Entrant, check_entrants
from domain.tarocchi.seats import POSITIONS, ROMAN
from domain.tarocchi.state import TarocchiState
from domain.text import say
from importers.notation.errors import NotationError
from importers.sheets.tarocchi_import import IMPORTER, import_sheets, report
from importers.sheets.tarocchi_write import header_text, write_csv, write_tags
from projections.read_models.queries_tarocchi import Standing, TarocchiTournament
from projections.store.app import MatchStore
from projections.store.tarocchi import imported_id, is_tarocchi, load_tarocchi, record_tarocchi
from replay_web.cli import CommandFailed, UsageProblem
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext, translate, translate_error
from replay_web.read_models import catch_up_read_models
from replay_web.tables import Grid, show

Resolve = Callable[[MatchStore, str], UUID]


def parse_entrants(lines: Sequence[str]) -> tuple[Entrant, ...]:
    """One place a line: `Name`, or a team `Name (Member + Member)`; checked as art. 2 asks."""
    places = []
    for line in lines:
        name, bracket, rest = line.partition("(")
        if not bracket:
            places.append(Entrant(line.strip()))
            continue
        members = tuple(m.strip() for m in rest.rstrip().rstrip(")").split("+") if m.strip())
        if not rest.rstrip().endswith(")"):
            raise ValueError(say("{place!r}: a team as Name (Member + Member)", place=line))
        places.append(Entrant(name.strip(), members))
    return check_entrants(places)


def who(state: TarocchiState, number: int) -> str:
    return f"{number} {state.name_of(number)}"


def seating_headers() -> list[str]:
    return [_("table"), _("North"), _("West"), _("South"), _("East"), _("first dealer")]


def echo_seating(state: TarocchiState, turn: int) -> None:
    """Turn `turn`'s tables: who sits North, West, South and East, and the first dealer."""
    seated = state.turns[turn - 1]
    rows = [[table.letter, *(who(state, table.at(p)) for p in POSITIONS),
             who(state, table.dealer(1))] for table in seated.tables]
    show(Grid(seating_headers(), rows, title=_("Turn {turn} ({basis})").format(
        turn=ROMAN[turn - 1], basis=seated.basis)))


def standings_headers() -> list[str]:
    return [_("rank"), _("no."), _("player"), _("points"), _("difference"), _("made"),
            _("conceded"), _("solità"), _("extra"), _("draw")]


def standings_cells(line: Standing) -> list[str]:
    name = f"{line.name} ({' + '.join(line.members)})" if line.members else line.name
    return [str(line.rank), str(line.number), name, str(line.points), f"{line.difference:+d}",
            str(line.plus), str(line.minus), str(line.solita), str(line.extra),
            "" if line.lot is None else str(line.lot)]


def standings_title(about: TarocchiTournament, turn: int) -> str:
    if turn == 4:
        return _("{name}: final standings").format(name=about.name)
    return _("{name}: standings after turn {turn}").format(name=about.name, turn=ROMAN[turn - 1])


def echo_standings(about: TarocchiTournament, turn: int, lines: Sequence[Standing]) -> None:
    show(Grid(standings_headers(), [standings_cells(line) for line in lines],
              (0, 1, 3, 4, 5, 6, 7, 8, 9), title=standings_title(about, turn),
              footer=_("art. 9: points, then the difference, the points made, the solità not "
                       "lost, the extra points, the draw")))


def standings_json(about: TarocchiTournament, turn: int,
                   lines: Sequence[Standing]) -> dict[str, Any]:
    return {"tournament": about.stream, "name": about.name, "turn": turn,
            "final": turn == 4,
            "standings": [{"rank": s.rank, "number": s.number, "name": s.name,
                           "members": list(s.members), "points": s.points,
                           "difference": s.difference, "made": s.plus, "conceded": s.minus,
                           "solita": s.solita, "extra": s.extra, "draw": s.lot}
                          for s in lines]}


def import_files(paths: Sequence[Path], tournament_text: str | None, lenient: bool,
                 dry_run: bool, database: str | None, resolve: Resolve) -> None:
    """`verbale tournament import`: read, report, store all or nothing."""
    files = [(path.name, _read(path)) for path in paths]
    store = open_store(database, read_only=dry_run)
    try:
        if tournament_text is not None:
            stream = resolve(store, tournament_text)
        else:
            stream = imported_id(files)
            if is_tarocchi(store, stream):
                click.echo(_("these sheets are imported already: tournament {id}; nothing "
                             "stored").format(id=stream))
                return
        loaded = load_tarocchi(store, stream, must_exist=tournament_text is not None)
        state = cast(TarocchiState, loaded.state) if tournament_text is not None else None
        try:
            imported = import_sheets(files, lenient=lenient, state=state)
        except NotationError as error:
            _echo_lines([(translate_error(error), "bold red")])
            raise CommandFailed(_("refused: nothing was stored")) from None
        _echo_lines([(translate(line), "yellow") for line in report(imported)])
        if imported.errors:
            raise CommandFailed(_("refused: nothing was stored"))
        if dry_run or not imported.events:
            click.echo(_("dry run: nothing stored") if dry_run else _("nothing to store"))
            return
        record_tarocchi(store, loaded, imported.events, datetime.now(UTC),
                        RecordedBy("importer", IMPORTER, ", ".join(p.name for p in paths)))
        behind = catch_up_read_models(store, database)
    finally:
        store.close()
    click.echo(_("{count} events stored in Tarocchi tournament {id} ({findings} findings)"
                 ).format(count=len(imported.events), id=stream,
                          findings=len(imported.findings)))
    if behind is not None:
        raise behind


def export_sheets(state: TarocchiState, form: str, output: Path | None) -> None:
    """The sheets in the tag style (to `output` or standard output), or as CSV files with the
    header in torneo.txt (to the folder `output`); each file written whole or not at all."""
    if form == "tags":
        text = write_tags(state)
        if output is None:
            click.echo(text, nl=False)
            return
        files = {output.name: text}
        folder = output.parent
    else:
        if output is None:
            raise UsageProblem(_("--format csv writes a folder of files: name it with -o DIR"))
        files = {"torneo.txt": header_text(state), **write_csv(state)}
        folder = output
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            partial = folder / f".{name}.partial"
            partial.write_text(text, encoding="utf-8")
            partial.replace(folder / name)
    except OSError as error:
        raise CommandFailed(_("cannot write {file}: {reason}").format(
            file=folder, reason=error.strerror or error)) from None
    click.echo(ngettext("{count} file written to {folder}: {names}",
                        "{count} files written to {folder}: {names}", len(files)).format(
        count=len(files), folder=folder, names=", ".join(files)))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageProblem(_("cannot read {file}: {reason}").format(
            file=path, reason=getattr(error, "strerror", None) or error)) from None


def _echo_lines(lines: Sequence[tuple[str, str]]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    for line, style in lines:
        console.print(Text(line, style=style))
