"""The audit of a recorded match: replay it through `decide` and compare, event by event.

The record is trusted only as far as the rules re-derive it: each recorded event that starts an
action is turned back into the command that would have caused it (a CardPlayed into a PlayCard,
a SmazzataDealt into a DealSmazzata with the seed revealed later, a transcribed deal into a
TranscribeDeal), `decide` is asked again, and what it returns must be exactly what was recorded,
with one timestamp per action.

Every finding is collected, each with its severity: a record that disagrees with the rules or
its seeds is a FAILURE (the replay then goes on from what was recorded, as long as it can be
folded); an irregularity the table noted is a FINDING for the arbiter, and so is a claimed score
(ScoreClaimed, a header's Result) that differs from the computed one; a check the unknown cards
of a transcribed record leave open is a NOTE. The match's verdict is the worst of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum

from msgspec import structs

from domain.events import AccusoDeclared, CardPlayed, DealAnnulled, SmazzataDealt, SmazzataEnded
from domain.game import DeclareAccuso, PlayCard, RuleViolation
from domain.record.clock import ClockError, parse_stamp
from domain.record.commands import (
    ClaimScore,
    CommitSeed,
    ContributeSeed,
    CreateMatch,
    DealLayout,
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
from domain.record.decide import decide_folded, restated
from domain.record.decide_claims import TAGS_VERSION, claim_differences, result_difference
from domain.record.events import (
    LIVE,
    Abandoned,
    IrregularityNoted,
    MatchCreated,
    MatchEnded,
    MatchResumed,
    MatchSeedRevealed,
    RulingRecorded,
    ScoreClaimed,
    SeedCommitted,
    SeedContributed,
    SeedRevealed,
    TableVisibility,
    TagsTranscribed,
    TimeoutRecorded,
)
from domain.record.games import GameRules
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.shuffle import Seed, SeedError, check_commitment
from domain.text import said_of, say

Recorded = tuple[MatchEvent, datetime]


class Severity(IntEnum):
    NOTE = 1       # a check the known cards cannot make (transcribed records)
    FINDING = 2    # an irregularity noted in the record: for the arbiter
    FAILURE = 3    # the record disagrees with its rules, seeds or clock

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Finding:
    """Something found at event `version` (1-based position in the match's stream)."""

    version: int
    check: str
    message: str
    severity: Severity = Severity.FAILURE


@dataclass(frozen=True, slots=True)
class Audit:
    findings: tuple[Finding, ...]
    state: MatchState
    pending: str | None = None   # what the record does not yet allow to check

    @property
    def ok(self) -> bool:
        """No failure: irregularities and notes are for the arbiter, not defects of the record."""
        return self.verdict is not Severity.FAILURE

    @property
    def verdict(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)

    def of(self, severity: Severity) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is severity)


class _Stop(Exception):
    def __init__(self, finding: Finding | None, pending: str | None = None) -> None:
        super().__init__(finding.message if finding else pending)
        self.finding = finding
        self.pending = pending


def audit(catalog: Mapping[str, GameRules], stream: Sequence[Recorded]) -> Audit:
    state = initial(catalog)
    index = 0
    findings: list[Finding] = []
    # The versions an irregularity refers to: the plays to look after for the notes on them.
    noted = frozenset(e.refers_to for e, _ in stream if type(e) is IrregularityNoted)
    try:
        while index < len(stream):
            state, index = _guarded_step(state, stream, index, findings, noted)
    except _Stop as stop:
        if stop.finding:
            findings.append(stop.finding)
        return Audit(_with_result(findings, state), state, stop.pending)
    return Audit(_with_result(findings, state), state, _in_progress(state))


def _with_result(findings: list[Finding], state: MatchState) -> tuple[Finding, ...]:
    """The findings, with the header's Result against the ended match's result
    (decide_claims.py) in its place: at the header's version, keeping the version order."""
    differs = result_difference(state)
    if differs is None:
        return tuple(findings)
    at = next((i for i, f in enumerate(findings) if f.version > TAGS_VERSION), len(findings))
    found = Finding(TAGS_VERSION, "claimed result", differs, Severity.FINDING)
    return (*findings[:at], found, *findings[at:])


