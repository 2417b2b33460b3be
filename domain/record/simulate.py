"""A match played by bots through the record, command by command, for demos, tests and benches.

Everything follows from the match seed: the smazzata seeds (domain/match_seed.py), the bots'
thinking times, and when an incident happens. `next_command` is what the table does next in a
given state; a caller decides it (locally or through the store) and asks again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from domain.game import Command
from domain.match_seed import smazzata_seed
from domain.record.commands import (
    CommitSeed,
    CreateMatch,
    DealSmazzata,
    MatchCommand,
    RecordAbandon,
    RecordRuling,
    RecordTimeout,
    RevealMatchSeed,
    RevealSeed,
)
from domain.record.decide import decide, match_decided
from domain.record.games import GameRules
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.shuffle import Seed

Bot = Callable[[Any], Command]
"""A game's bot: the game's own state (MatchState.game) in, a command out."""


@dataclass(frozen=True, slots=True)
class Incidents:
    """What goes wrong, by the number of plays made in the match: a timeout of the seat to move,
    an abandon by absence, an arbiter's ruling after a smazzata ends; or `abandon_between`
    (smazzata, phase, seat): that seat withdraws ("ritiro") between smazzate, at phase
    "commit", "deal" or "reveal" of that smazzata (not at a reveal that ends the match).
    None: it does not happen."""

    timeout_at: int | None = None
    abandon_at: int | None = None
    ruling_after: int | None = None
    abandon_between: tuple[int, str, int] | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A bot table: `plays` made so far and the clock."""

    match_seed: Seed
    bot: Bot
    incidents: Incidents
    plays: int = 0
    ruled: bool = False


def think_time(match_seed: Seed, step: int) -> timedelta:
    """A bot's thinking time at `step`: 1 to 20 s with millisecond detail, from the seed."""
    digest = hashlib.sha256(b"verbale/think-v1\x00" + match_seed.value
                            + step.to_bytes(8, "big")).digest()
    return timedelta(milliseconds=1000 + int.from_bytes(digest[:4], "big") % 19000)


def next_command(state: MatchState, table: Table, at: datetime) -> tuple[MatchCommand, datetime,
                                                                        Table] | None:
    """The next thing the table does in `state`, when, and the table after it; None when over."""
    step = state.version
    later = at + think_time(table.match_seed, step)
    seed = _smazzata_seed(state, table)
    if state.phase is Phase.ENDED:
        if state.commitment is not None:   # a cappotto ended the match mid-smazzata (C11)
            return RevealSeed(seed), later, table
        return _reveal_match_seed(state, table, later)
    between = table.incidents.abandon_between
    if between is not None and between[:2] == (state.smazzata, state.phase.value) \
            and not match_decided(state):
        return RecordAbandon(seat=between[2], reason="ritiro", seed=seed), later, table
    if state.phase is Phase.COMMIT:
        ruling = _ruling(state, table)
        if ruling is not None:
            return ruling, later, Table(table.match_seed, table.bot, table.incidents,
                                        table.plays, True)
        return CommitSeed(seed.commitment()), later, table
    if state.phase is Phase.DEAL:
        return DealSmazzata(seed), later, table
    if state.phase is Phase.REVEAL:
        return RevealSeed(seed), later, table
    return _in_play(state, table, at, seed)


def _smazzata_seed(state: MatchState, table: Table) -> Seed:
    """The seed the match seed gives; once the match seed is public (a ruling resumed the match
    after its reveal: MatchResumed) the record refuses that one, and the simulated table takes
    another derivation instead. A real table would draw a fresh seed."""
    if state.match_seed is None:
        return smazzata_seed(table.match_seed, state.smazzata)
    return Seed(hashlib.sha256(b"verbale/simulated-resumed-v1\x00" + table.match_seed.value
                               + state.smazzata.to_bytes(4, "big")).digest())


def _reveal_match_seed(state: MatchState, table: Table,
                       later: datetime) -> tuple[MatchCommand, datetime, Table] | None:
    """Once the match is over, the match seed it committed to is revealed; then nothing."""
    promised = state.created.match_seed_commitment if state.created else None
    if promised is None or state.match_seed is not None:
        return None
    return RevealMatchSeed(table.match_seed), later, table


def _ruling(state: MatchState, table: Table) -> RecordRuling | None:
    when = table.incidents.ruling_after
    if when is None or table.ruled or table.plays < when or not state.ended:
        return None
    return RecordRuling(arbiter="arbitro", reason="carta scoperta per errore", kind="adjust-score",
                        adjustment=(1, 0), refers_to=state.version)


def _in_play(state: MatchState, table: Table, at: datetime,
             seed: Seed) -> tuple[MatchCommand, datetime, Table]:
    assert state.created is not None
    clock = state.created.time_control
    seat = state.to_move()
    if table.incidents.timeout_at == table.plays and seat is not None and clock.per_move:
        return RecordTimeout(seat=seat, seed=seed), at + timedelta(seconds=clock.per_move,
                                                                   milliseconds=250), table
    if table.incidents.abandon_at == table.plays and seat is not None:
        gone = at + timedelta(seconds=clock.abandon_after + 5)
        return RecordAbandon(seat=seat, reason="assenza", last_seen=at, seed=seed), gone, table
    command = table.bot(state.game)
    later = at + think_time(table.match_seed, state.version)
    return command, later, Table(table.match_seed, table.bot, table.incidents, table.plays + 1,
                                 table.ruled)


def play_locally(catalog: dict[str, GameRules], setup: CreateMatch, table: Table,
                 start: datetime) -> Iterator[tuple[tuple[MatchEvent, ...], datetime,
                                                    MatchState]]:
    """Play a whole match without a store: each action's events, time and the state after."""
    state = initial(catalog)
    events = decide(state, setup, start)
    for event in events:
        state = evolve(state, event, start)
    yield events, start, state
    at = start
    while (step := next_command(state, table, at)) is not None:
        command, at, table = step
        events = decide(state, command, at)
        for event in events:
            state = evolve(state, event, at)
        yield events, at, state
