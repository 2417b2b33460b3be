"""Import a Tarocchi tournament's sheets: the header creates and draws the tournament, then turn
by turn the table lines, the player lines and the penalties become the domain's commands, each
turn seated as the tournament's recomposition says. All or nothing: the caller stores
`events` only when `errors` is empty. The checks then judge what was written: `report` lists,
per line, every error and finding with file, line, sheet and rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.game import RuleViolation
from domain.shuffle import Seed, SeedError
from domain.tarocchi.checks import Finding, findings
from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    RevealSorteggio,
    SeatTurn,
    TarocchiCommand,
    WritePlayerLine,
    WriteTableLine,
)
from domain.tarocchi.decide import decide
from domain.tarocchi.events import TarocchiEvent, TarocchiTournamentCreated
from domain.tarocchi.seats import TURNS
from domain.tarocchi.state import TarocchiState, evolve
from domain.text import Said, say
from importers.notation.errors import NotationError
from importers.sheets.tarocchi_csv import read_csv
from importers.sheets.tarocchi_fields import Row
from importers.sheets.tarocchi_read import Header, Sheets
from importers.sheets.tarocchi_tags import read_tags

IMPORTER = "verbale-tarocchi-sheets/1"


@dataclass(frozen=True, slots=True)
class Imported:
    state: TarocchiState
    events: tuple[TarocchiEvent, ...]
    findings: tuple[Finding, ...]
    errors: tuple[NotationError, ...]


class _Applier:
    def __init__(self, state: TarocchiState, lenient: bool) -> None:
        self.state, self.lenient = state, lenient
        self.events: list[TarocchiEvent] = []
        self.errors: list[NotationError] = []

    def apply(self, command: TarocchiCommand, row: Row) -> bool:
        try:
            events = decide(self.state, command)
        except RuleViolation as refused:
            self.fail(NotationError(row.source, row.line, 1, "", "", message=say(
                "{message} [{rule}]", message=refused.message, rule=refused.rule)))
            return False
        for event in events:
            self.state = evolve(self.state, event)
        self.events += events
        return True

    def fail(self, error: NotationError) -> None:
        if not self.lenient:
            raise error
        self.errors.append(error)


def read_files(files: Sequence[tuple[str, str]], *, lenient: bool = False) -> Sheets:
    """Each (source, text): `.csv` files as CSV, any other as the tag style."""
    sheets = Sheets()
    for source, text in files:
        reader = read_csv if source.lower().endswith(".csv") else read_tags
        sheets.merge(reader(text, source, lenient=lenient))
    return sheets


def import_sheets(files: Sequence[tuple[str, str]], *, lenient: bool = False,
                  state: TarocchiState | None = None) -> Imported:
    """The tournament the files write (its header in one of them), or more sheets for `state`.
    Strict: the first error raises NotationError; lenient: errors are collected and the rows
    they concern left out."""
    sheets = read_files(files, lenient=lenient)
    applier = _Applier(state or TarocchiState(), lenient)
    applier.errors += sheets.errors
    if state is None:
        if sheets.header is None:
            raise NotationError(files[0][0] if files else "-", 1, 1, say("no header"),
                                say('the tournament\'s tags [Torneo "..."], [Iscritti "..."], '
                                    '... in one of the files'))
        if not _create(applier, sheets.header):
            return _done(applier)
    for turn in range(1, TURNS + 1):
        if not _turn(applier, sheets, turn):
            break
    return _done(applier)


def _done(applier: _Applier) -> Imported:
    return Imported(applier.state, tuple(applier.events), findings(applier.state),
                    tuple(applier.errors))


def _create(applier: _Applier, header: Header) -> bool:
    row = header.row
    seeds = []
    for tag, text in (("seme", header.seed), ("semesorteggio", header.sorteggio)):
        try:
            seeds.append(Seed.from_hex(text))
        except SeedError as bad:
            applier.fail(row.error(tag, repr(text), bad.args[0]))
            return False
    seating, sorteggio = seeds
    created = TarocchiTournamentCreated(header.name, header.entrants, header.recomposition,
                                        header.final, seating.commitment(),
                                        sorteggio.commitment())
    return (applier.apply(CreateTarocchiTournament(created), row)
            and applier.apply(DrawSeating(seating), row)
            and applier.apply(RevealSorteggio(sorteggio), row))


def _turn(applier: _Applier, sheets: Sheets, turn: int) -> bool:
    tables = [(line, row) for line, row in sheets.tables if line.turn == turn]
    players = [(line, row) for line, row in sheets.players if line.turn == turn]
    penalties = [(p, row) for p, row in sheets.penalties if p.turn == turn]
    rows = [row for _, row in (*tables, *players, *penalties)]
    if not rows:
        return False
    if turn > len(applier.state.turns) and not applier.apply(SeatTurn(turn), rows[0]):
        return False
    for table_line, row in tables:
        applier.apply(WriteTableLine(table_line), row)
    for player_line, row in players:
        _check_place(applier, player_line.player, turn, row)
        applier.apply(WritePlayerLine(player_line), row)
    for penalty, row in penalties:
        applier.apply(penalty, row)
    return True


def _check_place(applier: _Applier, player: int, turn: int, row: Row) -> None:
    """TAV. and the position, when written, are those of the seating (allegato: "le colonne
    TURNO e TAV. saranno sempre compilate dai responsabili del Torneo")."""
    table = applier.state.table_of(turn, player)
    if table is None:
        return
    letter, position = row.text("tavolo").upper(), row.text("pos").upper()
    if letter and letter != table.letter:
        applier.fail(row.error("tavolo", repr(letter), say(
            "table {table}: player {player} sits there in turn {turn}", table=table.letter,
            player=player, turn=turn)))
    if position and position != table.position_of(player).value:
        applier.fail(row.error("pos", repr(position), say(
            "position {position}: player {player}'s place at table {table}",
            position=table.position_of(player).value, player=player, table=table.letter)))


def report(imported: Imported) -> tuple[Said, ...]:
    """One line per error and finding, by file and line: where, which sheet and line, what,
    and the rule."""
    lines = [(e.source, e.line, say("{source}:{line}:{column}: {message}", source=e.source,
                                    line=e.line, column=e.column, message=e.message))
             for e in imported.errors]
    for f in imported.findings:
        source, _, line = (f.source or "").rpartition(":")
        lines.append((source or "~", int(line) if line.isdigit() else 0, say(
            "{where}{sheet}, line {line}: {message} [{rule}]",
            where=f"{f.source}: " if f.source else "", sheet=f.sheet, line=f.line,
            message=f.message, rule=f.rule)))
    return tuple(said for _, _, said in sorted(lines, key=lambda x: (x[0], x[1])))
