"""Playing whole smazzate and matches of Cirulla with a chooser (a bot, or a replayed record).

The seeds come from domain/match_seed.py, the end of the match from domain/match_format.py; this
module only drives the engine, so every event it yields went through `decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from domain import match_driver as driver
from domain.cirulla.decide import ENGINE
from domain.cirulla.engine import auto_accuso, smazzata_score
from domain.cirulla.ruleset import Ruleset
from domain.cirulla.scoring import Breakdown
from domain.cirulla.state import CirullaState, Play, taken
from domain.events import PlayEvent
from domain.game import Command, DeclareAccuso, PlayCard
from domain.match_format import MatchFormat, MatchStatus, SmazzataResult, match_status
from domain.seating import Seating
from domain.shuffle import Seed

Chooser = Callable[[CirullaState], Play]


@dataclass(frozen=True, slots=True)
class SmazzataPlayed:
    number: int
    dealer: int
    seed: Seed
    events: tuple[PlayEvent, ...]
    final: CirullaState
    breakdown: Breakdown

    @property
    def result(self) -> SmazzataResult:
        return smazzata_result(self.final)


def smazzata_result(state: CirullaState) -> SmazzataResult:
    breakdown = smazzata_score(state)
    return SmazzataResult(points=breakdown.totals, last_capture_side=state.last_capture_side,
                          cappotto_side=breakdown.cappotto_side)


def as_command(chooser: Chooser) -> Callable[[CirullaState], Command]:
    """The chooser's play as a command; a hand that makes an accuso declares it first (under the
    automatic accuso the engine has already declared it)."""
    def command(state: CirullaState) -> Command:
        seat = state.to_move
        accuso = None if state.declared[seat] else auto_accuso(state, seat)
        if accuso is not None:
            return DeclareAccuso(seat, accuso.kind, accuso.matta_value)
        play = chooser(state)
        return PlayCard(seat, play[0], taken(play))
    return command


def play_smazzata(ruleset: Ruleset, seating: Seating, dealer: int, number: int, seed: Seed,
                  chooser: Chooser) -> SmazzataPlayed:
    events, final = driver.play_smazzata(ENGINE, ruleset, seating, dealer, number, seed,
                                         as_command(chooser))
    return SmazzataPlayed(number, dealer, seed, events, final, smazzata_score(final))


@dataclass(frozen=True, slots=True)
class MatchPlayed:
    seating: Seating
    fmt: MatchFormat
    smazzate: tuple[SmazzataPlayed, ...]
    status: MatchStatus


def play_match(ruleset: Ruleset, seating: Seating, fmt: MatchFormat, match_seed: Seed,
               chooser: Chooser) -> MatchPlayed:
    played = tuple(iter_match(ruleset, seating, fmt, match_seed, chooser))
    return MatchPlayed(seating, fmt, played, match_status(fmt, [s.result for s in played]))


def iter_match(ruleset: Ruleset, seating: Seating, fmt: MatchFormat, match_seed: Seed,
               chooser: Chooser) -> Iterator[SmazzataPlayed]:
    """Smazzate until the format says the match is over (domain/match_driver.py)."""
    for p in driver.iter_match(ENGINE, ruleset, fmt, seating, match_seed, as_command(chooser),
                               smazzata_result):
        yield SmazzataPlayed(p.number, p.dealer, p.seed, p.events, p.final,
                             smazzata_score(p.final))
