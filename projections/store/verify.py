"""`verbale verify`: re-check every stream of the store from its stored bytes up.

For each stream: the versions run 1..n without a gap; every event is canonical JSON whose
fields agree with its row (stream, version, type and topic); the chain holds (each
`previous_hash` is the SHA-256 of the event before it, GENESIS for the first); the stored head
is the last event's hash; timestamps are UTC and never go back. Then the events are decoded
(through the upcasters) and a match is audited by the rules (domain/record/audit.py): every
deal against its revealed seed and commitment, every play, timeout and ruling, and the result.
A match still in progress is told apart from a finished one, with the commitments it has not yet
revealed. Tournaments and matches are checked against each other: every match a tournament
schedules is in the store, and every match naming a tournament is scheduled there, at its round
and table. `verify_store(store, match)` reads that stream only (and what it links to).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.record.audit import Audit, Severity, audit
from domain.record.clock import ClockError, parse_stamp
from domain.record.envelope import EnvelopeError, RecordedBy
from domain.record.events import (
    ArbiterKeyRegistered,
    MatchCreated,
    MatchScheduled,
    RulingRecorded,
    TournamentCreated,
)
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.tournament import (
    ScheduleMatch,
    TournamentState,
    decide_creation,
    decide_schedule,
    evolve_tournament,
)
from domain.tarocchi.events import PenaltyImposed, TarocchiTournamentCreated
from domain.text import said_of, say
from projections.store.app import MatchStore
from projections.store.canonical import GENESIS, canonical_json, event_hash, previous_hash_of
from projections.store.codec import CodecError, decode
from projections.store.facts import FACT_NAMED, TOPIC_OF, StoredFact
from projections.store.recorders import Head
from projections.store.signatures import KeyringCache, RulingRow, audit_keys, ruling_problems
from projections.store.verify_seeds import redecide, seed_problems
from projections.store.verify_tarocchi import audit_tarocchi

RECORD_KEYS = {"class_version", "data", "previous_hash", "stream", "timestamp", "type",
               "version"}
ENVELOPE = "recorded_by"   # in every record written since the envelope (docs/events.md)

# A record of class_version 2 holds these fields (docs/events.md section 6): null there is not
# "not recorded", as in a version-1 record, but a record stripped of them.
V2_REQUIRED = {"MatchCreated": ("provenance", "visibility"), "SmazzataEnded": ("outcome",),
               "MatchEnded": ("settlement",)}


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding at event `version` (None: the stream as a whole), by the check that made it;
    `message` is a domain.text.Said (or an error's own text) for the command line to translate,
    `check` a name shown as it is."""

    version: int | None
    check: str
    message: str
    severity: Severity = Severity.FAILURE

    def __str__(self) -> str:
        where = f"event {self.version}" if self.version is not None else "stream"
        label = "" if self.severity is Severity.FAILURE else f"{self.severity}: "
        return f"{where} [{self.check}] {label}{self.message}"


@dataclass(frozen=True, slots=True)
class Verdict:
    stream: UUID
    kind: str
    events: int
    problems: tuple[Problem, ...]
    note: str | None = None
    category: str = "?"            # "match" or "tournament", from the first event's type
    in_progress: bool = False      # a sound match not finished yet (no failure)
    head: str | None = None        # the hash of the last stored event
    unrevealed: tuple[tuple[int | None, str], ...] = ()
    """A match in progress: the commitments not revealed yet, (smazzata counted from 1, or None
    for the match seed's commitment, commitment)."""
    place: tuple[str, int | None, int | None] | None = None
    """A match: the tournament its MatchCreated names, with the round and table."""
    scheduled: tuple[tuple[int, int, str], ...] | None = None
    """A tournament that decoded: (round, table, match) of every MatchScheduled."""
    standing: tuple[int, str] | None = None
    """A match not finished: (smazzata counted from 1, phase), the phase "ended" when only
    seeds are left to reveal; `note` says it in English."""

    @property
    def ok(self) -> bool:
        """Nothing failed; noted irregularities and notes leave a record sound."""
        return all(p.severity is not Severity.FAILURE for p in self.problems)

    @property
    def verdict(self) -> Severity | None:
        return max((p.severity for p in self.problems), default=None)

    def of(self, severity: Severity) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is severity)