def _in_progress(state: MatchState) -> str | None:
    if state.phase is Phase.ENDED:
        if state.commitment is not None:
            return say("ended; the seed of smazzata {smazzata} is not revealed yet",
                       smazzata=state.smazzata + 1)
        promised = state.created.match_seed_commitment if state.created else None
        if promised is not None and state.match_seed is None:
            return say("ended; the match seed is not revealed yet")
        return None
    if state.phase is Phase.NEW:
        return say("the match has no events")
    return say("in progress: smazzata {smazzata}, phase '{phase}'",
               smazzata=state.smazzata + 1, phase=state.phase.value)


def _guarded_step(state: MatchState, stream: Sequence[Recorded], index: int,
                  findings: list[Finding], noted: frozenset[int]) -> tuple[MatchState, int]:
    try:
        return _step(state, stream, index, findings, noted)
    except _Stop:
        raise
    except (ValueError, TypeError, LookupError, AttributeError) as error:
        # A recorded event the rules cannot even fold: the record is wrong at this event.
        raise _Stop(Finding(index + 1, "replay", say("{kind}: {error}",
                                                     kind=type(error).__name__,
                                                     error=said_of(error) or str(error)))
                    ) from None


def _step(state: MatchState, stream: Sequence[Recorded], index: int,
          findings: list[Finding], noted: frozenset[int]) -> tuple[MatchState, int]:
    at = stream[index][1]
    version = index + 1
    command = _infer(state, stream, index, noted)
    try:
        decided, folded = decide_folded(state, command, at)
    except RuleViolation as refused:
        # How many recorded events this action holds is unknown: the replay cannot go on.
        raise _Stop(Finding(version, refused.rule, refused.message)) from None
    expected = decided.events
    if type(command) is RecordRuling:
        expected = _as_made_before_resumption(state, command, expected, stream, index, findings)
    if decided.notes:
        findings.extend(Finding(version, "unverifiable", note, Severity.NOTE)
                        for note in decided.notes)
    if not _as_recorded(stream, index, expected, at):
        differs = [f for f in (_compare(stream, index + k, w, at)
                               for k, w in enumerate(expected)) if f is not None]
        if differs:
            findings.extend(differs)
            return _go_on(state, stream, index, len(expected)), index + len(expected)
    if expected is decided.events and type(command) is not ClaimScore:
        # What `decide` gave is what was recorded: its fold is the replay's (not folded twice).
        if noted:
            findings.extend(_irregularity(index + offset + 1, wanted)
                            for offset, wanted in enumerate(expected)
                            if isinstance(wanted, IrregularityNoted))
        return folded, index + len(expected)
    for offset, wanted in enumerate(expected):
        state = evolve(state, wanted, at)
        if isinstance(wanted, IrregularityNoted):
            findings.append(_irregularity(index + offset + 1, wanted))
        if isinstance(wanted, ScoreClaimed):   # the paper against the computed breakdown
            findings.extend(Finding(index + offset + 1, "claimed score", differs,
                                    Severity.FINDING)
                            for differs in claim_differences(state, wanted))
    return state, index + len(expected)


def _as_recorded(stream: Sequence[Recorded], index: int, expected: tuple[MatchEvent, ...],
                 at: datetime) -> bool:
    """What the rules give is what was recorded from `index` on, at one moment: most actions;
    any other `_compare` tells apart."""
    if index + len(expected) > len(stream):
        return False
    for recorded, wanted in zip(stream[index:index + len(expected)], expected, strict=True):
        if recorded[0] != wanted or recorded[1] != at:
            return False
    return True


def _as_made_before_resumption(state: MatchState, command: MatchCommand,
                               expected: tuple[MatchEvent, ...], stream: Sequence[Recorded],
                               index: int, findings: list[Finding]) -> tuple[MatchEvent, ...]:
    """A record made before a ruling could resume a match (MatchResumed, 2026-11-29): there an
    annulment that left the ended match short of its end restated the result, and the match
    stayed ended. That record is read as it was made, with a note; anything else recorded in
    place of the MatchResumed is compared as usual."""
    if len(expected) != 2 or not isinstance(expected[1], MatchResumed) \
            or not isinstance(command, RecordRuling) or index + 1 >= len(stream):
        return expected
    then = restated(state, command)
    if stream[index + 1][0] != then:
        return expected
    findings.append(Finding(index + 2, "ruling", say(
        "this annulment left the match short of its end, and the match stayed ended with the "
        "result restated, as rulings did when it was recorded; today's rules resume the match"),
        Severity.NOTE))
    return (expected[0], then)


