"""MatchStore: the eventsourcing Application that records matches and tournaments.

A command is loaded, decided by the domain (domain/record/decide.py), turned into stored facts
that carry the hash chain, and saved in one transaction; the recorder checks the chain again and
moves the stream's head in that same transaction. The store is an SQLite file by default
(`./var/verbale.db`) or PostgreSQL when VERBALE_DATABASE_URL says so (config.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent, Transcoder
from eventsourcing.utils import Environment, EnvType, get_topic

from domain.record.clock import parse_stamp, stamp, utc
from domain.record.commands import CreateMatch, MatchCommand
from domain.record.decide import decide
from domain.record.envelope import RecordedBy
from domain.record.events import DeclaredVpTable, SessionSeedRevealed
from domain.record.games import GameRules
from domain.record.match import MatchEvent, MatchState, evolve, initial
from domain.record.tournament import (
    ScheduleMatch,
    TournamentEvent,
    TournamentState,
    decide_creation,
    decide_schedule,
    decide_seed_commitment,
    decide_session_reveal,
    evolve_tournament,
)
from domain.text import said_of, say
from projections.store.canonical import GENESIS, canonical_json, event_hash
from projections.store.config import READ_ONLY, URL_VARIABLE, WHERE, store_env
from projections.store.facts import FACT_OF, TOPIC_OF, StoredFact, record_bytes
from projections.store.opening import open_errors, unavailable
from projections.store.recorders import ChainedSQLiteRecorder, Head

if TYPE_CHECKING:
    from projections.store.recorders_postgres import ChainedPostgresRecorder


class ConcurrencyConflict(RuntimeError):
    """Another writer appended to the same stream first: reload and decide again. A problem of
    the environment for the command line (exit code 1)."""

    exit_code = 1


class CanonicalTranscoder(Transcoder):
    """Stored state = canonical JSON of the record: the bytes the chain hashes."""

    def encode(self, obj: Any) -> bytes:
        # Only StoredFact records come here; codec.encode makes them of str, int, bool, None,
        # lists and objects, so the walk refusing floats is not needed.
        return canonical_json(obj, checked=False)

    def decode(self, data: bytes) -> Any:
        """msgspec's parse (several times json.loads' speed); whatever it refuses (a lone
        surrogate escape, a number out of range: never in a record the store wrote) is parsed
        by json.loads as before, so every value read, and every error, is json.loads'."""
        try:
            return msgspec.json.decode(data)
        except msgspec.DecodeError:
            return json.loads(data.decode("utf-8"))


class ChainMapper(Mapper[UUID]):
    """The library's mapper, reusing the bytes a fact was hashed as instead of encoding it
    again (same bytes: the transcoder is the same canonical JSON)."""

    def to_stored_event(self, domain_event: DomainEventProtocol[UUID]) -> StoredEvent:
        encoded = getattr(domain_event, "encoded", None)
        if encoded is None:
            return super().to_stored_event(domain_event)
        return StoredEvent(originator_id=domain_event.originator_id,
                           originator_version=domain_event.originator_version,
                           topic=_topic(type(domain_event)), state=encoded)

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        """The library's fact, keeping the stored bytes when they are a record of the class's
        newest layout (canonical keys are sorted: `class_version` comes first), so that
        `StoredFact.to_domain` decodes the event straight from them."""
        fact = super().to_domain_event(stored_event)
        if isinstance(fact, StoredFact) and stored_event.state.startswith(
                _newest_prefix(type(fact).class_version)):
            fact.encoded = stored_event.state
        return fact


@cache
def _newest_prefix(class_version: int) -> bytes:
    return b'{"class_version":%d,' % class_version


