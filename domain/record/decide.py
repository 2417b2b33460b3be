"""`decide`: a command checked against the record and the game's rules, and the events it causes.

Nothing is recorded unless `decide` returns: an illegal play, a play out of turn, a deal that does
not follow from its seed, a seed that does not match its commitment, a timeout the clock does not
justify are refused with `RecordRefused` (a RuleViolation naming the rule).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from domain.events import SmazzataEnded
from domain.game import DeclareAccuso, PlayCard
from domain.record import decide_claims as claims
from domain.record import decide_seeds as seeds
from domain.record import decide_transcribed as transcribed
from domain.record.clock import ClockError, millis, stamp, utc
from domain.record.commands import (
    ClaimScore,
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
    TranscribeTags,
)
from domain.record.decide_transcribed import PLAY_A_CARD, Decided
from domain.record.events import (
    PROVENANCES,
    Abandoned,
    MatchCreated,
    MatchEnded,
    MatchResumed,
    RulingRecorded,
    SeedRevealed,
    TimeoutRecorded,
)
from domain.record.games import Standing, set_up
from domain.record.match import MatchEvent, MatchState, Phase, evolve, played, thought
from domain.record.outcomes import cut_short, outcomes_folded, settled
from domain.record.refusal import RecordRefused, need, one_based
from domain.shuffle import Seed
from domain.text import said_of, say

__all__ = ["ABANDON_REASONS", "RULING_KINDS", "Decided", "RecordRefused", "decide",
           "decide_checked", "decide_folded"]

_PLAY = Phase.PLAY   # an enum member read off its class goes through the enum's metaclass
ABANDON_REASONS = ("ritiro", "assenza")
RULING_KINDS = ("adjust-score", "annul-smazzata")


def decide(state: MatchState, command: MatchCommand, at: datetime) -> tuple[MatchEvent, ...]:
    """The events `command` causes at `at`, or RecordRefused / RuleViolation. Pure."""
    return decide_checked(state, command, at).events


def decide_checked(state: MatchState, command: MatchCommand, at: datetime) -> Decided:
    """`decide`, with what the known cards of a transcribed match could not check."""
    return _checked(state, command, at)[0]


def decide_folded(state: MatchState, command: MatchCommand,
                  at: datetime) -> tuple[Decided, MatchState]:
    """`decide_checked`, and `state` with its events folded at `at` (as `evolve` folds them one
    by one): the end of a smazzata, which completing its events folds already, is not folded
    twice (its score is the costly part)."""
    if type(command) is PlayCard and state.phase is _PLAY:
        # Most commands of a record: of the record's checks only the clock's refuses a play in
        # play. A transcribed play is decided and folded at once.
        _check_clock(state, at)
        steady = state.steady
        if steady.transcribed:
            return transcribed.play(state, command, at)
        events, game = _play(state, command)
        whole = cut_short(state, events) if steady.cuts_short else events
        if whole is events and type(events[-1]) is not SmazzataEnded:
            # The play and what follows it by itself, in play (a smazzata's end is its last
            # event): the game's state is the one the rules computed, the clock the play's.
            bank, seen = thought(state, command.seat, at)
            return Decided(events), played(state, game, state.version + len(events), at,
                                           bank, seen)
        events, folded = outcomes_folded(state, whole, at)
        decided = Decided(events)
    else:
        decided, folded = _checked(state, command, at)
    if folded is None:
        folded = state
        for event in decided.events:
            folded = evolve(folded, event, at)
    return decided, folded


def _checked(state: MatchState, command: MatchCommand,
             at: datetime) -> tuple[Decided, MatchState | None]:
    _check_clock(state, at)
    if type(command) is PlayCard and state.phase is Phase.PLAY and state.transcribed:
        # Most commands of a transcribed record: decided and folded at once (none of the
        # checks below refuses a play in play).
        return transcribed.play(state, command, at)
    if isinstance(command, CreateMatch):
        return Decided((_create(state, command),)), None
    if state.phase is Phase.NEW:
        raise RecordRefused("phase", say("the match has not been created yet"))
    if isinstance(command, TranscribeTags):
        return Decided((claims.tags(state, command),)), None
    if isinstance(command, ClaimScore):   # also after the end: a score sheet arrives later
        return Decided((claims.claim(state, command),)), None
    if isinstance(command, RecordRuling):
        return Decided(_ruling(state, command)), None
    if isinstance(command, RevealMatchSeed):
        return Decided((seeds.reveal_match_seed(state, command),)), None
    if state.phase is Phase.ENDED:
        if isinstance(command, RevealSeed) and state.commitment is not None:
            return Decided((seeds.reveal_after_cappotto(state, command),)), None
        raise RecordRefused("phase", say("the match is over: only an arbiter's ruling may "
                                         "follow"))
    if isinstance(command, RecordIrregularPlay) \
            or (isinstance(command, PlayCard) and state.transcribed):
        return transcribed.play(state, command, at)
    decided = _decided(state, command, at)
    # Decided built directly: dataclasses.replace's field introspection, once per play, showed
    # in the notation benchmark's profile (docs/benchmarks.md, issue 12).
    events, folded = outcomes_folded(state, cut_short(state, decided.events), at)
    return Decided(events, decided.notes), folded


def _decided(state: MatchState, command: MatchCommand, at: datetime) -> Decided:
    if isinstance(command, TranscribeDeal | TranscribeAccuso):
        return _transcription(state, command)
    if isinstance(command, PlayCard | DeclareAccuso):
        if state.transcribed:   # a DeclareAccuso: the plays are decided by `_checked`
            return _transcription(state, command)
        return Decided(_play(state, command)[0])
    if isinstance(command, CommitSeed):
        return Decided((seeds.commit(state, command),))
    if isinstance(command, ContributeSeed):
        return Decided((seeds.contribute(state, command),))
    if isinstance(command, DealSmazzata):
        return Decided(seeds.deal(state, command))
    if isinstance(command, RevealSeed):
        return Decided(seeds.reveal(state, command))
    if isinstance(command, RecordTimeout):
        return Decided(_timeout(state, command, at))
    if isinstance(command, RecordAbandon):
        return Decided(_abandon(state, command, at))
    raise RecordRefused("command", say("{command} is not a command of a match",
                                       command=type(command).__name__))


def _transcription(state: MatchState, command: TranscribeDeal | TranscribeAccuso | PlayCard
                   | DeclareAccuso) -> Decided:
    if isinstance(command, TranscribeDeal):
        return transcribed.deal(state, command)
    if isinstance(command, TranscribeAccuso | DeclareAccuso):
        return transcribed.accuso(state, command)
    raise RecordRefused("command", say("{command} is decided with its fold",
                                       command=type(command).__name__))


def _check_clock(state: MatchState, at: datetime) -> None:
    if at.tzinfo is UTC:   # what the record writes: no conversion to make
        moment = at
    else:
        try:
            moment = utc(at)
        except ClockError as error:
            raise RecordRefused("clock", said_of(error) or str(error)) from None
    if state.last_at is not None and moment < state.last_at:
        raise RecordRefused("clock", say("time {time} is before the previous event ({previous}): "
                                         "the record only goes forward", time=stamp(moment),
                                         previous=stamp(state.last_at)))


def _create(state: MatchState, command: CreateMatch) -> MatchCreated:
    need(state, Phase.NEW, say("create the match"))
    rules = state.catalog.get(command.game)
    if rules is None:
        raise RecordRefused("match-setup", say("unknown game {game!r}; known: {known}",
                                               game=command.game,
                                               known=", ".join(sorted(state.catalog))))
    seats = len(command.players)
    try:
        setup = set_up(rules, command.ruleset, command.match_format, seats)
    except ValueError as error:
        raise RecordRefused("match-setup", said_of(error) or str(error)) from None
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
        raise RecordRefused("provenance", say("provenance {kind!r}: expected one of {known}",
                                              kind=origin.kind, known=", ".join(PROVENANCES)))
    written = origin.source is not None or origin.importer is not None
    if origin.transcribed and not (origin.source or "").strip():
        raise RecordRefused("provenance", say("a transcribed match names its source file"))
    if not origin.transcribed and written:
        raise RecordRefused("provenance", say("only a transcribed match has a source file and "
                                              "an importer"))
    promise = command.match_seed_commitment
    if promise is not None and not seeds.HEX64.fullmatch(promise):
        raise RecordRefused("seed-commitment", say("match seed commitment {commitment!r} is "
                                                   "not 64 lowercase hex digits (SHA-256)",
                                                   commitment=promise))
    if promise is not None and origin.transcribed:
        raise RecordRefused("provenance", say("a transcribed match was not dealt from a match "
                                              "seed"))
    if command.visibility.carte_scoperte and len(command.players) != 4:
        raise RecordRefused("match-setup", say("carte scoperte is a rule of pairs: 4 players"))


def _check_setup(command: CreateMatch, seats: int) -> None:
    if any(not name.strip() for name in command.players):
        raise RecordRefused("match-setup", say("every seat needs a player's name"))
    if not 0 <= command.first_dealer < seats:
        raise RecordRefused("match-setup", say("first dealer {dealer} is not a seat of a table "
                                               "of {seats}", dealer=command.first_dealer + 1,
                                               seats=seats))
    clock = command.time_control
    limits = (clock.per_move, clock.bank, clock.abandon_after)
    if any(limit is not None and limit <= 0 for limit in limits):
        raise RecordRefused("match-setup", say("time control limits must be positive: "
                                               "{time_control}", time_control=clock))
    placed = (command.tournament, command.round, command.table)
    if any(p is None for p in placed) and any(p is not None for p in placed):
        raise RecordRefused("match-setup", say("a tournament match needs tournament, round and "
                                               "table"))


def _play(state: MatchState,
          command: PlayCard | DeclareAccuso) -> tuple[tuple[MatchEvent, ...], Any]:
    """The events of a play or accuso in play, and the game's state after them."""
    if state.phase is not _PLAY:
        need(state, Phase.PLAY, PLAY_A_CARD)   # refused
    setup = state.steady.setup
    assert setup is not None   # a match in play was created
    engine = setup.rules.engine
    game = state.game
    if type(command) is PlayCard:
        to_move = engine.to_move(game)
        if command.seat != to_move:
            raise RecordRefused("turn", say("seat {seat} cannot play: seat {to_move} is to "
                                            "move", seat=command.seat + 1,
                                            to_move=one_based(to_move)))
    return engine.decide_folded(game, command)


