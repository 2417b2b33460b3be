"""`decide`: a command checked against the tournament, and the events it causes. Pure.

Refused (TarocchiRefused, naming the rule): what cannot be a fact of the tournament at all (a
second creation, a seed that does not match its commitment, a turn out of order, a line for a
player or table that does not exist or written twice, a penalty the catalogue does not have).
Accepted as written: the contents of a sheet line, however wrong; `checks.findings` judges them.
"""

from __future__ import annotations

from domain.game import RuleViolation
from domain.shuffle import Seed, SeedError, check_commitment
from domain.tarocchi import schedule
from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    ImposePenalty,
    RevealSorteggio,
    SeatTurn,
    TarocchiCommand,
    WritePlayerLine,
    WriteTableLine,
)
from domain.tarocchi.draw import seating_draw
from domain.tarocchi.entrants import EntrantError, check_entrants
from domain.tarocchi.events import (
    FINALS,
    RECOMPOSITIONS,
    PenaltyImposed,
    SeatingDrawn,
    SorteggioRevealed,
    TarocchiEvent,
    TarocchiTournamentCreated,
    TurnSeated,
)
from domain.tarocchi.penalties import PenaltyError, fate_of, penalty_points
from domain.tarocchi.seats import SMAZZATE_PER_TURN, TURNS, TableSeating
from domain.tarocchi.sheet import Role, SheetError, check_games
from domain.tarocchi.standings import strict_order
from domain.tarocchi.state import TarocchiState
from domain.text import say

_HEX = frozenset("0123456789abcdef")


class TarocchiRefused(RuleViolation):
    """A command the tournament refuses."""


def decide(state: TarocchiState, command: TarocchiCommand) -> tuple[TarocchiEvent, ...]:
    if isinstance(command, CreateTarocchiTournament):
        return (_create(state, command),)
    if state.created is None:
        raise TarocchiRefused("tournament", say("the tournament has not been created yet"))
    if isinstance(command, DrawSeating):
        return _draw(state, command.seed)
    if isinstance(command, RevealSorteggio):
        return (_reveal(state, command.seed),)
    if state.draw is None:
        raise TarocchiRefused("003 art. 2", say("the seating has not been drawn yet"))
    if isinstance(command, SeatTurn):
        return (_seat(state, command.turn),)
    if isinstance(command, WritePlayerLine):
        return (_player_line(state, command),)
    if isinstance(command, WriteTableLine):
        return (_table_line(state, command),)
    return (_penalty(state, command),)


def _create(state: TarocchiState, creation: CreateTarocchiTournament) -> TarocchiTournamentCreated:
    command = creation.tournament
    if state.created is not None:
        raise TarocchiRefused("tournament", say("tournament {name!r} exists already",
                                                name=state.created.name))
    if not command.name.strip():
        raise TarocchiRefused("tournament", say("a tournament needs a name"))
    try:
        check_entrants(command.entrants)
    except EntrantError as bad:
        raise TarocchiRefused("003 art. 2", bad.args[0]) from None
    if command.recomposition not in RECOMPOSITIONS:
        raise TarocchiRefused("003 art. 3", say("recomposition {mode!r}: expected one of {known}",
                                                mode=command.recomposition,
                                                known=", ".join(RECOMPOSITIONS)))
    if command.final not in FINALS:
        raise TarocchiRefused("003 art. 3", say("final turn {mode!r}: expected one of {known}",
                                                mode=command.final, known=", ".join(FINALS)))
    for commitment in (command.seating_commitment, command.sorteggio_commitment):
        if len(commitment) != 64 or not _HEX.issuperset(commitment):
            raise TarocchiRefused("commitment", say(
                "commitment {commitment!r}: expected 64 lowercase hex digits (SHA-256)",
                commitment=commitment))
    return command


def _draw(state: TarocchiState, seed: Seed) -> tuple[TarocchiEvent, ...]:
    assert state.created is not None
    if state.draw is not None:
        raise TarocchiRefused("003 art. 2", say("the seating was drawn already"))
    _check_seed(seed, state.created.seating_commitment, "003 art. 2")
    draw = seating_draw(seed, state.places)
    return (SeatingDrawn(seed.hex, draw.trumps, draw.numbers),
            TurnSeated(1, "sorteggio", schedule.first_turn(state.places)))


def _reveal(state: TarocchiState, seed: Seed) -> SorteggioRevealed:
    assert state.created is not None
    if state.sorteggio is not None:
        raise TarocchiRefused("003 art. 9", say("the tie-break seed was revealed already"))
    _check_seed(seed, state.created.sorteggio_commitment, "003 art. 9")
    return SorteggioRevealed(seed.hex)


def _check_seed(seed: Seed, commitment: str, rule: str) -> None:
    try:
        check_commitment(seed, commitment)
    except SeedError as bad:
        raise TarocchiRefused(rule, bad.args[0]) from None


