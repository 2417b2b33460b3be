"""The checks of every sheet entry: pure functions from the tournament's state to findings, each
naming the sheet, its line and the rule of 003 it applies.

A player's sheet is "unica per tutto il Torneo" (art. 4): its line is (turn - 1) x 4 +
smazzata, 1 to 16. A table sheet is "rinnovata ad ogni Turno": its line is the smazzata, 1 to 4.
Each check compares what is written with what the rest of the paper says; one wrong figure may
show in more than one check (a wrong MOLT also breaks the table's zero sum), never in none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.tarocchi.events import PlayerLineWritten, TableLineWritten
from domain.tarocchi.penalties import Fate, kind_of
from domain.tarocchi.seats import DEALERS, ROMAN, SMAZZATE_PER_TURN, TableSeating
from domain.tarocchi.sheet import Role, Roles, diff, line_number, total
from domain.tarocchi.state import TarocchiState, roles_of
from domain.text import Said, say

ART_2 = "003 art. 2"
ART_3 = "003 art. 3"
ART_4 = "003 art. 4"
ART_8 = "003 art. 8"
DIFF_RULE = "003 allegato DIFF"
MOLT_RULE = "003 allegato MOLT"
PARZ_RULE = "003 allegato PARZ"
TOT_RULE = "003 allegato TOT"
TABLE_RULE = "003 allegato Scheda di Tavolo"

_Note = Callable[[str, Said], None]
"""Records a finding on the line being checked."""


@dataclass(frozen=True, slots=True)
class Finding:
    """What does not add up: on `sheet` (player_sheet / table_sheet), at `line`, against
    `rule`; `source` is where the line was read from, when imported ("file:line")."""

    sheet: str
    line: int
    rule: str
    message: Said
    source: str | None = None


def player_sheet(number: int) -> str:
    return f"giocatore {number}"


def table_sheet(turn: int, letter: str) -> str:
    return f"tavolo {letter} turno {ROMAN[turn - 1]}"


def findings(state: TarocchiState) -> tuple[Finding, ...]:
    """Every finding of the tournament's sheets, table by table, smazzata by smazzata."""
    found: list[Finding] = []
    for turn, seated in enumerate(state.turns, start=1):
        for table in seated.tables:
            found.extend(table_findings(state, turn, table))
    return tuple(found)


def table_findings(state: TarocchiState, turn: int, table: TableSeating) -> list[Finding]:
    found: list[Finding] = []
    for smazzata in range(1, SMAZZATE_PER_TURN + 1):
        written = state.table_lines.get((turn, table.letter, smazzata))
        roles = _roles(state, turn, table, smazzata, written, found)
        for player in table.players:
            line = state.player_lines.get((player, turn, smazzata))
            if line is None:
                found.append(Finding(player_sheet(player), line_number(turn, smazzata), ART_4,
                                     say("no line for smazzata {smazzata} of turn {turn}",
                                         smazzata=smazzata, turn=ROMAN[turn - 1])))
                continue
            found.extend(line_findings(state, line, table, roles))
        found.extend(_zero_sum(state, turn, table, smazzata, roles, written))
        if written is not None:
            found.extend(_table_line(state, written, table, roles))
    found.extend(_dealers(state, turn, table))
    return found


def _roles(state: TarocchiState, turn: int, table: TableSeating, smazzata: int,
           written: TableLineWritten | None, found: list[Finding]) -> Roles | None:
    if written is None:
        return None
    roles = roles_of(written)
    problem = roles.problem(table.players)
    if problem is None:
        return roles
    found.append(Finding(table_sheet(turn, table.letter), smazzata, ART_4, say(
        "the roles cannot be: {problem}", problem=problem), written.source))
    return None