def _pending_reveal(state: MatchState, seed: Seed | None) -> tuple[SeedRevealed, ...]:
    """A match ended by a seat's fault mid-smazzata still reveals that smazzata's seed."""
    if state.commitment is None:
        return ()
    return (SeedRevealed(smazzata=state.smazzata, seed=seeds.check_seed(state, seed).hex),)


def _forfeit(state: MatchState, seat: int,
             reason: str) -> tuple[tuple[int, int], tuple[int, int], MatchEnded]:
    """The penalty gets the smazzata in progress, or between smazzate (COMMIT, DEAL, REVEAL) the
    state before the next deal: a whole fresh smazzata is open then (C12, B2). Returns the
    penalty awarded, the points of that smazzata already made (kept), and the result."""
    assert state.seating is not None and state.setup is not None
    game = state.game if state.phase is Phase.PLAY else state.setup.initial()
    fmt = seeds.format_of(state)
    kept = state.rules.made_so_far(fmt, state.counted(), game)
    awarded, standing = state.rules.forfeit(fmt, state.counted(), game,
                                            state.seating.side_of(seat), state.adjustment)
    return awarded, kept, settled(standing, reason, len(state.ended))


def match_decided(state: MatchState) -> bool:
    """The smazzata just ended decided the match (phase REVEAL): only its seed reveal is left,
    so nobody can time out or abandon any more."""
    if state.phase is not Phase.REVEAL:
        return False
    return state.rules.standing(seeds.format_of(state), state.counted(), state.adjustment).over


