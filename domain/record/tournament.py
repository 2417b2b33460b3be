"""The Tournament aggregate: which match is played at which table of which round.

A match names its tournament, round and table in its own MatchCreated; the tournament's stream
is the schedule, so a table of a round holds one match and a match one place. A tournament may
declare its own VP table (a file it names, recorded whole in TournamentCreated); `table_of` says
which table its matches are scored with (defined in domain/vp_table.py). A tournament may commit
to its seeds before play (TournamentSeedsCommitted: one root over its sessions, the rounds) and
reveal one session at a time (SessionSeedRevealed); domain/record/tournament_seeds.py holds the
derivation, docs/shuffle.md "Tournament seed commitment" the specification.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType

from domain.game import RuleViolation
from domain.record.events import (
    DeclaredVpTable,
    MatchScheduled,
    SessionSeedRevealed,
    TournamentCreated,
    TournamentSeedsCommitted,
)
from domain.record.tournament_seeds import HEX64, MAX_SESSIONS, MIXING, reveal_problem
from domain.text import say
from domain.vp_table import VpTableError, declared_table, table_of

TournamentEvent = (TournamentCreated | MatchScheduled | TournamentSeedsCommitted
                   | SessionSeedRevealed)


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
    seeds: TournamentSeedsCommitted | None = None
    revealed: MappingProxyType[int, SessionSeedRevealed] = field(
        default_factory=lambda: MappingProxyType({}))

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
    if state.seeds is not None and command.round > state.seeds.sessions:
        raise TournamentRefused("tournament", say(
            "round {round}: the tournament committed the seeds of {sessions} rounds only",
            round=command.round, sessions=state.seeds.sessions))
    if command.round in state.revealed:
        raise TournamentRefused("tournament", say(
            "round {round}: its session is revealed, so its seeds are public: no match is "
            "scheduled in it any more", round=command.round))
    if command.match in state.places.values():
        raise TournamentRefused("tournament", say("match {match} is already scheduled",
                                                  match=command.match))
    return (MatchScheduled(round=command.round, table=command.table, match=command.match),)


def decide_seed_commitment(state: TournamentState, root: str, sessions: int,
                           reference: str) -> tuple[TournamentEvent, ...]:
    """Commit to the seeds of `sessions` rounds before any match is scheduled: `root` over the
    sessions' commitments, `reference` naming the public value to come."""
    if state.created is None:
        raise TournamentRefused("tournament-seeds", say("commit the seeds: the tournament does "
                                                        "not exist"))
    if state.seeds is not None:
        raise TournamentRefused("tournament-seeds", say(
            "the tournament committed its seeds already (root {root})", root=state.seeds.root))
    if state.places:
        raise TournamentRefused("tournament-seeds", say(
            "the seeds are committed before play, and {count} matches are scheduled already",
            count=len(state.places)))
    if not 1 <= sessions <= MAX_SESSIONS:
        raise TournamentRefused("tournament-seeds", say("{sessions} sessions: a tournament "
                                                        "commits 1 to 2^32-1", sessions=sessions))
    if not HEX64.fullmatch(root):
        raise TournamentRefused("tournament-seeds", say("root {root!r} is not 64 lowercase hex "
                                                        "digits (SHA-256)", root=root))
    if not reference.strip():
        raise TournamentRefused("tournament-seeds", say("the commitment must name the public "
                                                        "value it will mix in"))
    return (TournamentSeedsCommitted(root=root, sessions=sessions, reference=reference,
                                     mixing=MIXING),)


def decide_session_reveal(state: TournamentState,
                          reveal: SessionSeedRevealed) -> tuple[TournamentEvent, ...]:
    """Reveal one session: it must check against the committed root, once, with the public
    value every earlier reveal named."""
    if state.seeds is None:
        raise TournamentRefused("tournament-seeds", say("reveal a session: the tournament "
                                                        "committed no seeds"))
    if reveal.session in state.revealed:
        raise TournamentRefused("tournament-seeds", say("session {session} is revealed already",
                                                        session=reveal.session))
    earlier = next(iter(state.revealed.values()), None)
    if earlier is not None and earlier.public_value != reveal.public_value:
        raise TournamentRefused("tournament-seeds", say(
            "session {session}: public value {value!r}, but session {other} was revealed with "
            "{earlier!r}", session=reveal.session, value=reveal.public_value,
            other=earlier.session, earlier=earlier.public_value))
    problem = reveal_problem(state.seeds, reveal)
    if problem is not None:
        raise TournamentRefused("tournament-seeds", problem)
    return (reveal,)


def evolve_tournament(state: TournamentState, event: TournamentEvent) -> TournamentState:
    version = state.version + 1
    if isinstance(event, TournamentCreated):
        return replace(state, created=event, version=version)
    if isinstance(event, TournamentSeedsCommitted):
        return replace(state, seeds=event, version=version)
    if isinstance(event, SessionSeedRevealed):
        revealed = {**state.revealed, event.session: event}
        return replace(state, revealed=MappingProxyType(revealed), version=version)
    places = dict(state.places)
    places[(event.round, event.table)] = event.match
    return replace(state, places=MappingProxyType(places), version=version)


__all__ = ["ScheduleMatch", "TournamentEvent", "TournamentRefused", "TournamentState",
           "decide_creation", "decide_schedule", "decide_seed_commitment",
           "decide_session_reveal", "evolve_tournament", "table_of"]