def line_findings(state: TarocchiState, line: PlayerLineWritten, table: TableSeating,
                  roles: Roles | None) -> list[Finding]:
    """The checks of one line of a player's sheet."""
    sheet, number = player_sheet(line.player), line_number(line.turn, line.smazzata)
    found: list[Finding] = []

    def note(rule: str, message: Said) -> None:
        found.append(Finding(sheet, number, rule, message, line.source))

    computed = diff(line.plus, line.minus)
    if line.diff != computed:
        note(DIFF_RULE, say("DIFF is written {written}; the + column ({plus}) less the - column "
                            "({minus}) is {computed}", written=line.diff,
                            plus=total(line.plus), minus=total(line.minus), computed=computed))
    product = line.diff * line.molt - line.penalty
    if line.parz != product:
        note(PARZ_RULE, say("PARZ is written {written}; DIFF {diff} x MOLT {molt} less "
                            "penalties {penalty} is {computed}", written=line.parz,
                            diff=line.diff, molt=line.molt, penalty=line.penalty,
                            computed=product))
    _tot(state, line, note)
    if roles is not None:
        _against_roles(line, table, roles, note)
    elif line.validator is None or line.validator not in table.players \
            or line.validator == line.player:
        _validator(line, table, None, note)
    _penalties(state, line, table, roles, note)
    return found


def _penalties(state: TarocchiState, line: PlayerLineWritten, table: TableSeating,
               roles: Roles | None, note: _Note) -> None:
    """Art. 8: the penalty "deve comunque essere segnalata nella Scheda Punteggio del
    giocatore interessato"; 8.f: an annulled smazzata scores nothing."""
    ruled = state.ruled(line.player, line.turn, line.smazzata)
    points = sum(p.points for p in ruled)
    if line.penalty != points:
        note(ART_8, say("penalties written {written}; the arbiter ruled {ruled}",
                        written=line.penalty, ruled=points))
    if roles is not None and roles.role_of(line.player) is Role.SOLISTA:
        for penalty in ruled:
            if kind_of(penalty.code).needs_important_card and penalty.points:
                note(ART_8, say("penalty {code} costs the Solista nothing (8.c: \"Nel caso il "
                                "giocatore non sia Solista\"), not {points}",
                                code=penalty.code, points=penalty.points))
    annulled = any(p.fate == Fate.ANNULLATA.value for p in state.penalties
                   if (p.turn, p.smazzata) == (line.turn, line.smazzata)
                   and p.player in table.players)
    if annulled and (line.plus or line.minus):
        note(ART_8, say("the smazzata was annulled (8.f): it scores no games for anybody"))


def _tot(state: TarocchiState, line: PlayerLineWritten, note: _Note) -> None:
    if line.smazzata > 1:
        before = state.player_lines.get((line.player, line.turn, line.smazzata - 1))
    elif line.turn > 1:
        before = state.player_lines.get((line.player, line.turn - 1, SMAZZATE_PER_TURN))
    else:
        before = None
    if before is None and line_number(line.turn, line.smazzata) > 1:
        return   # the missing line is a finding of its own
    previous = before.tot if before is not None else 0
    if line.tot != previous + line.parz:
        note(TOT_RULE, say("TOT is written {written}; the TOT before ({previous}) plus PARZ "
                           "({parz}) is {computed}", written=line.tot, previous=previous,
                           parz=line.parz, computed=previous + line.parz))


def _against_roles(line: PlayerLineWritten, table: TableSeating, roles: Roles,
                   note: _Note) -> None:
    role = roles.role_of(line.player)
    expected = roles.molt_of(line.player)
    if line.molt != expected:
        note(MOLT_RULE, say("MOLT is written x{written}; the table sheet makes him {role} in "
                            "this smazzata, with x{expected}", written=line.molt,
                            role=role.value, expected=expected))
    if line.role is not None and line.role != role.value:
        note(ART_4, say("the role is written {written}; the table sheet makes him {role}",
                        written=line.role, role=role.value))
    _validator(line, table, roles, note)


def _validator(line: PlayerLineWritten, table: TableSeating, roles: Roles | None,
               note: _Note) -> None:
    """Art. 4: "deve essere visionata e validata da un altro che in quella mano è stato suo
    avversario"."""
    who = line.validator
    if who is None:
        note(ART_4, say("the line is not validated by an opponent"))
    elif who == line.player:
        note(ART_4, say("the line is validated by the player himself"))
    elif who not in table.players:
        note(ART_4, say("validator {validator} did not sit at table {table}", validator=who,
                        table=table.letter))
    elif roles is not None and who not in roles.opponents(line.player, table.players):
        note(ART_4, say("validator {validator} was not an opponent in this smazzata but a "
                        "{role} on the same side", validator=who,
                        role=roles.role_of(who).value))


