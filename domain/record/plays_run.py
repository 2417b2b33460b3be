"""A run of written plays decided and folded at once: what `decide_checked` and `evolve` do play
by play, at about the cost of the game's own step.

A hand record is mostly plays that the rules accept as written. Deciding each through the whole
record (the clock, the phase, the transcription's check, the events that follow, a cappotto that
cuts the smazzata short, then folding every event into a new MatchState) costs several times the
game's step (docs/benchmarks.md, issue 12). Here the game's transcriber `advance`s each play on
the game state, and the match state is rebuilt once, at the end of the run.

The run takes only what it can take exactly: a transcribed match in play, the seat to move
playing a card of its hand as the rules allow, nothing unverifiable, the smazzata going on, no
cappotto cutting it short, the clock going forward. It stops before the first play that is
anything else; the caller decides that one the usual way, from the state the run returns, and
the record reads the same as if every play had been decided one by one
(tests/domain/record/test_plays_run.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from domain.cards import Card
from domain.game import PlayCard
from domain.record.clock import ClockError, millis, utc
from domain.record.match import MatchEvent, MatchState, Phase, _with
from domain.record.transcription import transcriber

WrittenMove = tuple[int | None, Card, tuple[Card, ...], int | None]
"""A play as written: the seat (None: the seat to move), the card, its capture, the matta's
value."""


@dataclass(frozen=True, slots=True)
class PlaysRun:
    """The state after the plays taken, and each taken play's command and events."""

    state: MatchState
    taken: tuple[tuple[PlayCard, tuple[MatchEvent, ...]], ...]


def decide_plays(state: MatchState, moves: Sequence[WrittenMove],
                 times: Sequence[datetime]) -> PlaysRun:
    """Decide and fold `moves`, the i-th at `times[i]`, as far as the run can take them."""
    if not state.transcribed or state.phase is not Phase.PLAY or state.forfeit is not None \
            or state.setup is None:
        return PlaysRun(state, ())
    setup = state.setup
    advance = transcriber(setup.rules.name).advance
    to_move = setup.rules.engine.to_move
    game, version, last_at = state.game, state.version, state.last_at
    bank, seen = list(state.bank_used_ms), list(state.last_action)
    taken: list[tuple[PlayCard, tuple[MatchEvent, ...]]] = []
    for (written_seat, card, capture, matta_value), at in zip(moves, times, strict=False):
        seat = to_move(game) if written_seat is None else written_seat
        if seat is None or not _forward(last_at, at):
            break
        step = advance(game, seat, card, capture, matta_value)
        if step is None or (capture and setup.cut_short(step.played) is not None):
            break
        # evolve's _thought: a play spends its seat's time since the previous event.
        bank[seat] += millis(at - last_at) if last_at is not None else 0
        seen[seat] = at
        game, last_at = step.after, at
        version += len(step.events)
        taken.append((PlayCard(seat, card, capture, matta_value), step.events))
    if not taken:
        return PlaysRun(state, ())
    after = _with(state, game=game, version=version, last_at=last_at, bank_used_ms=tuple(bank),
                  last_action=tuple(seen))
    return PlaysRun(after, tuple(taken))


def _forward(last_at: datetime | None, at: datetime) -> bool:
    """decide's clock check: a zoned time, not before the previous event."""
    if at.tzinfo is UTC:   # what utc() would give back unchanged
        moment = at
    else:
        try:
            moment = utc(at)
        except ClockError:
            return False
    return last_at is None or moment >= last_at
