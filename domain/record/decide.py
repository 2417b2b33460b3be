"""`decide`: a command checked against the record and the game's rules, and the events it causes.

Nothing is recorded unless `decide` returns: an illegal play, a play out of turn, a deal that does
not follow from its seed, a seed that does not match its commitment, a timeout the clock does not
justify are refused with `RecordRefused` (a RuleViolation naming the rule).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from domain.events import PlayEvent, SmazzataDealt
from domain.game import DeclareAccuso, PlayCard
from domain.match_seed import first_dealer, smazzata_seed
from domain.record import decide_transcribed as transcribed
from domain.record.clock import ClockError, millis, stamp, utc
from domain.record.commands import (
    CommitSeed,
    ContributeSeed,
    CreateMatch,
    DealSmazzata,
    MatchCommand,
    RecordAbandon,
    RecordIrregularPlay,
    RecordRuling,
    RecordTimeout,
    RevealMatchSeed,
    RevealSeed,
    TranscribeAccuso,
    TranscribeDeal,
)
from domain.record.decide_transcribed import Decided
from domain.record.events import (
    PROVENANCES,
    Abandoned,
    MatchCreated,
    MatchEnded,
    MatchSeedRevealed,
    RulingRecorded,
    SeedCommitted,
    SeedContributed,
    SeedRevealed,
    TimeoutRecorded,
)
from domain.record.games import Standing, set_up
from domain.record.match import MatchEvent, MatchState, Phase
from domain.record.outcomes import cut_short, settled, with_outcomes
from domain.record.refusal import RecordRefused, need
from domain.shuffle import Seed, SeedError, check_commitment, mix_seeds

__all__ = ["ABANDON_REASONS", "RULING_KINDS", "Decided", "RecordRefused", "decide",
           "decide_checked"]

_HEX64 = re.compile(r"[0-9a-f]{64}")
ABANDON_REASONS = ("ritiro", "assenza")
RULING_KINDS = ("adjust-score", "annul-smazzata")
_need = need


def decide(state: MatchState, command: MatchCommand, at: datetime) -> tuple[MatchEvent, ...]:
    """The events `command` causes at `at`, or RecordRefused / RuleViolation. Pure."""
    return decide_checked(state, command, at).events


def decide_checked(state: MatchState, command: MatchCommand, at: datetime) -> Decided:
    """`decide`, with what the known cards of a transcribed match could not check."""
    _check_clock(state, at)
    if isinstance(command, CreateMatch):
        return Decided((_create(state, command),))
    if state.phase is Phase.NEW:
        raise RecordRefused("phase", "the match has not been created yet")
    if isinstance(command, RecordRuling):
        return Decided(_ruling(state, command))
    if isinstance(command, RevealMatchSeed):
        return Decided((_reveal_match_seed(state, command),))
    if state.phase is Phase.ENDED:
        if isinstance(command, RevealSeed) and state.commitment is not None:
            return Decided((_reveal_after_cappotto(state, command),))
        raise RecordRefused("phase", "the match is over: only an arbiter's ruling may follow")
    decided = _decided(state, command, at)
    return replace(decided, events=with_outcomes(state, cut_short(state, decided.events), at))


def _decided(state: MatchState, command: MatchCommand, at: datetime) -> Decided:
    if isinstance(command, RecordIrregularPlay | TranscribeDeal | TranscribeAccuso):
        return _transcription(state, command)
    if isinstance(command, PlayCard | DeclareAccuso):
        if state.transcribed:
            return _transcription(state, command)
        return Decided(_play(state, command))
    if isinstance(command, CommitSeed):
        return Decided((_commit(state, command),))
    if isinstance(command, ContributeSeed):
        return Decided((_contribute(state, command),))
    if isinstance(command, DealSmazzata):
        return Decided(_deal(state, command))
    if isinstance(command, RevealSeed):
        return Decided(_reveal(state, command))
    if isinstance(command, RecordTimeout):
        return Decided(_timeout(state, command, at))
    if isinstance(command, RecordAbandon):
        return Decided(_abandon(state, command, at))
    raise RecordRefused("command", f"{type(command).__name__} is not a command of a match")


def _transcription(state: MatchState, command: RecordIrregularPlay | TranscribeDeal
                   | TranscribeAccuso | PlayCard | DeclareAccuso) -> Decided:
    if isinstance(command, TranscribeDeal):
        return transcribed.deal(state, command)
    if isinstance(command, TranscribeAccuso | DeclareAccuso):
        return transcribed.accuso(state, command)
    return transcribed.play(state, command)


def _check_clock(state: MatchState, at: datetime) -> None:
    try:
        moment = utc(at)
    except ClockError as error:
        raise RecordRefused("clock", str(error)) from None
    if state.last_at is not None and moment < state.last_at:
        raise RecordRefused("clock", f"time {stamp(moment)} is before the previous event "
                                     f"({stamp(state.last_at)}): the record only goes forward")


def _create(state: MatchState, command: CreateMatch) -> MatchCreated:
    _need(state, Phase.NEW, "create the match")
    rules = state.catalog.get(command.game)
    if rules is None:
        raise RecordRefused("match-setup", f"unknown game {command.game!r}; known: "
                                           f"{', '.join(sorted(state.catalog))}")
    seats = len(command.players)
    try:
        setup = set_up(rules, command.ruleset, command.match_format, seats)
    except ValueError as error:
        raise RecordRefused("match-setup", str(error)) from None
    _check_setup(command, seats)
    _check_provenance(command)
    return MatchCreated(
        game=command.game, ruleset=dict(rules.options(setup.ruleset)),
        players=tuple(command.players), sides=tuple(s % 2 for s in range(seats)),
        match_format=dict(command.match_format), time_control=command.time_control,
        first_dealer=command.first_dealer, tournament=command.tournament,
        round=command.round, table=command.table, provenance=command.provenance,
        visibility=command.visibility, match_seed_commitment=command.match_seed_commitment)


def _check_provenance(command: CreateMatch) -> None:
    origin = command.provenance
    if origin.kind not in PROVENANCES:
        raise RecordRefused("provenance", f"provenance {origin.kind!r}: expected one of "
                                          f"{', '.join(PROVENANCES)}")
    written = origin.source is not None or origin.importer is not None
    if origin.transcribed and not (origin.source or "").strip():
        raise RecordRefused("provenance", "a transcribed match names its source file")
    if not origin.transcribed and written:
        raise RecordRefused("provenance", "only a transcribed match has a source file and an "
                                          "importer")
    promise = command.match_seed_commitment
    if promise is not None and not _HEX64.fullmatch(promise):
        raise RecordRefused("seed-commitment", f"match seed commitment {promise!r} is not 64 "
                                               "lowercase hex digits (SHA-256)")
    if promise is not None and origin.transcribed:
        raise RecordRefused("provenance", "a transcribed match was not dealt from a match seed")
    if command.visibility.carte_scoperte and len(command.players) != 4:
        raise RecordRefused("match-setup", "carte scoperte is a rule of pairs: 4 players")


def _check_setup(command: CreateMatch, seats: int) -> None:
    if any(not name.strip() for name in command.players):
        raise RecordRefused("match-setup", "every seat needs a player's name")
    if not 0 <= command.first_dealer < seats:
        raise RecordRefused("match-setup", f"first dealer {command.first_dealer} is not a seat "
                                           f"of a table of {seats}")
    clock = command.time_control
    limits = (clock.per_move, clock.bank, clock.abandon_after)
    if any(limit is not None and limit <= 0 for limit in limits):
        raise RecordRefused("match-setup", f"time control limits must be positive: {clock}")
    placed = (command.tournament, command.round, command.table)
    if any(p is None for p in placed) and any(p is not None for p in placed):
        raise RecordRefused("match-setup", "a tournament match needs tournament, round and table")


def _commit(state: MatchState, command: CommitSeed) -> SeedCommitted:
    _need(state, Phase.COMMIT, f"commit the seed of smazzata {state.smazzata}")
    if not _HEX64.fullmatch(command.commitment):
        raise RecordRefused("seed-commitment", f"commitment {command.commitment!r} is not 64 "
                                               "lowercase hex digits (SHA-256)")
    return SeedCommitted(smazzata=state.smazzata, commitment=command.commitment)


def _check_seed(state: MatchState, seed: Seed | None) -> Seed:
    if seed is None or state.commitment is None:
        raise RecordRefused("seed-commitment", f"smazzata {state.smazzata} needs its seed")
    try:
        check_commitment(seed, state.commitment)
    except SeedError as error:
        raise RecordRefused("seed-commitment", f"smazzata {state.smazzata}: {error}") from None
    return seed


def _contribute(state: MatchState, command: ContributeSeed) -> SeedContributed:
    _need(state, Phase.DEAL, f"contribute to the seed of smazzata {state.smazzata}")
    assert state.seating is not None
    if not 0 <= command.seat < state.seating.players:
        raise RecordRefused("seed-contribution", f"seat {command.seat} does not exist")
    if state.contributions and command.seat <= state.contributions[-1][0]:
        raise RecordRefused("seed-contribution", f"seat {command.seat} contributes after seat "
                                                 f"{state.contributions[-1][0]}: contributions "
                                                 "are mixed once each, in seat order")
    if len(command.contribution) >= 2**32:
        raise RecordRefused("seed-contribution", "a contribution is shorter than 2^32 bytes")
    return SeedContributed(smazzata=state.smazzata, seat=command.seat,
                           contribution=command.contribution.hex())


def _effective(state: MatchState, house: Seed) -> Seed:
    """docs/shuffle.md section 4: the house seed mixed with the contributions, in seat order."""
    if not state.contributions:
        return house
    return mix_seeds(house, [bytes.fromhex(c) for _, c in state.contributions])


def _deal(state: MatchState, command: DealSmazzata) -> tuple[MatchEvent, ...]:
    _need(state, Phase.DEAL, f"deal smazzata {state.smazzata}")
    seed = _check_seed(state, command.seed)
    assert state.seating is not None
    events = state.engine.deal(state.ruleset, state.seating, state.dealer, state.smazzata,
                               _effective(state, seed))
    if state.contributions:
        # The deal names the house's commitment, the one published before the contributions.
        events = tuple(replace(e, seed_commitment=state.commitment)
                       if isinstance(e, SmazzataDealt) else e for e in events)
    if command.claimed is not None and tuple(command.claimed) != events:
        raise RecordRefused("deal-from-seed", _deal_difference(command.claimed, events))
    return tuple(events)


def _deal_difference(claimed: tuple[PlayEvent, ...], derived: tuple[PlayEvent, ...]) -> str:
    for index, (mine, theirs) in enumerate(zip(claimed, derived, strict=False)):
        if mine != theirs:
            return (f"deal event {index + 1} does not follow from the seed: recorded {mine}, "
                    f"the seed gives {theirs}")
    return (f"the deal has {len(claimed)} events; the seed gives {len(derived)}")


def _play(state: MatchState, command: PlayCard | DeclareAccuso) -> tuple[MatchEvent, ...]:
    _need(state, Phase.PLAY, "play")
    to_move = state.to_move()
    if isinstance(command, PlayCard) and command.seat != to_move:
        raise RecordRefused("turn", f"seat {command.seat} cannot play: seat {to_move} is to move")
    return tuple(state.engine.decide(state.game, command))


def _reveal(state: MatchState, command: RevealSeed) -> tuple[MatchEvent, ...]:
    if state.phase is not Phase.REVEAL:
        raise RecordRefused("seed-reveal", f"the seed of smazzata {state.smazzata} is revealed "
                                           "only once the smazzata is over")
    seed = _check_seed(state, command.seed)
    revealed = SeedRevealed(smazzata=state.smazzata, seed=seed.hex)
    standing = state.rules.standing(_format(state), state.counted(), state.adjustment)
    if not standing.over:
        return (revealed,)
    return (revealed, settled(standing, standing.reason, len(state.ended)))


def _reveal_after_cappotto(state: MatchState, command: RevealSeed) -> SeedRevealed:
    """The seed of a smazzata a cappotto cut short (C11): the match ended at the play, so the
    seed is revealed after the MatchEnded, in an action of its own."""
    return SeedRevealed(smazzata=state.smazzata, seed=_check_seed(state, command.seed).hex)


def _reveal_match_seed(state: MatchState, command: RevealMatchSeed) -> MatchSeedRevealed:
    """The match seed, once the match is over: it must be the one committed at creation and
    give every smazzata seed revealed and the first dealer (docs/shuffle.md section 2)."""
    assert state.created is not None
    promise = state.created.match_seed_commitment
    if state.phase is not Phase.ENDED:
        raise RecordRefused("seed-reveal", "the match seed is revealed once the match is over")
    if promise is None or state.match_seed is not None:
        raise RecordRefused("seed-reveal", "this match has no match seed to reveal (none "
                                           "committed, or already revealed)")
    if state.commitment is not None:
        raise RecordRefused("seed-reveal", f"the seed of smazzata {state.smazzata} is revealed "
                                           "before the match seed")
    try:
        check_commitment(command.seed, promise)
    except SeedError as error:
        raise RecordRefused("seed-commitment", f"match seed: {error}") from None
    for number, seed in state.revealed:
        if smazzata_seed(command.seed, number).hex != seed:
            raise RecordRefused("match-seed", f"the seed revealed for smazzata {number} is not "
                                              "the one the match seed gives (docs/shuffle.md §2)")
    if first_dealer(command.seed, len(state.created.players)) != state.created.first_dealer:
        raise RecordRefused("match-seed", "the first dealer is not the one the match seed gives")
    return MatchSeedRevealed(seed=command.seed.hex)


def _format(state: MatchState) -> Any:
    """The match format, parsed once when MatchCreated was folded (the game's own type)."""
    assert state.setup is not None
    return state.setup.match_format


def _pending_reveal(state: MatchState, seed: Seed | None) -> tuple[SeedRevealed, ...]:
    """A match ended by a seat's fault mid-smazzata still reveals that smazzata's seed."""
    if state.commitment is None:
        return ()
    return (SeedRevealed(smazzata=state.smazzata, seed=_check_seed(state, seed).hex),)


def _forfeit(state: MatchState, seat: int, reason: str) -> tuple[tuple[int, int], MatchEnded]:
    """The penalty gets the smazzata in progress, or between smazzate (COMMIT, DEAL, REVEAL) the
    state before the next deal: a whole fresh smazzata is open then (C12, B2)."""
    assert state.seating is not None and state.setup is not None
    game = state.game if state.phase is Phase.PLAY else state.setup.initial()
    awarded, standing = state.rules.forfeit(_format(state), state.counted(), game,
                                            state.seating.side_of(seat), state.adjustment)
    return awarded, settled(standing, reason, len(state.ended))


def match_decided(state: MatchState) -> bool:
    """The smazzata just ended decided the match (phase REVEAL): only its seed reveal is left,
    so nobody can time out or abandon any more."""
    if state.phase is not Phase.REVEAL:
        return False
    return state.rules.standing(_format(state), state.counted(), state.adjustment).over


def _timeout(state: MatchState, command: RecordTimeout, at: datetime) -> tuple[MatchEvent, ...]:
    if state.phase is not Phase.PLAY:
        raise RecordRefused("phase", "a timeout is recorded only during play: between "
                                       "smazzate no seat is to move (the commitment, the deal "
                                       "and the seed reveal are the table's); record an abandon")
    if command.seat != state.to_move():
        raise RecordRefused("timeout", f"seat {command.seat} is not the one to move "
                                       f"(seat {state.to_move()} is): it cannot time out")
    assert state.last_at is not None and state.created is not None
    elapsed = millis(utc(at) - state.last_at)
    used = state.bank_used_ms[command.seat]
    limit = _limit_run_out(state, elapsed, used)
    reveal = _pending_reveal(state, command.seed)
    awarded, ended = _forfeit(state, command.seat, "timeout")
    fact = TimeoutRecorded(seat=command.seat, waiting_since=stamp(state.last_at),
                           elapsed_ms=elapsed, bank_used_ms=used, limit=limit, awarded=awarded)
    return (fact, *reveal, ended)


def _limit_run_out(state: MatchState, elapsed: int, used: int) -> str:
    assert state.created is not None
    clock = state.created.time_control
    if clock.per_move is not None and elapsed >= clock.per_move * 1000:
        return "per_move"
    if clock.bank is not None and used + elapsed >= clock.bank * 1000:
        return "bank"
    raise RecordRefused("timeout", f"not justified by the clock: waited {elapsed} ms of a "
                                   f"per-move limit of {clock.per_move} s; thinking time used "
                                   f"{used} ms of a bank of {clock.bank} s")


def _abandon(state: MatchState, command: RecordAbandon, at: datetime) -> tuple[MatchEvent, ...]:
    assert state.seating is not None and state.created is not None
    if not 0 <= command.seat < state.seating.players:
        raise RecordRefused("abandon", f"seat {command.seat} does not exist")
    if command.reason not in ABANDON_REASONS:
        raise RecordRefused("abandon", f"reason {command.reason!r}: expected one of "
                                       f"{', '.join(ABANDON_REASONS)}")
    if match_decided(state):
        raise RecordRefused("abandon", f"smazzata {state.smazzata} decided the match: only its "
                                       "seed reveal is left, there is nothing to abandon")
    last_seen, absent = _absence(state, command, at)
    reveal = _pending_reveal(state, command.seed)
    awarded, ended = _forfeit(state, command.seat, "abandon")
    fact = Abandoned(seat=command.seat, reason=command.reason, last_seen=last_seen,
                     absent_ms=absent, awarded=awarded)
    return (fact, *reveal, ended)


def _absence(state: MatchState, command: RecordAbandon,
             at: datetime) -> tuple[str | None, int | None]:
    if command.reason == "ritiro":
        return None, None
    if command.last_seen is None:
        raise RecordRefused("abandon", "an abandon for absence needs the time the seat was "
                                       "last seen")
    seen = utc(command.last_seen)
    acted = state.last_action[command.seat]
    if acted is not None and seen < acted:
        raise RecordRefused("abandon", f"seat {command.seat} last seen {stamp(seen)}, before its "
                                       f"own last play at {stamp(acted)}")
    absent = millis(utc(at) - seen)
    limit = state.created.time_control.abandon_after if state.created else 0
    if absent < limit * 1000:
        raise RecordRefused("abandon", f"not justified by the clock: absent {absent} ms, the "
                                       f"limit is {limit} s")
    return stamp(seen), absent


def _ruling(state: MatchState, command: RecordRuling) -> tuple[MatchEvent, ...]:
    _check_ruling(state, command)
    fact = RulingRecorded(arbiter=command.arbiter, reason=command.reason, kind=command.kind,
                          smazzata=command.smazzata, adjustment=command.adjustment,
                          refers_to=command.refers_to)
    if state.phase is not Phase.ENDED:
        return (fact,)
    return (fact, _restated(state, command))


def _check_ruling(state: MatchState, command: RecordRuling) -> None:
    if not command.arbiter.strip() or not command.reason.strip():
        raise RecordRefused("ruling", "a ruling names its arbiter and its reason")
    if command.kind not in RULING_KINDS:
        raise RecordRefused("ruling", f"kind {command.kind!r}: expected one of "
                                      f"{', '.join(RULING_KINDS)}")
    if command.refers_to is not None and not 1 <= command.refers_to <= state.version:
        raise RecordRefused("ruling", f"refers to event {command.refers_to}, which the match "
                                      f"does not have (it has {state.version})")
    if command.kind == "annul-smazzata":
        finished = {e.number for e in state.ended}
        if command.smazzata not in finished or command.smazzata in state.annulled:
            raise RecordRefused("ruling", f"smazzata {command.smazzata} is not a finished, "
                                          "counted smazzata")
        if command.adjustment != (0, 0):
            raise RecordRefused("ruling", "an annulment adjusts no score by itself")


def _restated(state: MatchState, command: RecordRuling) -> MatchEnded:
    """The result again after a ruling on a finished match; the last MatchEnded is the result."""
    assert state.result is not None
    how = state.result.settlement.how if state.result.settlement else None
    if state.forfeit is not None:
        scores = (state.result.scores[0] + command.adjustment[0],
                  state.result.scores[1] + command.adjustment[1])
        winner = state.result.winner
        settlement = state.result.settlement
        unit = settlement.unit if settlement else "punti"
        points = settlement.points if settlement else state.result.scores
        if unit == "punti":
            points = (points[0] + command.adjustment[0], points[1] + command.adjustment[1])
        mp = 0 if winner is None else max(0, points[winner] - points[1 - winner])
        return settled(Standing(scores, True, winner, "ruling", mp, unit, points), "ruling",
                       state.result.smazzate, how)
    annulled = state.annulled | ({command.smazzata} if command.smazzata is not None
                                 and command.kind == "annul-smazzata" else set())
    counted = state.counted(annulled)
    adjustment = (state.adjustment[0] + command.adjustment[0],
                  state.adjustment[1] + command.adjustment[1])
    standing = state.rules.standing(_format(state), counted, adjustment)
    return settled(standing, "ruling", state.result.smazzate, how)
