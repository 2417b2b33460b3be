"""A run of written plays decided and folded at once: what `decide_checked` and `evolve` do play
by play, at about the cost of the game's own step.

A hand record is mostly plays that the rules accept as written. Deciding each through the whole
record (the clock, the phase, the transcription's check, the events that follow, a cappotto that
cuts the smazzata short, then folding every event into a new MatchState) costs several times the
game's step (docs/benchmarks.md, issue 12). Here the game's transcriber `advance`s each play on
the game state, and the match state is rebuilt once, at the end of the run.

The run takes only what it can take exactly: a transcribed match in play, the seat to move
playing a card of its hand as the rules allow, nothing unverifiable, no cappotto cutting the
smazzata short, the clock going forward. The smazzata's last play (Cirulla) ends the run: its
SmazzataEnded is completed and folded by the record's own `outcomes_folded`, as when the play is
decided alone. Plays that only change the game (its CardPlayed their one event) are taken by the
game's `plain_plays` several at once, on the game's own fields (domain/cirulla/plain_run.py),
when the match format never cuts a smazzata short. It stops before the first play that is
anything else; the caller decides that one the usual way, from the state the run returns, and
the record reads the same as if every play had been decided one by one
(tests/domain/record/test_plays_run.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.building import builder
from domain.cards import Card
from domain.events import CardPlayed
from domain.game import PlayCard
from domain.record.clock import ClockError, millis, utc
from domain.record.match import MatchEvent, MatchState, Phase, _with
from domain.record.outcomes import outcomes_folded
from domain.record.transcription import transcriber

WrittenMove = tuple[int | None, Card, tuple[Card, ...], int | None]
"""A play as written: the seat (None: the seat to move), the card, its capture, the matta's
value."""


@dataclass(frozen=True, slots=True)
class PlaysRun:
    """The state after the plays taken, and each taken play's command and events."""

    state: MatchState
    taken: tuple[tuple[PlayCard, tuple[MatchEvent, ...]], ...]


def decide_plays(state: MatchState, moves: Sequence[WrittenMove], first: datetime,
                 step: timedelta) -> PlaysRun:
    """Decide and fold `moves`, the k-th (from 0) at `first + k * step`, as far as the run can
    take them. The clock is kept in whole milliseconds inside the run: the span between two
    plays is `step` every time, so a seat's thinking time grows by `millis(step)` a play (by
    `millis(first - last_at)` for the first), exactly as `evolve` adds it play by play."""
    if not state.transcribed or state.phase is not Phase.PLAY or state.forfeit is not None \
            or state.setup is None or step < _NO_TIME or not _forward(state.last_at, first):
        return PlaysRun(state, ())
    setup = state.setup
    rules = transcriber(setup.rules.name)
    advance = rules.advance
    to_move = setup.rules.engine.to_move
    cut_short, match_format = setup.rules.cut_short, setup.match_format   # setup.cut_short's
    # Plain plays change only the game: taken at once, when no play may cut the smazzata short.
    plain = None if setup.rules.may_cut_short(match_format) else rules.plain_plays
    game, version = state.game, state.version
    bank = list(state.bank_used_ms)
    spent = millis(first - state.last_at) if state.last_at is not None else 0
    each = millis(step)
    last_play: dict[int, int] = {}   # a seat's last play of the run, by its index
    taken: list[tuple[PlayCard, tuple[MatchEvent, ...]]] = []
    index = 0
    while index < len(moves):
        if plain is not None:
            plains, game = plain(game, moves, index)
            if plains:
                version += len(plains)
                index, spent = _plains_taken(plains, moves, index, taken, bank, spent, each,
                                             last_play)
                if index == len(moves):
                    break
        written_seat, card, capture, matta_value = moves[index]
        seat = to_move(game) if written_seat is None else written_seat
        if seat is None:
            break
        advanced = advance(game, seat, card, capture, matta_value)
        if advanced is None:
            ending = rules.last_play(game, seat, card, capture, matta_value)
            if ending is not None:
                bank[seat] += spent
                last_play[seat] = index
                return _ended(state, ending, _play_card(seat, card, capture, matta_value),
                              taken, version, bank, last_play, first, step)
            break
        if capture and cut_short(match_format, advanced.played) is not None:
            break
        bank[seat] += spent
        spent = each
        last_play[seat] = index
        game = advanced.after
        events = advanced.events
        version += len(events)
        taken.append((_play_card(seat, card, capture, matta_value), events))
        index += 1
    if not taken:
        return PlaysRun(state, ())
    return PlaysRun(_after_run(state, game, version, bank, last_play, first, step, len(taken)),
                    tuple(taken))


def _plains_taken(plains: Sequence[CardPlayed], moves: Sequence[WrittenMove], index: int,
                  taken: list[tuple[PlayCard, tuple[MatchEvent, ...]]], bank: list[int],
                  spent: int, each: int, last_play: dict[int, int]) -> tuple[int, int]:
    """The plain plays from `index` on taken as the run takes a play `advance` took: where
    the run goes on, and the thinking time of the next play."""
    for played in plains:
        seat = played.seat
        bank[seat] += spent
        spent = each
        last_play[seat] = index
        _, card, capture, matta_value = moves[index]
        taken.append((_play_card(seat, card, capture, matta_value), (played,)))
        index += 1
    return index, spent


def _ended(state: MatchState, ending: tuple[tuple[MatchEvent, ...], Any], command: PlayCard,
           taken: list[tuple[PlayCard, tuple[MatchEvent, ...]]], version: int, bank: list[int],
           last_play: dict[int, int], first: datetime, step: timedelta) -> PlaysRun:
    """The run ends with the smazzata's last play: its CardPlayed taken as the run takes a play,
    then its SmazzataEnded completed and folded by the record (`outcomes_folded`), as deciding
    the play alone completes and folds it (its outcome; the MatchEnded of a smazzata with no
    seed to reveal that ends the match). A play with a SmazzataEnded is never cut short."""
    (played, *ended), game = ending
    moment = first + step * len(taken)
    before = _after_run(state, game, version + 1, bank, last_play, first, step, len(taken) + 1)
    completed, folded = outcomes_folded(before, tuple(ended), moment)
    assert folded is not None   # a SmazzataEnded was folded
    taken.append((command, (played, *completed)))
    return PlaysRun(folded, tuple(taken))


def _after_run(state: MatchState, game: Any, version: int, bank: list[int],
               last_play: dict[int, int], first: datetime, step: timedelta,
               plays: int) -> MatchState:
    """The match state after the run's `plays`, rebuilt once."""
    seen = list(state.last_action)
    for seat, index in last_play.items():
        seen[seat] = first + step * index
    return _with(state, game=game, version=version, last_at=first + step * (plays - 1),
                 bank_used_ms=tuple(bank), last_action=tuple(seen))


_NO_TIME = timedelta(0)
_play_card = builder(PlayCard)   # PlayCard(...), at half the cost (domain/building.py)


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