def _go_on(state: MatchState, stream: Sequence[Recorded], index: int, count: int) -> MatchState:
    """After a disagreement, the replay goes on from what was recorded, if it folds at all."""
    for recorded, at in stream[index:index + count]:
        try:
            state = evolve(state, recorded, at)
        except (ValueError, TypeError, LookupError, AttributeError) as error:
            raise _Stop(Finding(index + 1, "replay", say("the replay stops here: what was "
                                                         "recorded cannot be folded ({error})",
                                                         error=said_of(error) or str(error)))
                        ) from None
    return state


def _irregularity(version: int, noted: IrregularityNoted) -> Finding:
    check = say("irregularity: {rule}", rule=noted.rule)
    if noted.verified:
        message = say("{message}; noted by {noted_by} at event {event}", message=noted.message,
                      noted_by=noted.noted_by, event=version)
    else:
        message = say("{message}; noted by {noted_by} at event {event} (the known cards cannot "
                      "show it)", message=noted.message, noted_by=noted.noted_by, event=version)
    return Finding(noted.refers_to, check, message, Severity.FINDING)


# Fields added by class_version 2: a version-1 record holds None there ("not recorded"), and
# is compared on the fields it has.
_ADDED = {MatchCreated: ("provenance", "visibility", "match_seed_commitment"),
          SmazzataEnded: ("outcome",), MatchEnded: ("settlement",)}


def _compare(stream: Sequence[Recorded], index: int, wanted: MatchEvent,
             at: datetime) -> Finding | None:
    version = index + 1
    if index >= len(stream):
        return Finding(version, "replay", say("missing: the rules give {wanted} here",
                                              wanted=wanted))
    recorded, recorded_at = stream[index]
    added = _ADDED.get(type(recorded), ())
    blank = {name: None for name in added if getattr(recorded, name) is None}
    if blank and type(wanted) is type(recorded):
        wanted = structs.replace(wanted, **blank)
    if recorded != wanted:
        return Finding(version, "replay", say("recorded {recorded}, but the rules give {wanted}",
                                              recorded=recorded, wanted=wanted))
    if recorded_at != at:
        return Finding(version, "clock", say("an event caused by the same action as the one "
                                             "before it must carry the same timestamp"))
    return None


def _infer(state: MatchState, stream: Sequence[Recorded], index: int,
           noted: frozenset[int]) -> MatchCommand:
    event = stream[index][0]
    if type(event) is CardPlayed:
        play = PlayCard(seat=event.seat, card=event.card, capture=event.capture,
                        matta_value=event.matta_value)
        return _noted(play, stream, index) if index + 1 in noted else play
    if isinstance(event, AccusoDeclared) and state.phase is Phase.PLAY:
        if state.transcribed:
            return TranscribeAccuso(seat=event.seat, kind=event.kind, cards=event.cards,
                                    matta_value=event.matta_value)
        return DeclareAccuso(seat=event.seat, kind=event.kind, matta_value=event.matta_value)
    if isinstance(event, SmazzataDealt):
        if event.seed_commitment is None:
            return _transcribed_deal(stream, index)
        return DealSmazzata(seed=_seed_of_smazzata(state, stream, index))
    if isinstance(event, SeedCommitted):
        return CommitSeed(commitment=event.commitment)
    if isinstance(event, SeedContributed):
        return ContributeSeed(seat=event.seat, contribution=_bytes(event, index + 1))
    if isinstance(event, SeedRevealed):
        return RevealSeed(seed=_seed(event.seed, index + 1))
    if isinstance(event, MatchSeedRevealed):
        return RevealMatchSeed(seed=_seed(event.seed, index + 1))
    if isinstance(event, MatchCreated):
        return _creation(event)
    return _other(event, stream, index)


def _noted(play: PlayCard, stream: Sequence[Recorded],
           index: int) -> PlayCard | RecordIrregularPlay:
    """The play at `index` (which an irregularity refers to), with the notes recorded right
    after it."""
    noted = [e for e, _ in stream[index + 1:index + 8] if isinstance(e, IrregularityNoted)
             and e.refers_to == index + 1]
    if not noted:
        return play
    unverified = next((n.rule for n in noted if not n.verified), None)
    return RecordIrregularPlay(play=play, noted_by=noted[0].noted_by, rule=unverified)


