"""The Match aggregate: its frozen state and `evolve`, the fold of one recorded event into it.

A match is its events: the state is `initial(catalog)` folded with every event and the moment it
was recorded. Between smazzate the record asks for a seed commitment (COMMIT), then the deal
(DEAL); the game's engine folds the play (PLAY); after the smazzata's end its seed is revealed
(REVEAL), and the next smazzata begins or the match ends (ENDED). `decide` is in decide.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from enum import Enum
from operator import attrgetter
from typing import Any

from domain.building import builder
from domain.events import CardPlayed, PlayEvent, SmazzataEnded
from domain.game import GameEngine
from domain.record.clock import millis
from domain.record.events import (
    LIVE,
    Abandoned,
    IrregularityNoted,
    MatchCreated,
    MatchEnded,
    MatchFact,
    MatchResumed,
    MatchSeedRevealed,
    Provenance,
    RulingRecorded,
    ScoreClaimed,
    SeedCommitted,
    SeedContributed,
    SeedRevealed,
    TableVisibility,
    TagsTranscribed,
    TimeoutRecorded,
)
from domain.record.games import GameRules, TableSetup, set_up
from domain.record.transcription import transcriber
from domain.seating import Seating
from domain.text import say

MatchEvent = MatchFact | TagsTranscribed | ScoreClaimed | PlayEvent
PLAY_EVENT_TYPES = PlayEvent.__args__
NO_OPTIONS = TableVisibility()


class Phase(Enum):
    NEW = "new"
    COMMIT = "commit"    # waiting for the commitment to the next smazzata's seed
    DEAL = "deal"        # committed, waiting for the deal
    PLAY = "play"
    REVEAL = "reveal"    # the smazzata is over, its seed not yet revealed
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class MatchState:
    catalog: Mapping[str, GameRules]
    phase: Phase = Phase.NEW
    version: int = 0
    created: MatchCreated | None = None
    setup: TableSetup[Any, Any, Any, Any] | None = None   # the game, resolved at MatchCreated
    smazzata: int = 0
    dealer: int = 0
    commitment: str | None = None
    game: Any = None   # the game's state during a smazzata (setup.rules' state type)
    ended: tuple[SmazzataEnded, ...] = ()
    results: tuple[Any, ...] = ()     # the game's result of each ended smazzata
    revealed: tuple[tuple[int, str], ...] = ()
    annulled: frozenset[int] = frozenset()
    adjustment: tuple[int, int] = (0, 0)
    last_at: datetime | None = None
    bank_used_ms: tuple[int, ...] = ()
    last_action: tuple[datetime | None, ...] = ()
    forfeit: int | None = None   # the seat whose timeout or abandon is ending the match
    result: MatchEnded | None = None
    provenance: Provenance = LIVE
    visibility: TableVisibility = NO_OPTIONS
    contributions: tuple[tuple[int, str], ...] = ()   # (seat, hex) for the smazzata to deal
    match_seed: str | None = None                      # revealed once the match is over
    irregularities: tuple[tuple[int, IrregularityNoted], ...] = ()   # (version, fact)
    # What people wrote beside the play (decide_claims.py): never the game, phase or result.
    tags: tuple[tuple[str, str], ...] = ()     # a transcribed record's header (TagsTranscribed)
    content_hash: str | None = None
    claims: tuple[tuple[int, ScoreClaimed], ...] = ()   # (version, fact)

    @property
    def transcribed(self) -> bool:
        return self.provenance.transcribed

    @property
    def rules(self) -> GameRules:
        if self.setup is None:
            raise ValueError(say("the match has not been created"))
        return self.setup.rules

    @property
    def ruleset(self) -> Any:
        """The game's ruleset (its own type), None before MatchCreated."""
        return None if self.setup is None else self.setup.ruleset

    @property
    def seating(self) -> Seating | None:
        return None if self.setup is None else self.setup.seating

    @property
    def engine(self) -> GameEngine[Any, Any]:
        return self.rules.engine

    def counted(self, annulled: frozenset[int] | None = None) -> tuple[Any, ...]:
        """Results of the smazzate that count: every ended one not annulled by the arbiter."""
        skip = self.annulled if annulled is None else annulled
        return tuple(r for e, r in zip(self.ended, self.results, strict=True)
                     if e.number not in skip)

    def to_move(self) -> int | None:
        if self.phase is not Phase.PLAY:
            return None
        return self.engine.to_move(self.game)


_FIELDS = tuple(f.name for f in fields(MatchState))
_VALUES = attrgetter(*_FIELDS)
_INDEX = {name: index for index, name in enumerate(_FIELDS)}
_build = builder(MatchState)


def with_changes(state: MatchState, **changes: Any) -> MatchState:
    """`dataclasses.replace(state, **changes)` without its introspection of the fields on every
    call: the fold rebuilds the state for every play event, and `replace` was the largest own
    time of the notation benchmark (docs/benchmarks.md, issue 12). Built by `builder`: a
    MatchState has some thirty fields, each set by name by the class's own `__init__`."""
    values = list(_VALUES(state))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return _build(*values)


def initial(catalog: Mapping[str, GameRules]) -> MatchState:
    return MatchState(catalog=catalog)


def evolve(state: MatchState, event: MatchEvent, at: datetime) -> MatchState:
    """The state after `event`, recorded at `at`. Assumes `decide` accepted it."""
    if isinstance(event, PLAY_EVENT_TYPES):
        return _play(state, event, at)
    # One new state per event: what the event changes, its version and moment together.
    return with_changes(state, version=state.version + 1, last_at=at, **_changes(state, event))