@cache
def _topic(cls: type) -> str:
    return get_topic(cls)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stream as read: its state, its version and the hash of its last event."""

    stream: UUID
    state: Any
    version: int
    head: str


Action = tuple[MatchCommand, datetime, RecordedBy]
Recorded = tuple[object, datetime, RecordedBy]
"""A command, the moment it was made, and who recorded it: one action of a match."""


class MatchStore(Application[UUID]):
    """The store. Built from a database URL, or from an environment mapping the way the
    eventsourcing library builds applications (ProjectionRunner passes `env`): either the
    library's own persistence variables, or VERBALE_DATABASE_URL."""

    name = "verbale"

    def __init__(self, env: EnvType | None = None,
                 catalog: Mapping[str, GameRules] | None = None, *,
                 url: str | None = None, read_only: bool = False,
                 origin: str | None = None) -> None:
        """`read_only`: create and change nothing (verify, export, listing); a missing, empty
        or foreign database is refused (opening.py). `origin` names where `url` came from in
        a configuration error. A database that cannot be used raises StoreUnavailable."""
        if catalog is None:
            from domain.record.catalog import CATALOG
            catalog = CATALOG
        self.catalog = catalog
        environment = _environment(env, url, read_only, origin)
        self.where = environment.get(WHERE) or "the store"
        self.read_only = read_only
        try:
            super().__init__(env=environment)
        except open_errors() as error:
            # Whatever was opened is closed: a refused file is left as it was found.
            factory = getattr(self, "factory", None)
            if factory is not None:
                factory.close()
            raise unavailable(error, self.where) from None

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        # Only the store's own configuration: stray library variables in os.environ must not
        # redirect the record to another database.
        return Environment(name, dict(env or {}))

    def construct_transcoder(self) -> Transcoder:
        return CanonicalTranscoder()

    def construct_mapper(self) -> Mapper[UUID]:
        # No cipher and no compressor: the stored bytes are what the chain hashes and what an
        # auditor re-hashes from an export.
        return ChainMapper(transcoder=self.construct_transcoder())

    @property
    def chained(self) -> ChainedSQLiteRecorder | ChainedPostgresRecorder:
        return cast("ChainedSQLiteRecorder | ChainedPostgresRecorder", self.recorder)

    # ---- reading ------------------------------------------------------------------------------

    def stored(self, stream: UUID) -> Sequence[StoredEvent]:
        return self.recorder.select_events(stream)

    def facts(self, stream: UUID) -> list[StoredFact]:
        return [cast(StoredFact, self.mapper.to_domain_event(s)) for s in self.stored(stream)]

    def load(self, match: UUID) -> Loaded:
        stored = self.stored(match)
        state = initial(self.catalog)
        for s in stored:
            fact = cast(StoredFact, self.mapper.to_domain_event(s))
            state = evolve(state, fact.to_domain(), parse_stamp(fact.timestamp))
        head = event_hash(stored[-1].state) if stored else GENESIS
        return Loaded(match, state, len(stored), head)

    def load_tournament(self, tournament: UUID) -> Loaded:
        stored = self.stored(tournament)
        state = TournamentState()
        for s in stored:
            state = evolve_tournament(state, self._fact(s).to_domain())
        head = event_hash(stored[-1].state) if stored else GENESIS
        return Loaded(tournament, state, len(stored), head)

    def _fact(self, stored: StoredEvent) -> StoredFact:
        return cast(StoredFact, self.mapper.to_domain_event(stored))

    def heads(self) -> list[Head]:
        return self.chained.select_heads()

    def streams(self) -> list[UUID]:
        return self.chained.select_stream_ids()

    def streams_starting(self, prefix: str, limit: int = 6) -> list[UUID]:
        """The stored streams (matches and tournaments) whose id starts with the hex digits
        `prefix` (dashes ignored), in id order, at most `limit`: one range of the key."""
        digits = prefix.replace("-", "").lower()
        if len(digits) > 32 or any(d not in "0123456789abcdef" for d in digits):
            raise ValueError(say("{prefix!r} is not the start of a stream id (hex digits)",
                                 prefix=prefix))
        low, high = UUID(digits.ljust(32, "0")), UUID(digits.ljust(32, "f"))
        return self.chained.select_streams_between(low, high, limit)

    # ---- writing ------------------------------------------------------------------------------

    def execute(self, match: UUID, command: MatchCommand, at: datetime, by: RecordedBy,
                loaded: Loaded | None = None) -> Loaded:
        """Decide `command` on the stored match (or on `loaded`, the state this writer last
        saw of it) and append its events in one transaction; return the new state. Another
        writer's append in between is a ConcurrencyConflict, nothing stored."""
        current = loaded if loaded is not None and loaded.stream == match else self.load(match)
        events = decide(cast(MatchState, current.state), command, at)
        state = cast(MatchState, current.state)
        for event in events:
            state = evolve(state, event, utc(at))
        facts, head = chain_facts(match, current.version, current.head, events, at, by)
        self._save(facts)
        return Loaded(match, state, current.version + len(facts), head)

    def create_match(self, command: MatchCommand, at: datetime, by: RecordedBy,
                     match: UUID | None = None) -> UUID:
        stream = match or uuid4()
        self.execute(stream, command, at, by)
        return stream

    def execute_batch(self, batch: Sequence[tuple[UUID, Sequence[Action]]]) -> list[Loaded]:
        """Decide whole runs of actions, stream by stream, and record all their events in one
        transaction (an import): every command is decided, and either every event of the batch
        is stored or none is (a refusal names the stream and the action)."""
        rows: list[StoredEvent] = []
        after: list[Loaded] = []
        for stream, actions in batch:
            loaded = self.load(stream)
            state = cast(MatchState, loaded.state)
            recorded: list[tuple[MatchEvent, datetime, RecordedBy]] = []
            for number, (command, at, by) in enumerate(actions, start=1):
                try:
                    events = decide(state, command, at)
                except ValueError as error:
                    raise BatchRefused(stream, number, error) from error
                for event in events:
                    state = evolve(state, event, utc(at))
                    recorded.append((event, at, by))
            made, head = stored_stream(stream, loaded.version, loaded.head, recorded)
            rows.extend(made)
            after.append(Loaded(stream, state, loaded.version + len(made), head))
        self._insert(rows)
        return after

    def _record_decided(self, batch: Sequence[tuple[UUID, Sequence[Recorded]]]) -> None:
        """Write events already decided elsewhere, new streams only, in one transaction: for the
        storage benchmark (bench/bench_store.py), which measures the store below `decide`."""
        rows: list[StoredEvent] = []
        for stream, recorded in batch:
            rows.extend(stored_stream(stream, 0, GENESIS, recorded)[0])
        self._insert(rows)

    def _insert(self, rows: Sequence[StoredEvent]) -> None:
        try:
            # Rows straight to the library's recorder: an import builds no event objects.
            self.recorder.insert_events(rows)
        except IntegrityError as error:
            raise _conflict({str(r.originator_id) for r in rows}, error) from None

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Refused: the record is written only through `execute` and `execute_batch`, so that
        nothing is stored that `decide` did not accept."""
        raise TypeError("MatchStore.save is not a way into the record: use execute or "
                        "execute_batch")

    def create_tournament(self, name: str, game: str, at: datetime, by: RecordedBy,
                          tournament: UUID | None = None,
                          vp_table: DeclaredVpTable | None = None) -> UUID:
        stream = tournament or uuid4()
        loaded = self.load_tournament(stream)
        self._append_tournament(loaded, decide_creation(loaded.state, name, game, vp_table), at,
                                by)
        return stream

    def schedule(self, tournament: UUID, command: ScheduleMatch, at: datetime,
                 by: RecordedBy) -> None:
        loaded = self.load_tournament(tournament)
        self._append_tournament(loaded, decide_schedule(loaded.state, command), at, by)

    def commit_tournament_seeds(self, tournament: UUID, root: str, sessions: int,
                                reference: str, at: datetime, by: RecordedBy) -> None:
        """Record the tournament's seed commitment (before any match is scheduled)."""
        loaded = self.load_tournament(tournament)
        self._append_tournament(loaded, decide_seed_commitment(loaded.state, root, sessions,
                                                               reference), at, by)

    def reveal_session(self, tournament: UUID, reveal: SessionSeedRevealed, at: datetime,
                       by: RecordedBy) -> None:
        """Record one session's reveal, checked against the committed root."""
        loaded = self.load_tournament(tournament)
        self._append_tournament(loaded, decide_session_reveal(loaded.state, reveal), at, by)

    def schedule_and_create(self, tournament: UUID, match: UUID, setup: CreateMatch,
                            at: datetime, by: RecordedBy, schedule: Loaded | None = None
                            ) -> tuple[Loaded, Loaded]:
        """Schedule `match` in its tournament (at the round and table `setup` names) and create
        it, in one transaction: both streams' events, or nothing. A match already scheduled
        there but never created (a run interrupted before this existed) is only created.
        `schedule` is the tournament as this writer last saw it (else it is read); if another
        writer appended to it since, nothing is stored (ConcurrencyConflict). Returns the
        tournament and the match after the write."""
        if setup.tournament != str(tournament) or setup.round is None or setup.table is None:
            raise ValueError(say("match {match}: its MatchCreated must name tournament "
                                 "{tournament}, a round and a table", match=str(match),
                                 tournament=str(tournament)))
        place = ScheduleMatch(setup.round, setup.table, str(match))
        if schedule is None or schedule.stream != tournament:
            schedule = self.load_tournament(tournament)
        planned = cast(TournamentState, schedule.state)
        scheduled: Sequence[TournamentEvent] = ()
        if planned.places.get((place.round, place.table)) != place.match:
            scheduled = decide_schedule(planned, place)
        for fact in scheduled:
            planned = evolve_tournament(planned, fact)
        loaded = self.load(match)
        created = decide(cast(MatchState, loaded.state), setup, at)
        state = cast(MatchState, loaded.state)
        for event in created:
            state = evolve(state, event, utc(at))
        rows, head = stored_stream(tournament, schedule.version, schedule.head,
                                   [(fact, at, by) for fact in scheduled])
        made, match_head = stored_stream(match, loaded.version, loaded.head,
                                         [(event, at, by) for event in created])
        self._insert([*rows, *made])
        return (Loaded(tournament, planned, schedule.version + len(rows),
                       head if rows else schedule.head),
                Loaded(match, state, loaded.version + len(made), match_head))

    def _append_tournament(self, loaded: Loaded, events: Sequence[TournamentEvent],
                           at: datetime, by: RecordedBy) -> None:
        facts, _ = chain_facts(loaded.stream, loaded.version, loaded.head, events, at, by)
        self._save(facts)

    def _save(self, facts: Sequence[StoredFact]) -> None:
        try:
            # Straight into the library's event store (mapper, then the chained recorder):
            # Application.save would only add a slow protocol check per event.
            self.events.put(facts)
        except IntegrityError as error:
            raise _conflict({str(f.originator_id) for f in facts}, error) from None