def _timeout(state: MatchState, command: RecordTimeout, at: datetime) -> tuple[MatchEvent, ...]:
    if state.phase is not Phase.PLAY:
        raise RecordRefused("phase", say("a timeout is recorded only during play: between "
                                         "smazzate no seat is to move (the commitment, the deal "
                                         "and the seed reveal are the table's); record an "
                                         "abandon"))
    if command.seat != state.to_move():
        raise RecordRefused("timeout", say("seat {seat} is not the one to move (seat {to_move} "
                                           "is): it cannot time out", seat=command.seat + 1,
                                           to_move=one_based(state.to_move())))
    assert state.last_at is not None and state.created is not None
    elapsed = millis(utc(at) - state.last_at)
    used = state.bank_used_ms[command.seat]
    limit = _limit_run_out(state, elapsed, used)
    reveal = _pending_reveal(state, command.seed)
    awarded, kept, ended = _forfeit(state, command.seat, "timeout")
    fact = TimeoutRecorded(seat=command.seat, waiting_since=stamp(state.last_at),
                           elapsed_ms=elapsed, bank_used_ms=used, limit=limit, awarded=awarded,
                           kept=kept)
    return (fact, *reveal, ended)


def _limit_run_out(state: MatchState, elapsed: int, used: int) -> str:
    assert state.created is not None
    clock = state.created.time_control
    if clock.per_move is not None and elapsed >= clock.per_move * 1000:
        return "per_move"
    if clock.bank is not None and used + elapsed >= clock.bank * 1000:
        return "bank"
    raise RecordRefused("timeout", say("not justified by the clock: waited {elapsed} ms of a "
                                       "per-move limit of {per_move} s; thinking time used "
                                       "{used} ms of a bank of {bank} s", elapsed=elapsed,
                                       per_move=clock.per_move, used=used, bank=clock.bank))


