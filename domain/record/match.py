"""The Match aggregate: its frozen state and `evolve`, the fold of one recorded event into it.

A match is its events: the state is `initial(catalog)` folded with every event and the moment it
was recorded. Between smazzate the record asks for a seed commitment (COMMIT), then the deal
(DEAL); the game's engine folds the play (PLAY); after the smazzata's end its seed is revealed
(REVEAL), and the next smazzata begins or the match ends (ENDED). `decide` is in decide.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.events import CardPlayed, PlayEvent, SmazzataEnded
from domain.game import GameEngine
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
_MILLISECOND = timedelta(milliseconds=1)
NO_OPTIONS = TableVisibility()


class Phase(Enum):
    NEW = "new"
    COMMIT = "commit"    # waiting for the commitment to the next smazzata's seed
    DEAL = "deal"        # committed, waiting for the deal
    PLAY = "play"
    REVEAL = "reveal"    # the smazzata is over, its seed not yet revealed
    ENDED = "ended"


class Steady(msgspec.Struct, frozen=True):
    """What a match changes a few times a smazzata at most: the setup, the players' facts, the
    ended smazzate, the seeds. Every MatchState of a smazzata holds the same one, by reference:
    a play builds a new MatchState of seven fields, never a copy of these (issue 24)."""

    catalog: Mapping[str, GameRules]
    created: MatchCreated | None = None
    setup: TableSetup[Any, Any, Any, Any] | None = None   # the game, resolved at MatchCreated
    smazzata: int = 0
    dealer: int = 0
    commitment: str | None = None
    ended: tuple[SmazzataEnded, ...] = ()
    results: tuple[Any, ...] = ()     # the game's result of each ended smazzata
    revealed: tuple[tuple[int, str], ...] = ()
    annulled: frozenset[int] = frozenset()
    adjustment: tuple[int, int] = (0, 0)
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
    # Facts of the setup read on every play, set at MatchCreated: provenance.transcribed, and
    # whether the format may end a smazzata at the play that completes a cappotto (C11).
    transcribed: bool = False
    cuts_short: bool = False


class MatchState(msgspec.Struct, frozen=True):
    """The match after its events: what each play changes (the game's state, the version, the
    clock) in its own fields, the rest in `steady`, read through properties of the same names.
    Structs, as the events are: one is built per event replayed, in C."""

    steady: Steady
    phase: Phase = Phase.NEW
    version: int = 0
    game: Any = None   # the game's state during a smazzata (setup.rules' state type)
    last_at: datetime | None = None
    bank_used_ms: tuple[int, ...] = ()
    last_action: tuple[datetime | None, ...] = ()

    @property
    def catalog(self) -> Mapping[str, GameRules]:
        return self.steady.catalog

    @property
    def created(self) -> MatchCreated | None:
        return self.steady.created

    @property
    def setup(self) -> TableSetup[Any, Any, Any, Any] | None:
        return self.steady.setup

    @property
    def smazzata(self) -> int:
        return self.steady.smazzata

    @property
    def dealer(self) -> int:
        return self.steady.dealer

    @property
    def commitment(self) -> str | None:
        return self.steady.commitment

    @property
    def ended(self) -> tuple[SmazzataEnded, ...]:
        return self.steady.ended

    @property
    def results(self) -> tuple[Any, ...]:
        return self.steady.results

    @property
    def revealed(self) -> tuple[tuple[int, str], ...]:
        return self.steady.revealed

    @property
    def annulled(self) -> frozenset[int]:
        return self.steady.annulled

    @property
    def adjustment(self) -> tuple[int, int]:
        return self.steady.adjustment

    @property
    def forfeit(self) -> int | None:
        return self.steady.forfeit

    @property
    def result(self) -> MatchEnded | None:
        return self.steady.result

    @property
    def provenance(self) -> Provenance:
        return self.steady.provenance

    @property
    def visibility(self) -> TableVisibility:
        return self.steady.visibility

    @property
    def contributions(self) -> tuple[tuple[int, str], ...]:
        return self.steady.contributions

    @property
    def match_seed(self) -> str | None:
        return self.steady.match_seed

    @property
    def irregularities(self) -> tuple[tuple[int, IrregularityNoted], ...]:
        return self.steady.irregularities

    @property
    def tags(self) -> tuple[tuple[str, str], ...]:
        return self.steady.tags

    @property
    def content_hash(self) -> str | None:
        return self.steady.content_hash

    @property
    def claims(self) -> tuple[tuple[int, ScoreClaimed], ...]:
        return self.steady.claims

    @property
    def transcribed(self) -> bool:
        return self.steady.transcribed

    @property
    def rules(self) -> GameRules:
        setup = self.steady.setup
        if setup is None:
            raise ValueError(say("the match has not been created"))
        return setup.rules

    @property
    def ruleset(self) -> Any:
        """The game's ruleset (its own type), None before MatchCreated."""
        setup = self.steady.setup
        return None if setup is None else setup.ruleset

    @property
    def seating(self) -> Seating | None:
        setup = self.steady.setup
        return None if setup is None else setup.seating

    @property
    def engine(self) -> GameEngine[Any, Any]:
        return self.rules.engine

    def counted(self, annulled: frozenset[int] | None = None) -> tuple[Any, ...]:
        """Results of the smazzate that count: every ended one not annulled by the arbiter."""
        steady = self.steady
        skip = steady.annulled if annulled is None else annulled
        return tuple(r for e, r in zip(steady.ended, steady.results, strict=True)
                     if e.number not in skip)

    def to_move(self) -> int | None:
        if self.phase is not Phase.PLAY:
            return None
        setup = self.steady.setup
        assert setup is not None   # a match in play was created
        return setup.rules.engine.to_move(self.game)