def _seat(state: TarocchiState, turn: int) -> TurnSeated:
    assert state.created is not None
    if turn != len(state.turns) + 1 or turn > TURNS:
        raise TarocchiRefused("003 art. 3", say(
            "turn {turn}: the next turn to seat is {next} (of {turns})", turn=turn,
            next=len(state.turns) + 1, turns=TURNS))
    _need_complete(state, turn - 1)
    mode = state.created.final if turn == TURNS else state.created.recomposition
    if mode == "precostituito":
        if state.created.recomposition == "precostituito":
            return TurnSeated(turn, mode, schedule.precostituito(state.places)[turn - 1])
        numbers = range(1, state.places + 1)
        return TurnSeated(turn, mode, schedule.least_repeating(
            numbers, schedule.met([t.tables for t in state.turns])))
    order = strict_order(state, turn - 1)
    if order is None:
        raise TarocchiRefused("003 art. 9", say(
            "the standings after turn {turn} hold a tie only the draw breaks: reveal the "
            "tie-break seed first", turn=turn - 1))
    tables = schedule.by_bands(order) if mode == "fasce" else schedule.by_standing(order)
    return TurnSeated(turn, mode, tables, order)


def _need_complete(state: TarocchiState, turn: int) -> None:
    for table in state.turns[turn - 1].tables:
        for smazzata in range(1, SMAZZATE_PER_TURN + 1):
            missing = [p for p in table.players
                       if (p, turn, smazzata) not in state.player_lines]
            if missing:
                raise TarocchiRefused("003 art. 5", say(
                    "turn {turn} is not complete: table {table}, smazzata {smazzata} has no "
                    "line from player {player}", turn=turn, table=table.letter,
                    smazzata=smazzata, player=missing[0]))


def _player_line(state: TarocchiState, command: WritePlayerLine) -> TarocchiEvent:
    line = command.written
    _seated(state, line.turn, line.player, line.smazzata)
    if (line.player, line.turn, line.smazzata) in state.player_lines:
        raise TarocchiRefused("003 art. 4", say(
            "player {player}, turn {turn}, smazzata {smazzata}: the line is written already",
            player=line.player, turn=line.turn, smazzata=line.smazzata))
    try:
        check_games(line.plus)
        check_games(line.minus)
    except SheetError as bad:
        raise TarocchiRefused("003 allegato", bad.args[0]) from None
    if line.role is not None and line.role not in {r.value for r in Role}:
        raise TarocchiRefused("003 art. 4", say("role {role!r}: expected one of {known}",
                                                role=line.role,
                                                known=", ".join(r.value for r in Role)))
    if line.validator is not None and not 1 <= line.validator <= state.places:
        raise TarocchiRefused("003 art. 4", say("validator {validator}: no such player",
                                                validator=line.validator))
    entrant = state.entrant(line.player)
    if line.member is not None and line.member not in (entrant.members or (entrant.name,)):
        raise TarocchiRefused("003 art. 2", say("{member} is not a member of {entrant}",
                                                member=line.member, entrant=entrant.name))
    return line


def _table_line(state: TarocchiState, command: WriteTableLine) -> TarocchiEvent:
    line = command.written
    if not 1 <= line.smazzata <= SMAZZATE_PER_TURN:
        raise TarocchiRefused("003 art. 3", say("smazzata {smazzata}: a turn has smazzate 1 to "
                                                "{count}", smazzata=line.smazzata,
                                                count=SMAZZATE_PER_TURN))
    table = state.table_named(line.turn, line.table)
    if table is None:
        raise TarocchiRefused("003 art. 4", say("turn {turn} has no table {table}",
                                                turn=line.turn, table=line.table))
    if (line.turn, line.table, line.smazzata) in state.table_lines:
        raise TarocchiRefused("003 art. 4", say(
            "table {table}, turn {turn}, smazzata {smazzata}: the line is written already",
            table=line.table, turn=line.turn, smazzata=line.smazzata))
    for number in (line.dealer, line.caller, line.partner, line.solista, line.compiler,
                   line.validator, *(p for p, _ in line.totals)):
        if number is not None and not 1 <= number <= state.places:
            raise TarocchiRefused("003 art. 4", say("player {player}: no such player",
                                                    player=number))
    return line


def _penalty(state: TarocchiState, command: ImposePenalty) -> TarocchiEvent:
    _seated(state, command.turn, command.player, command.smazzata)
    if not command.arbiter.strip() or not command.reason.strip():
        raise TarocchiRefused("003 art. 8", say("a ruling names its arbiter and its reason"))
    try:
        fate = fate_of(command.code, command.fate)
        roles = state.roles(command.turn, command.player, command.smazzata)
        solista = roles is not None and roles.role_of(command.player) is Role.SOLISTA
        points = penalty_points(command.code, extra=command.extra,
                                important_card=command.important_card, solista=solista)
    except PenaltyError as bad:
        raise TarocchiRefused("003 art. 8", bad.args[0]) from None
    return PenaltyImposed(command.player, command.turn, command.smazzata, command.code, points,
                          fate.value, command.arbiter, command.reason, command.signature)


def _seated(state: TarocchiState, turn: int, player: int, smazzata: int) -> TableSeating:
    if not 1 <= smazzata <= SMAZZATE_PER_TURN:
        raise TarocchiRefused("003 art. 3", say("smazzata {smazzata}: a turn has smazzate 1 to "
                                                "{count}", smazzata=smazzata,
                                                count=SMAZZATE_PER_TURN))
    if not 1 <= turn <= len(state.turns):
        raise TarocchiRefused("003 art. 3", say("turn {turn} is not seated (seated: {seated})",
                                                turn=turn, seated=len(state.turns)))
    table = state.table_of(turn, player)
    if table is None:
        raise TarocchiRefused("003 art. 4", say("player {player}: no such player in turn "
                                                "{turn}", player=player, turn=turn))
    return table