def _changes(state: MatchState, event: MatchEvent) -> dict[str, Any]:
    """The fields a match event (not a play event) changes, and their new values."""
    if isinstance(event, MatchCreated):
        return _created(state, event)
    if isinstance(event, SeedCommitted):
        return {"commitment": event.commitment, "phase": Phase.DEAL, "contributions": ()}
    if isinstance(event, SeedContributed):
        return {"contributions": (*state.contributions, (event.seat, event.contribution))}
    if isinstance(event, MatchSeedRevealed):
        return {"match_seed": event.seed}
    if isinstance(event, IrregularityNoted):
        return {"irregularities": (*state.irregularities, (state.version + 1, event))}
    if isinstance(event, TagsTranscribed):
        return {"tags": event.tags, "content_hash": event.content_hash}
    if isinstance(event, ScoreClaimed):
        return {"claims": (*state.claims, (state.version + 1, event))}
    if isinstance(event, SeedRevealed):
        return _revealed(state, event)
    if isinstance(event, TimeoutRecorded | Abandoned):
        return {"forfeit": event.seat}
    if isinstance(event, RulingRecorded):
        return _ruling(state, event)
    if isinstance(event, MatchEnded):
        return {"result": event, "phase": Phase.ENDED}
    if isinstance(event, MatchResumed):
        return _resumed(state)
    raise TypeError(say("a match does not fold {event}", event=type(event).__name__))


def _created(state: MatchState, event: MatchCreated) -> dict[str, Any]:
    seats = len(event.players)
    setup = set_up(state.catalog[event.game], event.ruleset, event.match_format, seats)
    return {"created": event, "setup": setup, "phase": Phase.COMMIT, "smazzata": 0,
            "dealer": event.first_dealer, "bank_used_ms": (0,) * seats,
            "last_action": (None,) * seats, "provenance": event.provenance or LIVE,
            "visibility": event.visibility or NO_OPTIONS}


def _play(state: MatchState, event: PlayEvent, at: datetime) -> MatchState:
    """Play events are most of a match: one `with_changes` each (verify folds every one)."""
    engine = state.engine
    game = state.game
    if state.phase in (Phase.DEAL, Phase.COMMIT):
        # COMMIT: a transcribed deal, which has no seed to commit to.
        assert state.seating is not None
        game = engine.initial(state.ruleset, state.seating)
    if state.transcribed:
        game = transcriber(state.rules.name).fold(game, event)
    else:
        game = engine.evolve(game, event)
    version = state.version + 1
    if isinstance(event, SmazzataEnded):
        ended = with_changes(state, game=game, phase=Phase.REVEAL,
                             ended=(*state.ended, event),
                             results=(*state.results, state.rules.result(game, event)),
                             version=version, last_at=at)
        return ended if state.commitment is not None else _next_smazzata(ended)
    if isinstance(event, CardPlayed):
        bank, seen = thought(state, event.seat, at)
        return with_changes(state, game=game, phase=Phase.PLAY, version=version, last_at=at,
                            bank_used_ms=bank, last_action=seen)
    return with_changes(state, game=game, phase=Phase.PLAY, version=version, last_at=at)


def thought(state: MatchState, seat: int,
            at: datetime) -> tuple[tuple[int, ...], tuple[datetime | None, ...]]:
    """A play spends the seat's thinking time: from the previous event to this one."""
    since = state.last_at
    spent = millis(at - since) if since is not None else 0
    bank, seen = list(state.bank_used_ms), list(state.last_action)
    if 0 <= seat < len(bank):   # a list's item set costs less than a tuple built by a loop
        bank[seat] += spent
        seen[seat] = at
    return tuple(bank), tuple(seen)


def _revealed(state: MatchState, event: SeedRevealed) -> dict[str, Any]:
    revealed = {"revealed": (*state.revealed, (event.smazzata, event.seed)), "commitment": None}
    if state.phase is not Phase.REVEAL or state.forfeit is not None:
        return revealed
    return {**revealed, **_next(state)}


def _next_smazzata(state: MatchState) -> MatchState:
    return with_changes(state, **_next(state))


def _next(state: MatchState) -> dict[str, Any]:
    """The smazzata is over (its seed, if it had one, revealed): the next dealer deals next."""
    assert state.seating is not None
    return {"game": None, "phase": Phase.COMMIT, "smazzata": state.smazzata + 1,
            "dealer": state.seating.next_dealer(state.dealer)}


def _resumed(state: MatchState) -> dict[str, Any]:
    """Back to where the smazzata that ended the match left it: its seed still to reveal (a
    cappotto's, C11), or the next smazzata to deal."""
    if state.commitment is not None:
        return {"result": None, "phase": Phase.REVEAL}
    if state.ended and state.smazzata == state.ended[-1].number:
        return {"result": None, **_next(state)}   # its seed was revealed after the end
    return {"result": None, "phase": Phase.COMMIT}


def _ruling(state: MatchState, event: RulingRecorded) -> dict[str, Any]:
    if event.kind == "annul-smazzata" and event.smazzata is not None:
        return {"annulled": state.annulled | {event.smazzata}}
    return {"adjustment": (state.adjustment[0] + event.adjustment[0],
                           state.adjustment[1] + event.adjustment[1])}