_PLAY_FIELDS = frozenset(MatchState.__struct_fields__)
_build = MatchState


def with_changes(state: MatchState, **changes: Any) -> MatchState:
    """`state` with `changes`, any field by its name, the steady ones too (`state.steady` then
    replaced by a changed copy)."""
    steady = {name: changes.pop(name) for name in [n for n in changes if n not in _PLAY_FIELDS]}
    if steady:
        changes["steady"] = replace(state.steady, **steady)
    return replace(state, **changes)


def played(state: MatchState, game: Any, version: int, at: datetime,
           bank_used_ms: tuple[int, ...], last_action: tuple[datetime | None, ...]) -> MatchState:
    """The state after a play that does not end the smazzata: only the per-play fields are new,
    the steady part is the same object."""
    return _build(state.steady, Phase.PLAY, version, game, at, bank_used_ms, last_action)


def initial(catalog: Mapping[str, GameRules]) -> MatchState:
    return MatchState(Steady(catalog))


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
    provenance = event.provenance or LIVE
    setup = set_up(state.catalog[event.game], event.ruleset, event.match_format, seats)
    return {"created": event, "setup": setup, "phase": Phase.COMMIT, "smazzata": 0,
            "dealer": event.first_dealer, "bank_used_ms": (0,) * seats,
            "last_action": (None,) * seats, "provenance": provenance,
            "transcribed": provenance.transcribed,
            "cuts_short": setup.rules.may_cut_short(setup.match_format),
            "visibility": event.visibility or NO_OPTIONS}


def _play(state: MatchState, event: PlayEvent, at: datetime) -> MatchState:
    """Play events are most of a match: a play builds the seven fields of a MatchState, its
    steady part kept (verify folds every one)."""
    steady = state.steady
    setup = steady.setup
    assert setup is not None
    game = state.game
    phase = state.phase
    if phase is Phase.DEAL or phase is Phase.COMMIT:
        # COMMIT: a transcribed deal, which has no seed to commit to.
        game = setup.rules.engine.initial(setup.ruleset, setup.seating)
    if steady.transcribed:
        game = transcriber(setup.rules.name).fold(game, event)
    else:
        game = setup.rules.engine.evolve(game, event)
    version = state.version + 1
    if type(event) is CardPlayed:
        bank, seen = thought(state, event.seat, at)
        return _build(steady, Phase.PLAY, version, game, at, bank, seen)
    if isinstance(event, SmazzataEnded):
        ended = with_changes(state, game=game, phase=Phase.REVEAL,
                             ended=(*steady.ended, event),
                             results=(*steady.results, setup.rules.result(game, event)),
                             version=version, last_at=at)
        return ended if steady.commitment is not None else _next_smazzata(ended)
    return _build(steady, Phase.PLAY, version, game, at, state.bank_used_ms, state.last_action)


def thought(state: MatchState, seat: int,
            at: datetime) -> tuple[tuple[int, ...], tuple[datetime | None, ...]]:
    """A play spends the seat's thinking time: from the previous event to this one."""
    since = state.last_at
    spent = (at - since) // _MILLISECOND if since is not None else 0   # clock.millis
    bank, seen = state.bank_used_ms, state.last_action
    if not 0 <= seat < len(bank):
        return bank, seen
    if len(bank) == 2:   # most tables: the two tuples built at once
        if seat == 0:
            return (bank[0] + spent, bank[1]), (at, seen[1])
        return (bank[0], bank[1] + spent), (seen[0], at)
    return (*bank[:seat], bank[seat] + spent, *bank[seat + 1:]), \
        (*seen[:seat], at, *seen[seat + 1:])


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