class BatchRefused(ValueError):
    """An action of a batch that `decide` refused: nothing of the batch was stored. A problem
    of the input for the command line (exit code 2)."""

    exit_code = 2

    def __init__(self, stream: UUID, action: int, error: ValueError) -> None:
        super().__init__(say("match {stream}, action {action}: {error}; nothing of the batch "
                             "was recorded", stream=str(stream), action=action,
                             error=said_of(error) or str(error)))
        self.stream, self.action, self.error = stream, action, error


def _environment(env: EnvType | None, url: str | None, read_only: bool = False,
                 origin: str | None = None) -> dict[str, str]:
    given = dict(env or {})
    if url is None and "PERSISTENCE_MODULE" in given:
        return {**given, READ_ONLY: "yes" if read_only else given.get(READ_ONLY, "no")}
    if url is None and given.get(URL_VARIABLE):
        url, origin = given[URL_VARIABLE], origin or URL_VARIABLE
    return {**{k: v for k, v in given.items() if k != URL_VARIABLE},
            **store_env(url, read_only=read_only, origin=origin)}


def _conflict(streams: set[str], error: Exception) -> ConcurrencyConflict:
    return ConcurrencyConflict(say(
        "stream {streams} was changed by another writer meanwhile (an event at the same version "
        "is already stored); nothing was recorded: reload and try again [{error}]",
        streams=", ".join(sorted(streams)), error=str(error)))


