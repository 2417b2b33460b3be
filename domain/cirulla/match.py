"""Playing whole smazzate and matches of Cirulla with a chooser (a bot, or a replayed record).

The seeds come from domain/match_seed.py, the end of the match from domain/match_format.py; this
module only drives the engine, so every event it yields went through `decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from domain.cirulla.decide import decide
from domain.cirulla.engine import auto_accuso, deal_events, evolve, smazzata_score
from domain.cirulla.ruleset import Ruleset
from domain.cirulla.scoring import Breakdown
from domain.cirulla.state import CirullaState, Play, empty_state
from domain.events import PlayEvent
from domain.game import DeclareAccuso, PlayCard
from domain.match_format import MatchFormat, MatchStatus, SmazzataResult, match_status
from domain.match_seed import first_dealer, smazzata_seed
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
        return SmazzataResult(points=self.breakdown.totals,
                              last_capture_side=self.final.last_capture_side,
                              cappotto_side=self.breakdown.cappotto_side)


def play_smazzata(ruleset: Ruleset, seating: Seating, dealer: int, number: int, seed: Seed,
                  chooser: Chooser) -> SmazzataPlayed:
    state = empty_state(ruleset, seating, dealer, number)
    events: list[PlayEvent] = []
    for event in deal_events(ruleset, seating, dealer, number, seed):
        events.append(event)
        state = evolve(state, event)
    while not state.finished:
        declare = _accuso_before_play(state)
        if declare is not None:
            for event in decide(state, declare):
                events.append(event)
                state = evolve(state, event)
        play = chooser(state)
        for event in decide(state, PlayCard(state.to_move, play.card, play.capture)):
            events.append(event)
            state = evolve(state, event)
    return SmazzataPlayed(number, dealer, seed, tuple(events), state, smazzata_score(state))


def _accuso_before_play(state: CirullaState) -> DeclareAccuso | None:
    """The seat to move declares its best accuso, if it has one, before choosing its play.

    AUTOMATICO: the same event `decide` would put before the play, made first so that the
    chooser sees the matta's accuso value in `legal_plays`; OBBLIGATORIO: 002's "you have to
    knock"; FACOLTATIVO: the simulated player always takes the points.
    """
    pending = auto_accuso(state, state.to_move)
    return None if pending is None else DeclareAccuso(state.to_move, pending.kind)


@dataclass(frozen=True, slots=True)
class MatchPlayed:
    seating: Seating
    fmt: MatchFormat
    smazzate: tuple[SmazzataPlayed, ...]
    status: MatchStatus


def play_match(ruleset: Ruleset, seating: Seating, fmt: MatchFormat, match_seed: Seed,
               chooser: Chooser, max_smazzate: int = 200) -> MatchPlayed:
    played = list(iter_match(ruleset, seating, fmt, match_seed, chooser, max_smazzate))
    status = match_status(fmt, [s.result for s in played])
    return MatchPlayed(seating, fmt, tuple(played), status)


def iter_match(ruleset: Ruleset, seating: Seating, fmt: MatchFormat, match_seed: Seed,
               chooser: Chooser, max_smazzate: int = 200) -> Iterator[SmazzataPlayed]:
    """Smazzate until the format says the match is over, the dealer turning counterclockwise."""
    dealer = first_dealer(match_seed, seating.players)
    results: list[SmazzataResult] = []
    for number in range(max_smazzate):
        played = play_smazzata(ruleset, seating, dealer, number,
                               smazzata_seed(match_seed, number), chooser)
        yield played
        results.append(played.result)
        if match_status(fmt, results).over:
            return
        dealer = seating.next_dealer(dealer)
    raise RuntimeError(f"no result after {max_smazzate} smazzate")