def verify_store(store: MatchStore, only: UUID | None = None,
                 each: Callable[[Sequence[UUID]], Iterable[UUID]] | None = None) -> list[Verdict]:
    """Every stream of the store, or only the stream `only` (read by its key: no other stream
    is read, except the tournament it names or the matches it schedules, for the cross-check).
    `each` wraps the streams' loop (a progress bar)."""
    if only is not None:
        verdict = verify_stream(store, only, store.chained.select_head(only))
        return [_linked_one(store, verdict)]
    heads = {h[0]: h for h in store.heads()}
    streams = sorted(set(store.streams()) | set(heads), key=str)
    keyrings = KeyringCache(store)
    verdicts = [verify_stream(store, s, heads.get(s), keyrings)
                for s in (streams if each is None else each(streams))]
    return _linked(store, verdicts)


def verify_stream(store: MatchStore, stream: UUID, head: Head | None,
                  keyrings: KeyringCache | None = None) -> Verdict:
    stored = store.stored(stream)
    problems = list(check_structure(stream, stored, head))
    if not stored:
        return Verdict(stream, "?", 0,
                       tuple(problems) or (Problem(None, "stream", say("no events")),))
    last = event_hash(stored[-1].state)
    category = _category(stored[0])
    if problems:
        return Verdict(stream, _kind_of(stored[0]), len(stored), tuple(problems),
                       say("rules not checked: the stored record is broken"), category,
                       head=last)
    try:
        decoded = [_decode(store, s) for s in stored]
    except _Broken as broken:
        return Verdict(stream, _kind_of(stored[0]), len(stored), (broken.problem,),
                       category=category, head=last)
    verdict = _audit(store, stream, decoded)
    if verdict.category in ("match", "tarocchi"):
        verdict = _signed_rulings(verdict, stored, decoded, keyrings or KeyringCache(store))
    return replace(verdict, head=last)


def _signed_rulings(verdict: Verdict, stored: Sequence[StoredEvent],
                    decoded: list[tuple[object, datetime]], keyrings: KeyringCache) -> Verdict:
    """Every ruling of a match (penalty of a Tarocchi tournament) is its arbiter's, signed by a
    key registered for them at that moment over its content, this stream and the head it
    extends (signatures.py)."""
    rows = [RulingRow(row.originator_version, previous_hash_of(row.state) or "",
                      _envelope_kind(row), event, at)
            for row, (event, at) in zip(stored, decoded, strict=True)
            if isinstance(event, RulingRecorded | PenaltyImposed)]
    if not rows:
        return verdict
    first = decoded[0][0]
    transcribed = isinstance(first, TarocchiTournamentCreated) or (
        isinstance(first, MatchCreated) and first.provenance is not None
        and first.provenance.transcribed)
    found = [Problem(version, "signature", message,
                     Severity.FAILURE if failure else Severity.NOTE)
             for version, message, failure in ruling_problems(rows, verdict.stream, keyrings,
                                                              transcribed)]
    return _with(verdict, found) if any(p.severity is Severity.FAILURE for p in found) \
        else replace(verdict, problems=verdict.problems + tuple(found))


def _envelope_kind(row: StoredEvent) -> str | None:
    envelope = json.loads(row.state).get(ENVELOPE)
    return envelope.get("kind") if isinstance(envelope, dict) else None