def _abandon(state: MatchState, command: RecordAbandon, at: datetime) -> tuple[MatchEvent, ...]:
    assert state.seating is not None and state.created is not None
    if not 0 <= command.seat < state.seating.players:
        raise RecordRefused("abandon", say("seat {seat} does not exist",
                                           seat=command.seat + 1))
    if command.reason not in ABANDON_REASONS:
        raise RecordRefused("abandon", say("reason {reason!r}: expected one of {known}",
                                           reason=command.reason,
                                           known=", ".join(ABANDON_REASONS)))
    if match_decided(state):
        raise RecordRefused("abandon", say("smazzata {smazzata} decided the match: only its "
                                           "seed reveal is left, there is nothing to abandon",
                                           smazzata=state.smazzata + 1))
    last_seen, absent = _absence(state, command, at)
    reveal = _pending_reveal(state, command.seed)
    awarded, kept, ended = _forfeit(state, command.seat, "abandon")
    fact = Abandoned(seat=command.seat, reason=command.reason, last_seen=last_seen,
                     absent_ms=absent, awarded=awarded, kept=kept)
    return (fact, *reveal, ended)


def _absence(state: MatchState, command: RecordAbandon,
             at: datetime) -> tuple[str | None, int | None]:
    if command.reason == "ritiro":
        return None, None
    if command.last_seen is None:
        raise RecordRefused("abandon", say("an abandon for absence needs the time the seat was "
                                           "last seen"))
    seen = utc(command.last_seen)
    acted = state.last_action[command.seat]
    if acted is not None and seen < acted:
        raise RecordRefused("abandon", say("seat {seat} last seen {seen}, before its own last "
                                           "play at {played}", seat=command.seat + 1,
                                           seen=stamp(seen), played=stamp(acted)))
    absent = millis(utc(at) - seen)
    limit = state.created.time_control.abandon_after if state.created else 0
    if absent < limit * 1000:
        raise RecordRefused("abandon", say("not justified by the clock: absent {absent} ms, "
                                           "the limit is {limit} s", absent=absent,
                                           limit=limit))
    return stamp(seen), absent


