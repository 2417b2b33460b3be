"""The audit of a recorded match: replay it through `decide` and compare, event by event.

The record is trusted only as far as the rules re-derive it: each recorded event that starts an
action is turned back into the command that would have caused it (a CardPlayed into a PlayCard,
a SmazzataDealt into a DealSmazzata with the seed revealed later), `decide` is asked again, and
what it returns must be exactly what was recorded, with one timestamp per action. The first
disagreement is the finding; what follows it cannot be trusted, so the audit stops there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.events import AccusoDeclared, CardPlayed, SmazzataDealt
from domain.game import DeclareAccuso, PlayCard, RuleViolation
from domain.record.clock import ClockError, parse_stamp
from domain.record.commands import (
    CommitSeed,
    CreateMatch,
    DealSmazzata,
    MatchCommand,
    RecordAbandon,
    RecordRuling,
    RecordTimeout,
    RevealSeed,
)
from domain.record.decide import decide
from domain.record.events import (
    Abandoned,
    MatchCreated,
    MatchEnded,
    RulingRecorded,
    SeedCommitted,
    SeedRevealed,
    TimeoutRecorded,
)
from domain.record.games import GameRules
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.shuffle import Seed, SeedError, check_commitment

Recorded = tuple[MatchEvent, datetime]


@dataclass(frozen=True, slots=True)
class Finding:
    """A problem at event `version` (1-based position in the match's stream)."""

    version: int
    check: str
    message: str


@dataclass(frozen=True, slots=True)
class Audit:
    findings: tuple[Finding, ...]
    state: MatchState
    pending: str | None = None   # what the record does not yet allow to check

    @property
    def ok(self) -> bool:
        return not self.findings


class _Stop(Exception):
    def __init__(self, finding: Finding | None, pending: str | None = None) -> None:
        super().__init__(finding.message if finding else pending)
        self.finding = finding
        self.pending = pending


def audit(catalog: Mapping[str, GameRules], stream: Sequence[Recorded]) -> Audit:
    state = initial(catalog)
    index = 0
    try:
        while index < len(stream):
            state, index = _guarded_step(state, stream, index)
    except _Stop as stop:
        findings = (stop.finding,) if stop.finding else ()
        return Audit(findings, state, stop.pending)
    return Audit((), state, _in_progress(state))


def _in_progress(state: MatchState) -> str | None:
    if state.phase is Phase.ENDED:
        return None
    if state.phase is Phase.NEW:
        return "the match has no events"
    return f"in progress: smazzata {state.smazzata}, phase '{state.phase.value}'"


def _guarded_step(state: MatchState, stream: Sequence[Recorded],
                  index: int) -> tuple[MatchState, int]:
    try:
        return _step(state, stream, index)
    except _Stop:
        raise
    except (ValueError, TypeError, LookupError, AttributeError) as error:
        # A recorded event the rules cannot even fold: the record is wrong at this event.
        raise _Stop(Finding(index + 1, "replay", f"{type(error).__name__}: {error}")) from None


def _step(state: MatchState, stream: Sequence[Recorded], index: int) -> tuple[MatchState, int]:
    at = stream[index][1]
    version = index + 1
    command = _infer(state, stream, index)
    try:
        expected = decide(state, command, at)
    except RuleViolation as refused:
        raise _Stop(Finding(version, refused.rule, refused.message)) from None
    for offset, wanted in enumerate(expected):
        _compare(stream, index + offset, wanted, at)
    for wanted in expected:
        state = evolve(state, wanted, at)
    return state, index + len(expected)


def _compare(stream: Sequence[Recorded], index: int, wanted: MatchEvent, at: datetime) -> None:
    version = index + 1
    if index >= len(stream):
        raise _Stop(Finding(version, "replay", f"missing: the rules give {wanted} here"))
    recorded, recorded_at = stream[index]
    if recorded != wanted:
        raise _Stop(Finding(version, "replay", f"recorded {recorded}, but the rules give "
                                               f"{wanted}"))
    if recorded_at != at:
        raise _Stop(Finding(version, "clock", "an event caused by the same action as the one "
                                              "before it must carry the same timestamp"))


def _infer(state: MatchState, stream: Sequence[Recorded], index: int) -> MatchCommand:
    event = stream[index][0]
    if isinstance(event, CardPlayed):
        return PlayCard(seat=event.seat, card=event.card, capture=event.capture,
                        matta_value=event.matta_value)
    if isinstance(event, AccusoDeclared) and state.phase is Phase.PLAY:
        return DeclareAccuso(seat=event.seat, kind=event.kind, matta_value=event.matta_value)
    if isinstance(event, SmazzataDealt):
        return DealSmazzata(seed=_seed_of_smazzata(state, stream, index))
    if isinstance(event, SeedCommitted):
        return CommitSeed(commitment=event.commitment)
    if isinstance(event, SeedRevealed):
        return RevealSeed(seed=_seed(event, index + 1))
    if isinstance(event, MatchCreated):
        return _creation(event)
    return _other(event, stream, index)


def _other(event: MatchEvent, stream: Sequence[Recorded], index: int) -> MatchCommand:
    if isinstance(event, TimeoutRecorded):
        return RecordTimeout(seat=event.seat, seed=_reveal_after(stream, index))
    if isinstance(event, Abandoned):
        return RecordAbandon(seat=event.seat, reason=event.reason,
                             last_seen=_moment(event.last_seen, index + 1),
                             seed=_reveal_after(stream, index))
    if isinstance(event, RulingRecorded):
        return RecordRuling(arbiter=event.arbiter, reason=event.reason, kind=event.kind,
                            smazzata=event.smazzata, adjustment=event.adjustment,
                            refers_to=event.refers_to)
    raise _Stop(Finding(index + 1, "order", f"{type(event).__name__} cannot start an action "
                                            "here: nothing recorded before it causes it"))


def _creation(event: MatchCreated) -> CreateMatch:
    return CreateMatch(game=event.game, ruleset=event.ruleset, players=event.players,
                       match_format=event.match_format, time_control=event.time_control,
                       first_dealer=event.first_dealer, tournament=event.tournament,
                       round=event.round, table=event.table)


def _seed(event: SeedRevealed, version: int) -> Seed:
    try:
        return Seed.from_hex(event.seed)
    except SeedError as error:
        raise _Stop(Finding(version, "seed", str(error))) from None


def _moment(text: str | None, version: int) -> datetime | None:
    try:
        return None if text is None else parse_stamp(text)
    except ClockError as error:
        raise _Stop(Finding(version, "clock", str(error))) from None


def _reveal_after(stream: Sequence[Recorded], index: int) -> Seed | None:
    following = stream[index + 1][0] if index + 1 < len(stream) else None
    return _seed(following, index + 2) if isinstance(following, SeedRevealed) else None


def _committed(state: MatchState, seed: Seed, version: int) -> Seed:
    """The deal is checked with the seed only if that seed is the one committed to."""
    try:
        check_commitment(seed, state.commitment or "")
    except SeedError:
        raise _Stop(Finding(version, "seed-commitment", f"the seed revealed for smazzata "
                                                        f"{state.smazzata} does not match the "
                                                        "commitment recorded before its deal")
                    ) from None
    return seed


def _seed_of_smazzata(state: MatchState, stream: Sequence[Recorded], index: int) -> Seed:
    """The seed revealed later for the smazzata being dealt: a deal is checked only with it."""
    for later in range(index + 1, len(stream)):
        event = stream[later][0]
        if isinstance(event, SeedRevealed) and event.smazzata == state.smazzata:
            return _committed(state, _seed(event, later + 1), later + 1)
        if isinstance(event, SeedCommitted | MatchEnded):
            raise _Stop(Finding(later + 1, "seed-reveal", f"smazzata {state.smazzata} is over "
                                                          "but its seed was never revealed"))
    raise _Stop(None, f"in progress: smazzata {state.smazzata} will be checked against its "
                      "seed when the seed is revealed")