def check_structure(stream: UUID, stored: Sequence[StoredEvent],
                    head: Head | None) -> Iterable[Problem]:
    previous_hash, previous_at = GENESIS, None
    for position, row in enumerate(stored, start=1):
        if row.originator_version != position:
            yield Problem(position, "sequence", say(
                "event {version} is missing: the next stored event is {found}",
                version=position, found=row.originator_version))
            break
    enveloped: bool | None = None
    for row in stored:
        record, found = _record(stream, row)
        if record is not None:
            enveloped = _same_envelope(row.originator_version, record, enveloped, found)
        yield from found
        if record is not None:
            if record.get("previous_hash") != previous_hash:
                before = row.originator_version - 1
                yield Problem(row.originator_version, "chain", say(
                    "previous_hash is not the hash of event {before}: event {before} was "
                    "changed, or one was removed, inserted or moved here", before=before)
                    if before else say("the first event does not start from the genesis hash"))
            at, clock = _timestamp(row.originator_version, record, previous_at)
            yield from clock
            previous_at = at or previous_at
        previous_hash = event_hash(row.state)
    yield from _check_head(stored, head, previous_hash)


def _check_head(stored: Sequence[StoredEvent], head: Head | None,
                last_hash: str) -> Iterable[Problem]:
    last = stored[-1].originator_version if stored else 0
    if head is None:
        if stored:
            yield Problem(last, "head", say("the stream has no stored head"))
        return
    if head[1] != last:
        yield Problem(min(head[1], last) + 1, "head",
                      say("the stored head is event {version}, the last stored event is "
                          "{last}", version=head[1], last=last))
    elif head[2] != last_hash:
        yield Problem(last, "head",
                      say("the stored head hash is not the hash of the last event"))