def _ruling(state: MatchState, command: RecordRuling) -> tuple[MatchEvent, ...]:
    _check_ruling(state, command)
    fact = RulingRecorded(arbiter=command.arbiter, reason=command.reason, kind=command.kind,
                          smazzata=command.smazzata, adjustment=command.adjustment,
                          refers_to=command.refers_to, signature=command.signature)
    if state.phase is not Phase.ENDED:
        return (fact,)
    resumed = _resumed(state, command)
    return (fact, resumed if resumed is not None else restated(state, command))


def _resumed(state: MatchState, command: RecordRuling) -> MatchResumed | None:
    """An annulment that leaves the finished match short of its end resumes it: the table plays
    on, as it would have had the ruling come before the end (a seeded smazzata's end is settled
    only at its seed's reveal, so a ruling in between already does so). Not after a forfeit,
    which ends the match whatever the score. Once the match seed is public the smazzate still to
    come are dealt from fresh seeds (decide_seeds.commit refuses the ones it gives)."""
    if command.kind != "annul-smazzata" or command.smazzata is None \
            or state.forfeit is not None:
        return None
    counted = state.counted(state.annulled | {command.smazzata})
    standing = state.rules.standing(seeds.format_of(state), counted, state.adjustment)
    if standing.over:
        return None
    return MatchResumed(scores=standing.scores, smazzate=len(state.ended))


def _check_ruling(state: MatchState, command: RecordRuling) -> None:
    if not command.arbiter.strip() or not command.reason.strip():
        raise RecordRefused("ruling", say("a ruling names its arbiter and its reason"))
    _check_signature_shape(command)
    if command.kind not in RULING_KINDS:
        raise RecordRefused("ruling", say("kind {kind!r}: expected one of {known}",
                                          kind=command.kind, known=", ".join(RULING_KINDS)))
    if command.refers_to is not None and not 1 <= command.refers_to <= state.version:
        raise RecordRefused("ruling", say("refers to event {event}, which the match does not "
                                          "have (it has {events})", event=command.refers_to,
                                          events=state.version))
    if command.kind == "annul-smazzata":
        finished = {e.number for e in state.ended}
        if command.smazzata is None:
            raise RecordRefused("ruling", say("an annulment names the smazzata it annuls"))
        if command.smazzata not in finished or command.smazzata in state.annulled:
            raise RecordRefused("ruling", say("smazzata {smazzata} is not a finished, counted "
                                              "smazzata", smazzata=command.smazzata + 1))
        if command.adjustment != (0, 0):
            raise RecordRefused("ruling", say("an annulment adjusts no score by itself"))


def _check_signature_shape(command: RecordRuling) -> None:
    """A signature, when there is one, is a key id (64 hex) and an Ed25519 signature (128 hex);
    whether it is right is checked where the keys are (projections/store/signatures.py)."""
    signed = command.signature
    if signed is not None and not (seeds.HEX64.fullmatch(signed.key)
                                   and _HEX128.fullmatch(signed.value)):
        raise RecordRefused("ruling", say("a ruling's signature is a key id of 64 and a "
                                          "signature of 128 lowercase hex digits"))


_HEX128 = re.compile(r"[0-9a-f]{128}")


def restated(state: MatchState, command: RecordRuling) -> MatchEnded:
    """The result again after a ruling on a finished match; the last MatchEnded is the result.
    Before MatchResumed, also what an annulment that left the match short of its end gave
    (domain/record/audit.py reads such a record as it was made)."""
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
    standing = state.rules.standing(seeds.format_of(state), counted, adjustment)
    return settled(standing, "ruling", state.result.smazzate, how)