def _zero_sum(state: TarocchiState, turn: int, table: TableSeating, smazzata: int,
              roles: Roles | None, written: TableLineWritten | None) -> list[Finding]:
    lines = [state.player_lines.get((p, turn, smazzata)) for p in table.players]
    if roles is None or any(line is None for line in lines):
        return []
    before = {line.player: line.parz + line.penalty for line in lines if line is not None}
    if sum(before.values()) == 0:
        return []
    listed = ", ".join(f"{p}: {v:+d}" for p, v in before.items())
    return [Finding(table_sheet(turn, table.letter), smazzata, PARZ_RULE, say(
        "the four PARZ before penalties sum to {sum}, not 0 ({listed})",
        sum=sum(before.values()), listed=listed), written.source if written else None)]


def _table_line(state: TarocchiState, written: TableLineWritten, table: TableSeating,
                roles: Roles | None) -> list[Finding]:
    found: list[Finding] = []
    turn, smazzata = written.turn, written.smazzata

    def note(rule: str, message: Said) -> None:
        found.append(Finding(table_sheet(turn, table.letter), smazzata, rule, message,
                             written.source))

    dealer = table.dealer(smazzata)
    if written.dealer is not None and written.dealer != dealer:
        note(ART_3, say("the dealer is written {written}; in the rotation of art. 3 smazzata "
                        "{smazzata} is dealt by {dealer} ({position})", written=written.dealer,
                        smazzata=smazzata, dealer=dealer,
                        position=DEALERS[smazzata - 1].name.lower()))
    totals = dict(written.totals)
    if sorted(totals) != sorted(table.players):
        note(TABLE_RULE, say("the totals name players {named}; the table seats {seated}",
                             named=", ".join(map(str, sorted(totals))),
                             seated=", ".join(map(str, sorted(table.players)))))
    for player, tot in written.totals:
        line = state.player_lines.get((player, turn, smazzata))
        if line is not None and line.tot != tot:
            note(TABLE_RULE, say("TOT of player {player} is {written} here and {own} on his "
                                 "own sheet", player=player, written=tot, own=line.tot))
    _table_validation(written, table, roles, note)
    return found


def _table_validation(written: TableLineWritten, table: TableSeating, roles: Roles | None,
                      note: _Note) -> None:
    """Art. 4: "un avversario deve sempre coadiuvare nella compilazione e validare"."""
    who, compiler = written.validator, written.compiler
    if who is None:
        note(ART_4, say("the table sheet's line is not validated"))
    elif who not in table.players or who == compiler:
        note(ART_4, say("the table sheet's line is validated by {validator}, not an opponent "
                        "of its compiler {compiler} at this table", validator=who,
                        compiler=compiler))
    elif roles is not None and compiler is not None and compiler in table.players \
            and who not in roles.opponents(compiler, table.players):
        note(ART_4, say("the table sheet's line is validated by {validator}, on the same side "
                        "as its compiler {compiler} in this smazzata", validator=who,
                        compiler=compiler))


def _dealers(state: TarocchiState, turn: int, table: TableSeating) -> list[Finding]:
    """Art. 3: "Ogni Turno sarà costituito da 4 smazzate in modo che ogni giocatore sia mazziere
    una volta in ogni Turno"."""
    found = []
    for smazzata in range(1, SMAZZATE_PER_TURN + 1):
        if (turn, table.letter, smazzata) not in state.table_lines:
            dealer = table.dealer(smazzata)
            found.append(Finding(table_sheet(turn, table.letter), smazzata, ART_3, say(
                "no line for smazzata {smazzata}: player {dealer} ({position}) has no deal in "
                "this turn", smazzata=smazzata, dealer=dealer,
                position=DEALERS[smazzata - 1].name.lower())))
    return found