def _transcribed_deal(stream: Sequence[Recorded], index: int) -> TranscribeDeal:
    """The attempts of one transcribed deal: each annulled one is followed by DealAnnulled."""
    layouts: list[DealLayout] = []
    dealer = None
    while index < len(stream):
        dealt = stream[index][0]
        if not isinstance(dealt, SmazzataDealt):
            break
        dealer = dealt.dealer
        layouts.append(DealLayout(hands=dealt.hands, table=dealt.table, stock=dealt.stock,
                                  briscola=dealt.briscola))
        following = stream[index + 1][0] if index + 1 < len(stream) else None
        if not isinstance(following, DealAnnulled):
            break
        index += 2
    return TranscribeDeal(layout=layouts[-1], annulled=tuple(layouts[:-1]), dealer=dealer)


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
                            refers_to=event.refers_to, signature=event.signature)
    if isinstance(event, TagsTranscribed):
        return TranscribeTags(tags=event.tags, content_hash=event.content_hash)
    if isinstance(event, ScoreClaimed):
        return ClaimScore(smazzata=event.smazzata, rows=event.rows, claimed_by=event.claimed_by)
    raise _Stop(Finding(index + 1, "order", say("{event} cannot start an action here: nothing "
                                                "recorded before it causes it",
                                                event=type(event).__name__)))


def _creation(event: MatchCreated) -> CreateMatch:
    return CreateMatch(game=event.game, ruleset=event.ruleset, players=event.players,
                       match_format=event.match_format, time_control=event.time_control,
                       first_dealer=event.first_dealer, tournament=event.tournament,
                       round=event.round, table=event.table,
                       provenance=event.provenance or LIVE,
                       visibility=event.visibility or TableVisibility(),
                       match_seed_commitment=event.match_seed_commitment)


def _seed(text: str, version: int) -> Seed:
    try:
        return Seed.from_hex(text)
    except SeedError as error:
        raise _Stop(Finding(version, "seed", said_of(error) or str(error))) from None


def _bytes(event: SeedContributed, version: int) -> bytes:
    try:
        return bytes.fromhex(event.contribution)
    except ValueError:
        raise _Stop(Finding(version, "seed-contribution",
                            say("contribution {contribution!r} is not hex",
                                contribution=event.contribution))) from None


def _moment(text: str | None, version: int) -> datetime | None:
    try:
        return None if text is None else parse_stamp(text)
    except ClockError as error:
        raise _Stop(Finding(version, "clock", said_of(error) or str(error))) from None


def _reveal_after(stream: Sequence[Recorded], index: int) -> Seed | None:
    following = stream[index + 1][0] if index + 1 < len(stream) else None
    return _seed(following.seed, index + 2) if isinstance(following, SeedRevealed) else None


def _committed(state: MatchState, seed: Seed, version: int) -> Seed:
    """The deal is checked with the seed only if that seed is the one committed to."""
    try:
        check_commitment(seed, state.commitment or "")
    except SeedError:
        raise _Stop(Finding(version, "seed-commitment",
                            say("the seed revealed for smazzata {smazzata} does not match the "
                                "commitment recorded before its deal",
                                smazzata=state.smazzata + 1))) from None
    return seed


def _seed_of_smazzata(state: MatchState, stream: Sequence[Recorded], index: int) -> Seed:
    """The seed revealed later for the smazzata being dealt: a deal is checked only with it."""
    ended_at: int | None = None   # a cappotto (C11) reveals the seed after the MatchEnded
    for later in range(index + 1, len(stream)):
        event = stream[later][0]
        if isinstance(event, SeedRevealed) and event.smazzata == state.smazzata:
            return _committed(state, _seed(event.seed, later + 1), later + 1)
        if isinstance(event, MatchEnded) and ended_at is None:
            ended_at = later
        if isinstance(event, SeedCommitted | MatchSeedRevealed):
            ended_at = later if ended_at is None else ended_at
            break
    if ended_at is not None:
        raise _Stop(Finding(ended_at + 1, "seed-reveal",
                            say("smazzata {smazzata} is over but its seed was never revealed",
                                smazzata=state.smazzata + 1)))
    raise _Stop(None, say("in progress: smazzata {smazzata} will be checked against its seed "
                          "when the seed is revealed", smazzata=state.smazzata + 1))