def chain_facts(stream: UUID, version: int, head: str, events: Sequence[object],
                at: datetime, by: RecordedBy) -> tuple[list[StoredFact], str]:
    """Stored facts for `events` after event `version` whose hash is `head`, and the new head."""
    return chain_stream(stream, version, head, [(event, at, by) for event in events])


def stored_stream(stream: UUID, version: int, head: str,
                  recorded: Sequence[Recorded]) -> tuple[list[StoredEvent], str]:
    """The rows of timestamped events after event `version` whose hash is `head`: the same
    bytes as chain_stream's facts, for an import that builds no event objects."""
    rows: list[StoredEvent] = []
    text = str(stream)
    last_at: datetime | None = None
    moment = ""
    for number, (event, at, by) in enumerate(recorded, start=version + 1):
        if at != last_at:
            moment, last_at = stamp(at), at
        fact_class = FACT_OF[type(event)]
        state = record_bytes(fact_class, number, moment, head, event, text, by)
        head = event_hash(state)
        rows.append(StoredEvent(stream, number, TOPIC_OF[fact_class.__name__], state))
    return rows, head


def chain_stream(stream: UUID, version: int, head: str,
                 recorded: Sequence[Recorded]) -> tuple[list[StoredFact], str]:
    """Stored facts for timestamped events after event `version` whose hash is `head`.

    The hot path of an import: each fact is built once, encoded once (the mapper reuses the
    bytes) and hashed once; consecutive events of one action share their timestamp's text.
    """
    facts: list[StoredFact] = []
    text = str(stream)
    last_at: datetime | None = None
    moment = ""
    for version, (event, at, by) in enumerate(recorded, start=version + 1):  # noqa: B020
        if at != last_at:
            moment, last_at = stamp(at), at
        fact = StoredFact.of(stream, version, moment, head, event, by, text)
        head = event_hash(fact.encoded)
        facts.append(fact)
    return facts, head
