"""The state of a 003 tournament, folded from its events (`evolve`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType

from domain.tarocchi.entrants import Entrant
from domain.tarocchi.events import (
    PenaltyImposed,
    PlayerLineWritten,
    SeatingDrawn,
    TableLineWritten,
    TarocchiEvent,
    TarocchiTournamentCreated,
    TurnSeated,
)
from domain.tarocchi.seats import TableSeating
from domain.tarocchi.sheet import Roles

PlayerKey = tuple[int, int, int]
"""(player, turn, smazzata)"""
TableKey = tuple[int, str, int]
"""(turn, table letter, smazzata)"""


def _empty() -> MappingProxyType[object, object]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class TarocchiState:
    created: TarocchiTournamentCreated | None = None
    draw: SeatingDrawn | None = None
    turns: tuple[TurnSeated, ...] = ()
    player_lines: MappingProxyType[PlayerKey, PlayerLineWritten] = field(
        default_factory=_empty)  # type: ignore[arg-type]
    table_lines: MappingProxyType[TableKey, TableLineWritten] = field(
        default_factory=_empty)  # type: ignore[arg-type]
    penalties: tuple[PenaltyImposed, ...] = ()
    sorteggio: str | None = None
    version: int = 0

    @property
    def places(self) -> int:
        return len(self.created.entrants) if self.created else 0

    def entrant(self, number: int) -> Entrant:
        """The entrant who holds player number `number` (after the draw)."""
        assert self.created is not None and self.draw is not None
        return self.created.entrants[self.draw.numbers.index(number)]

    def name_of(self, number: int) -> str:
        return self.entrant(number).name

    def table_of(self, turn: int, player: int) -> TableSeating | None:
        if not 1 <= turn <= len(self.turns):
            return None
        return next((t for t in self.turns[turn - 1].tables if player in t.players), None)

    def table_named(self, turn: int, letter: str) -> TableSeating | None:
        if not 1 <= turn <= len(self.turns):
            return None
        return next((t for t in self.turns[turn - 1].tables if t.letter == letter), None)

    def roles(self, turn: int, player: int, smazzata: int) -> Roles | None:
        """The roles the table sheet gives for that smazzata, if written and possible."""
        table = self.table_of(turn, player)
        line = table and self.table_lines.get((turn, table.letter, smazzata))
        if not table or not line:
            return None
        roles = roles_of(line)
        return None if roles.problem(table.players) else roles

    def ruled(self, player: int, turn: int, smazzata: int) -> tuple[PenaltyImposed, ...]:
        return tuple(p for p in self.penalties
                     if (p.player, p.turn, p.smazzata) == (player, turn, smazzata))


def roles_of(line: TableLineWritten) -> Roles:
    return Roles(line.caller, line.partner, line.solista, line.solista_cards)


def evolve(state: TarocchiState, event: TarocchiEvent) -> TarocchiState:
    """The state after `event`. Pure: the events were checked by `decide`."""
    state = replace(state, version=state.version + 1)
    if isinstance(event, TarocchiTournamentCreated):
        return replace(state, created=event)
    if isinstance(event, SeatingDrawn):
        return replace(state, draw=event)
    if isinstance(event, TurnSeated):
        return replace(state, turns=(*state.turns, event))
    if isinstance(event, PlayerLineWritten):
        lines = dict(state.player_lines)
        lines[(event.player, event.turn, event.smazzata)] = event
        return replace(state, player_lines=MappingProxyType(lines))
    if isinstance(event, TableLineWritten):
        tables = dict(state.table_lines)
        tables[(event.turn, event.table, event.smazzata)] = event
        return replace(state, table_lines=MappingProxyType(tables))
    if isinstance(event, PenaltyImposed):
        return replace(state, penalties=(*state.penalties, event))
    return replace(state, sorteggio=event.seed)


def fold(events: tuple[TarocchiEvent, ...] | list[TarocchiEvent],
         state: TarocchiState | None = None) -> TarocchiState:
    state = state or TarocchiState()
    for event in events:
        state = evolve(state, event)
    return state