def _record(stream: UUID, row: StoredEvent) -> tuple[dict[str, Any] | None, list[Problem]]:
    version = row.originator_version
    try:
        record = json.loads(row.state.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, [Problem(version, "decode", say("the stored state is not JSON"))]
    if not isinstance(record, dict) or set(record) - {ENVELOPE} != RECORD_KEYS:
        return None, [Problem(version, "fields", say(
            "the record does not have exactly the fields {fields} (and {envelope})",
            fields=sorted(RECORD_KEYS), envelope=ENVELOPE))]
    problems = _envelope(version, record) + _v2_fields(version, record)
    if canonical_json(record, checked=False) != row.state:
        problems.append(Problem(version, "canonical", say(
            "the stored bytes are not the canonical JSON of their record")))
    if record["stream"] != str(stream) or record["version"] != version:
        problems.append(Problem(version, "identity", say(
            "the record says stream {stream} event {version}", stream=record["stream"],
            version=record["version"])))
    if TOPIC_OF.get(record["type"]) != row.topic:
        problems.append(Problem(version, "type", say(
            "type {type!r} stored with topic {topic!r}", type=record["type"], topic=row.topic)))
    return record, problems


def _same_envelope(version: int, record: dict[str, Any], enveloped: bool | None,
                   found: list[Problem]) -> bool:
    """Once a stream's records carry the envelope, every later one does: a record without it
    after one with it was stripped. (A match begun before the envelope existed and continued
    since has records without it, then records with it.)"""
    has = ENVELOPE in record
    if enveloped and not has:
        found.append(Problem(version, "envelope", say(
            "this record has no recorded_by, although an earlier record of the stream has one")))
    return bool(enveloped) or has


def _v2_fields(version: int, record: dict[str, Any]) -> list[Problem]:
    """The fields a class_version 2 (or later) record of its type holds that are null here."""
    required = V2_REQUIRED.get(record["type"], ())
    class_version = record["class_version"]
    if not required or not isinstance(class_version, int) or class_version < 2 \
            or not isinstance(record["data"], dict):
        return []
    missing = [name for name in required if record["data"].get(name) is None]
    if not missing:
        return []
    return [Problem(version, "fields", say(
        "a class_version {class_version} {type} holds {fields}: it is null here",
        class_version=record["class_version"], type=record["type"],
        fields=", ".join(missing)))]


def _envelope(version: int, record: dict[str, Any]) -> list[Problem]:
    if ENVELOPE not in record:
        return []
    try:
        decode(RecordedBy, record[ENVELOPE], f"event {version} {ENVELOPE}")
    except (CodecError, EnvelopeError) as error:
        return [Problem(version, "envelope", _message(error))]
    return []


def _timestamp(version: int, record: dict[str, Any],
               previous: datetime | None) -> tuple[datetime | None, list[Problem]]:
    try:
        at = parse_stamp(record["timestamp"])
    except ClockError as error:
        return None, [Problem(version, "clock", _message(error))]
    if previous is not None and at < previous:
        return at, [Problem(version, "clock", say("the timestamp goes back in time"))]
    return at, []


def _message(error: BaseException) -> str:
    """An error's message as it was made (a Said keeps its template), else its text."""
    return said_of(error) or str(error)


class _Broken(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _decode(store: MatchStore, row: StoredEvent) -> tuple[object, datetime]:
    try:
        fact = cast(StoredFact, store.mapper.to_domain_event(row))
        fact_class = FACT_NAMED[fact.type]
        if fact.type != type(fact).__name__ or fact_class.class_version < 1:
            raise ValueError(say("type {type} stored as {stored}", type=fact.type,
                                 stored=type(fact).__name__))
        return fact.to_domain(), parse_stamp(fact.timestamp)
    except Exception as error:  # any decoding failure is a finding about this event
        raise _Broken(Problem(row.originator_version, "decode", _message(error))) from None


def _kind_of(row: StoredEvent) -> str:
    return row.topic.rpartition(":")[2]


def _category(row: StoredEvent) -> str:
    return {"MatchCreated": "match", "TournamentCreated": "tournament",
            "ArbiterKeyRegistered": "keys",
            "TarocchiTournamentCreated": "tarocchi"}.get(_kind_of(row), "?")


def _audit(store: MatchStore, stream: UUID, decoded: list[tuple[object, datetime]]) -> Verdict:
    first = decoded[0][0]
    if isinstance(first, TournamentCreated):
        problems = _audit_tournament([e for e, _ in decoded])
        if not problems:
            problems = tuple(Problem(version, "tournament-seeds", message)
                             for version, message in seed_problems(store, decoded))
        scheduled = tuple((e.round, e.table, e.match) for e, _ in decoded
                          if isinstance(e, MatchScheduled))
        return Verdict(stream, say("tournament {name}", name=first.name), len(decoded), problems,
                       category="tournament", scheduled=None if problems else scheduled)
    if isinstance(first, TarocchiTournamentCreated):
        _, found = audit_tarocchi([e for e, _ in decoded])
        return Verdict(stream, say("Tarocchi tournament {name}", name=first.name), len(decoded),
                       tuple(Problem(*p) for p in found), category="tarocchi")
    if isinstance(first, ArbiterKeyRegistered):
        return Verdict(stream, say("keys of arbiter {name}", name=first.arbiter), len(decoded),
                       tuple(Problem(version, "keys", message)
                             for version, message in audit_keys(stream, decoded)),
                       category="keys")
    if not isinstance(first, MatchCreated):
        return Verdict(stream, "?", len(decoded),
                       (Problem(1, "order", say(
                           "a stream starts with MatchCreated or TournamentCreated, not {type}",
                           type=type(first).__name__)),))
    place = None if first.tournament is None else (first.tournament, first.round, first.table)
    if first.game not in store.catalog:
        return Verdict(stream, first.game, len(decoded),
                       (Problem(1, "game", say("unknown game {game!r}", game=first.game)),),
                       category="match", place=place)
    result: Audit = audit(store.catalog, cast(Any, decoded))
    problems = tuple(Problem(f.version, f.check, f.message, f.severity)
                     for f in result.findings)
    kind = f"{first.game} {len(first.players)}p"
    verdict = Verdict(stream, kind, len(decoded), problems, result.pending, "match",
                      place=place)
    if result.pending is None:
        return verdict
    state = _folded(store, decoded, result.state)
    standing = (state.smazzata + 1, state.phase.value)
    if not verdict.ok:
        return replace(verdict, note=_where(state), standing=standing)
    return replace(verdict, in_progress=True, note=_where(state), standing=standing,
                   unrevealed=_unrevealed(state))


def _folded(store: MatchStore, decoded: list[tuple[object, datetime]],
            audited: MatchState) -> MatchState:
    """The state after every recorded event (the audit stops at a deal whose seed is not
    revealed yet): where a match in progress stands."""
    state = initial(store.catalog)
    try:
        for event, at in decoded:
            state = evolve(state, cast(Any, event), at)
    except (ValueError, TypeError, LookupError, AttributeError):
        return audited
    return state


def _where(state: MatchState) -> str:
    if state.phase is Phase.ENDED:
        return say("in progress: the play is over, a seed is not revealed yet")
    return say("in progress: smazzata {n}, phase '{phase}'", n=state.smazzata + 1,
               phase=state.phase.value)


def _unrevealed(state: MatchState) -> tuple[tuple[int | None, str], ...]:
    found: list[tuple[int | None, str]] = []
    if state.commitment is not None:
        found.append((state.smazzata + 1, state.commitment))
    promised = state.created.match_seed_commitment if state.created else None
    if promised is not None and state.match_seed is None:
        found.append((None, promised))
    return tuple(found)


def _audit_tournament(events: list[object]) -> tuple[Problem, ...]:
    state = TournamentState()
    for version, event in enumerate(events, start=1):
        try:
            if isinstance(event, TournamentCreated):
                expected = decide_creation(state, event.name, event.game, event.vp_table)
            elif (reseeded := redecide(state, event)) is not None:
                expected = reseeded
            else:
                command = ScheduleMatch(**{k: getattr(event, k) for k in ("round", "table",
                                                                          "match")})
                expected = decide_schedule(state, command)
        except (ValueError, TypeError, AttributeError) as error:
            return (Problem(version, "tournament", _message(error)),)
        if expected != (event,):
            return (Problem(version, "tournament", say("recorded {event}, expected {expected}",
                                                       event=str(event),
                                                       expected=str(expected))),)
        state = evolve_tournament(state, expected[0])
    return ()


# ---- tournaments and their matches --------------------------------------------------------

def _linked(store: MatchStore, verdicts: list[Verdict]) -> list[Verdict]:
    """The whole store: every scheduled match is a stored match, and every match naming a
    tournament is scheduled there at its round and table."""
    by_id = {v.stream: v for v in verdicts}
    found: dict[UUID, list[Problem]] = {}
    for tournament in verdicts:
        for round_, table, match in tournament.scheduled or ():
            problem = _missing(store, by_id, round_, table, match)
            if problem is not None:
                found.setdefault(tournament.stream, []).append(problem)
    for played in verdicts:
        if played.place is None:
            continue
        named = by_id.get(_uuid(played.place[0]) or played.stream)
        if named is None or named.category != "tournament":
            found.setdefault(played.stream, []).append(_no_tournament(played.place[0]))
        elif named.scheduled is not None:
            problem = _unscheduled(played, named.scheduled)
            if problem is not None:
                found.setdefault(played.stream, []).append(problem)
    return [_with(v, found[v.stream]) if v.stream in found else v for v in verdicts]


def _linked_one(store: MatchStore, verdict: Verdict) -> Verdict:
    """One stream: a match against its tournament's schedule (only the events that name it
    are decoded), a tournament against the first event of each match it schedules."""
    problems: list[Problem] = []
    if verdict.place is not None:
        tournament = _uuid(verdict.place[0])
        rows = store.stored(tournament) if tournament is not None else []
        if not rows or _category(rows[0]) != "tournament":
            problems.append(_no_tournament(verdict.place[0]))
        else:
            needle = str(verdict.stream).encode()
            scheduled = []
            for row in rows:
                if needle in row.state:
                    try:
                        event, _ = _decode(store, row)
                    except _Broken:
                        continue   # the tournament's own verify names it
                    if isinstance(event, MatchScheduled):
                        scheduled.append((event.round, event.table, event.match))
            problem = _unscheduled(verdict, tuple(scheduled))
            problems.extend([problem] if problem is not None else [])
    for round_, table, match in verdict.scheduled or ():
        problem = _scheduled_one(store, verdict.stream, round_, table, match)
        problems.extend([problem] if problem is not None else [])
    return _with(verdict, problems) if problems else verdict


def _scheduled_one(store: MatchStore, tournament: UUID, round_: int, table: int,
                   match: str) -> Problem | None:
    """A match a tournament schedules: stored, and its MatchCreated names that place."""
    stream = _uuid(match)
    first = store.chained.select_events(stream, limit=1) if stream is not None else []
    if stream is None or not first or _category(first[0]) != "match":
        return _missing(store, {}, round_, table, match)
    try:
        created, _ = _decode(store, first[0])
    except _Broken:
        created = None
    if isinstance(created, MatchCreated) and (created.tournament, created.round,
                                              created.table) == (str(tournament), round_, table):
        return None
    return Problem(None, "tournament", say(
        "round {round}, table {table}: match {match} does not name this tournament at this "
        "round and table", round=round_, table=table, match=match))


def _missing(store: MatchStore, by_id: dict[UUID, Verdict], round_: int, table: int,
             match: str) -> Problem | None:
    stream = _uuid(match)
    found = by_id.get(stream) if stream is not None else None
    if found is not None and found.category == "match" and found.events:
        return None
    if found is None and stream is not None and store.chained.select_head(stream) is not None \
            and store.chained.select_events(stream, limit=1):
        return None   # recorded while verify was reading the store
    return Problem(None, "tournament", say(
        "round {round}, table {table}: the scheduled match {match} is not in the store",
        round=round_, table=table, match=match))


def _unscheduled(match: Verdict, scheduled: tuple[tuple[int, int, str], ...]
                 ) -> Problem | None:
    assert match.place is not None
    tournament, round_, table = match.place
    mine = [(r, t) for r, t, m in scheduled if m == str(match.stream)]
    if (round_ is None and table is None and mine) or (round_, table) in mine:
        return None
    if round_ is None and table is None:
        return Problem(1, "tournament", say(
            "the match names tournament {tournament}, but the tournament does not schedule it "
            "there", tournament=tournament))
    return Problem(1, "tournament", say(
        "the match names tournament {tournament} at round {round}, table {table}, but the "
        "tournament does not schedule it there", tournament=tournament, round=round_,
        table=table))


def _no_tournament(tournament: str) -> Problem:
    return Problem(1, "tournament", say(
        "the match names tournament {tournament}, which is not in the store",
        tournament=tournament))


def _with(verdict: Verdict, problems: list[Problem]) -> Verdict:
    return replace(verdict, problems=verdict.problems + tuple(problems), in_progress=False)


def _uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None


# ---- the summary ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tally:
    streams: int
    tournaments: int   # card-game tournaments (their schedules and seed commitments)
    matches: int
    events: int
    finished: int      # matches finished, and sound
    in_progress: int   # matches sound so far, not finished
    failed: int        # streams with a failure (matches, tournaments or unreadable ones)
    irregularities: int
    unverifiable: int
    tarocchi: int = 0  # Tarocchi tournaments
    keys: int = 0      # arbiters' keys streams


def tally(verdicts: Sequence[Verdict]) -> Tally:
    return Tally(
        streams=len(verdicts),
        tournaments=sum(v.category == "tournament" for v in verdicts),
        matches=sum(v.category == "match" for v in verdicts),
        events=sum(v.events for v in verdicts),
        finished=sum(v.ok and v.category == "match" and not v.in_progress for v in verdicts),
        in_progress=sum(v.ok and v.in_progress for v in verdicts),
        failed=sum(not v.ok for v in verdicts),
        irregularities=sum(len(v.of(Severity.FINDING)) for v in verdicts),
        unverifiable=sum(len(v.of(Severity.NOTE)) for v in verdicts),
        tarocchi=sum(v.category == "tarocchi" for v in verdicts),
        keys=sum(v.category == "keys" for v in verdicts))
