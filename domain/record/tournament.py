"""The Tournament aggregate: which match is played at which table of which round.

A match names its tournament, round and table in its own MatchCreated; the tournament's stream
is the schedule, so a table of a round holds one match and a match one place. A tournament may
declare its own VP table (a file it names, recorded whole in TournamentCreated); `table_of` says
which table its matches are scored with (defined in domain/vp_table.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from domain.game import RuleViolation
from domain.record.events import DeclaredVpTable, MatchScheduled, TournamentCreated
from domain.text import say
from domain.vp_table import VpTableError, declared_table, table_of

TournamentEvent = TournamentCreated | MatchScheduled


class TournamentRefused(RuleViolation):
    """A tournament command the schedule refuses."""


@dataclass(frozen=True, slots=True)
class ScheduleMatch:
    round: int
    table: int
    match: str


@dataclass(frozen=True, slots=True)
class TournamentState:
    created: TournamentCreated | None = None
    places: MappingProxyType[tuple[int, int], str] = field(
        default_factory=lambda: MappingProxyType({}))
    version: int = 0

    def matches_of_round(self, round_number: int) -> dict[int, str]:
        return {table: match for (r, table), match in self.places.items() if r == round_number}


def decide_creation(state: TournamentState, name: str, game: str,
                    vp_table: DeclaredVpTable | None = None) -> tuple[TournamentEvent, ...]:
    """Create the tournament; a declared VP table must parse and have a table for `game`."""
    if state.created is not None:
        raise TournamentRefused("tournament", say("tournament {name!r} exists already",
                                                  name=state.created.name))
    if not name.strip():
        raise TournamentRefused("tournament", say("a tournament needs a name"))
    if vp_table is not None:
        try:
            declared_table(vp_table).game(game)
        except VpTableError as bad:
            # The parser's message, as said (it names the file, the cell and what is wrong).
            raise TournamentRefused("vp_table", bad.args[0]) from None
    return (TournamentCreated(name=name, game=game, vp_table=vp_table),)


def decide_schedule(state: TournamentState,
                    command: ScheduleMatch) -> tuple[TournamentEvent, ...]:
    if state.created is None:
        raise TournamentRefused("tournament", say("schedule a match: the tournament does not "
                                                  "exist"))
    if command.round < 1 or command.table < 1:
        raise TournamentRefused("tournament", say("round {round} and table {table} count from 1",
                                                  round=command.round, table=command.table))
    taken = state.places.get((command.round, command.table))
    if taken is not None:
        raise TournamentRefused("tournament", say("round {round}, table {table} already holds "
                                                  "match {match}", round=command.round,
                                                  table=command.table, match=taken))
    if command.match in state.places.values():
        raise TournamentRefused("tournament", say("match {match} is already scheduled",
                                                  match=command.match))
    return (MatchScheduled(round=command.round, table=command.table, match=command.match),)


def evolve_tournament(state: TournamentState, event: TournamentEvent) -> TournamentState:
    if isinstance(event, TournamentCreated):
        return TournamentState(created=event, places=state.places, version=state.version + 1)
    places = dict(state.places)
    places[(event.round, event.table)] = event.match
    return TournamentState(created=state.created, places=MappingProxyType(places),
                           version=state.version + 1)


__all__ = ["ScheduleMatch", "TournamentEvent", "TournamentRefused", "TournamentState",
           "decide_creation", "decide_schedule", "evolve_tournament", "table_of"]
