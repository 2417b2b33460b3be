"""Play a smazzata, and a match of them, with any GameEngine: the loop both games share.

A smazzata: the engine deals from its seed, then `choose` names a command for the seat to move
until the engine says the smazzata is over; every event is kept, so the record replays as a fold.
A match: smazzate until `match_status` says it is over, each with its own seed
(domain/match_seed.py), the first dealer drawn from the match seed and the dealer passing to
the right after each smazzata ("il mazziere gira in senso antiorario", 000 and 004).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from domain.events import PlayEvent
from domain.game import Command, GameEngine
from domain.match_format import MatchFormat, MatchStatus, SmazzataResult, match_status
from domain.match_seed import first_dealer, smazzata_seed
from domain.seating import Seating
from domain.shuffle import Seed

S = TypeVar("S")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class PlayedSmazzata(Generic[S]):
    number: int
    dealer: int
    seed: Seed
    events: tuple[PlayEvent, ...]
    final: S
    result: SmazzataResult


@dataclass(frozen=True, slots=True)
class PlayedMatch(Generic[S]):
    fmt: MatchFormat
    seating: Seating
    seed: Seed
    smazzate: tuple[PlayedSmazzata[S], ...]
    status: MatchStatus


def play_smazzata(engine: GameEngine[S, R], ruleset: R, seating: Seating, dealer: int,
                  number: int, seed: Seed,
                  choose: Callable[[S], Command]) -> tuple[tuple[PlayEvent, ...], S]:
    """Deal and play one smazzata to its end; the events and the final state."""
    events = list(engine.deal(ruleset, seating, dealer, number, seed))
    state = engine.initial(ruleset, seating)
    for event in events:
        state = engine.evolve(state, event)
    while not engine.is_finished(state):
        new, state = engine.decide_folded(state, choose(state))
        events.extend(new)
    return tuple(events), state


def play_match(engine: GameEngine[S, R], ruleset: R, fmt: MatchFormat, seating: Seating,
               seed: Seed, choose: Callable[[S], Command],
               result_of: Callable[[S], SmazzataResult]) -> PlayedMatch[S]:
    """Smazzate until the match is over (format, KO spareggi and 'vinco subito' included)."""
    played = tuple(iter_match(engine, ruleset, fmt, seating, seed, choose, result_of))
    return PlayedMatch(fmt, seating, seed, played, match_status(fmt, [p.result for p in played]))


def iter_match(engine: GameEngine[S, R], ruleset: R, fmt: MatchFormat, seating: Seating,
               seed: Seed, choose: Callable[[S], Command],
               result_of: Callable[[S], SmazzataResult]) -> Iterator[PlayedSmazzata[S]]:
    """The smazzate of a match one by one, as they are played (for live output)."""
    dealer = first_dealer(seed, seating.players)
    results: list[SmazzataResult] = []
    status = match_status(fmt, ())
    while not status.over:
        number = len(results)
        smazzata = smazzata_seed(seed, number)
        events, final = play_smazzata(engine, ruleset, seating, dealer, number, smazzata, choose)
        played = PlayedSmazzata(number, dealer, smazzata, events, final, result_of(final))
        yield played
        results.append(played.result)
        status = match_status(fmt, results)
        dealer = seating.next_dealer(dealer)
