"""The matches the viewer steps through: each stored stream folded once into a Timeline, kept.

A step request asks "what did this viewer see after event v of match m"; folding the match again
for every request would cost the whole match each time. The timeline of a match is folded once
and kept (a bounded LRU of the recently viewed matches). Before it is used, one query asks the
store whether events were recorded after the kept version (a ruling from the arbiter view, a
live match going on); if so the match is folded again.

`Replays` is what the views need; `StoreReplays` reads the event store, and tests hand the app
any other `Replays` (a record held in memory, with cards changed, for the no-leak test).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from uuid import UUID

from domain.record.catalog import CATALOG
from domain.record.clock import parse_stamp
from domain.record.events import MatchCreated
from domain.record.match import MatchEvent
from domain.record.timeline import Timeline, timeline
from projections.store.app import MatchStore
from projections.store.canonical import GENESIS, event_hash

KEPT = 1024
"""Matches kept folded: every table of a large event, each stepped through by several viewers.
A folded match of the demo set holds about 0.12 MB; folding one again costs about 8 ms, most of
a step request's time when it misses (docs/benchmarks.md, "Viewer step endpoint")."""


@dataclass(frozen=True, slots=True)
class Replay:
    """One match as recorded: its events with their moments and recorders, folded."""

    match_id: UUID
    events: tuple[MatchEvent, ...]
    moments: tuple[datetime, ...]
    recorded_by: tuple[str, ...]
    """Who recorded each event (`seat:…`, `arbiter:…`, `importer:…`), "" when not kept."""
    head: str
    """The chain hash of the last event: what the arbiter signs on the verbale."""
    line: Timeline

    @property
    def last(self) -> int:
        return self.line.last

    @property
    def created(self) -> MatchCreated:
        first = self.events[0]
        assert isinstance(first, MatchCreated)   # a stream starts with MatchCreated
        return first


def replay_of(match_id: UUID, recorded: Sequence[tuple[MatchEvent, datetime, str]],
              head: str = GENESIS) -> Replay:
    """A Replay of events held in memory (tests, a record being imported)."""
    events = tuple(e for e, _, _ in recorded)
    moments = tuple(at for _, at, _ in recorded)
    return Replay(match_id, events, moments, tuple(by for _, _, by in recorded), head,
                  timeline(CATALOG, list(zip(events, moments, strict=True))))


@dataclass(frozen=True, slots=True)
class RecordHead:
    """A match's record as it stands, without its events: what an answer already made is kept
    under (replay_web/web/rendered.py), and what the access check needs."""

    match_id: UUID
    last: int
    head: str
    players: int


def head_of(replay: Replay) -> RecordHead:
    return RecordHead(replay.match_id, replay.last, replay.head, len(replay.created.players))


FRESH_SECONDS = 0.25
"""How long the store's last notification id is taken as it stands: a record written by another
process (a live table, `verbale` at the command line) shows within this time; the viewer's own
rulings `forget` the match at once."""

HEADS_KEPT = 200_000
"""Heads of matches seen (about 200 bytes each): every match of a season."""


class Replays(Protocol):
    def replay(self, match_id: UUID) -> Replay | None:
        """The match folded, None when no such stream starts with MatchCreated."""
        ...

    def record_head(self, match_id: UUID) -> RecordHead | None:
        """The match's record as it stands (folding it only when it must), None as above."""
        ...


class HeldReplays:
    """Matches held in memory (tests; a record being imported): each already folded."""

    def __init__(self, replays: dict[UUID, Replay]) -> None:
        self._replays = replays

    def replay(self, match_id: UUID) -> Replay | None:
        return self._replays.get(match_id)

    def record_head(self, match_id: UUID) -> RecordHead | None:
        found = self._replays.get(match_id)
        return None if found is None else head_of(found)


class StoreReplays:
    """Replays read from the event store, kept folded (thread-safe: the WSGI server's threads
    share one)."""

    def __init__(self, store: MatchStore, kept: int = KEPT) -> None:
        self._store = store
        self._kept = kept
        self._cache: OrderedDict[UUID, Replay] = OrderedDict()
        self._heads: OrderedDict[UUID, RecordHead] = OrderedDict()
        self._verified: dict[UUID, int] = {}
        """Per kept head, the store's last notification id when it was found current."""
        self._last, self._last_at = 0, -FRESH_SECONDS
        self._lock = threading.Lock()

    def record_head(self, match_id: UUID) -> RecordHead | None:
        """The record's head as it stands; the match is folded only when it is new here or has
        grown. More heads are kept than folded matches: an answer already made needs only its
        head. A kept head is current while the store has recorded nothing since it was last
        found current (one query for every match, at most every FRESH_SECONDS); else one
        query asks whether this match grew."""
        stored = self._store_last()
        with self._lock:
            known = self._heads.get(match_id)
            verified = self._verified.get(match_id)
        if known is not None and (verified == stored or not self._grown(match_id, known.last)):
            with self._lock:
                self._verified[match_id] = stored
            return known
        found = self.replay(match_id)
        if found is None:
            return None
        with self._lock:   # `stored` was read before the fold: nothing after it is missed
            self._verified[match_id] = stored
        return head_of(found)

    def _store_last(self) -> int:
        """The store's last notification id, read at most every FRESH_SECONDS (the store
        records in commit order, on PostgreSQL too: its recorder locks the table to insert)."""
        now = time.monotonic()
        with self._lock:
            if now - self._last_at < FRESH_SECONDS:
                return self._last
        last = self._store.recorder.max_notification_id() or 0
        with self._lock:
            self._last, self._last_at = last, now
        return last

    def _keep_head(self, replay: Replay) -> None:
        with self._lock:
            self._heads[replay.match_id] = head_of(replay)
            self._verified.pop(replay.match_id, None)   # asked again the next time
            self._heads.move_to_end(replay.match_id)
            while len(self._heads) > HEADS_KEPT:
                dropped, _ = self._heads.popitem(last=False)
                self._verified.pop(dropped, None)

    def replay(self, match_id: UUID) -> Replay | None:
        with self._lock:
            cached = self._cache.get(match_id)
        if cached is not None and not self._grown(match_id, cached.last):
            with self._lock:
                # Another thread may have dropped it meanwhile (the LRU full of other matches).
                if match_id in self._cache:
                    self._cache.move_to_end(match_id)
            return cached
        found = self._read(match_id)
        if found is not None:
            self._keep_head(found)
            with self._lock:
                self._cache[match_id] = found
                self._cache.move_to_end(match_id)
                while len(self._cache) > self._kept:
                    self._cache.popitem(last=False)
        return found

    def _grown(self, match_id: UUID, version: int) -> bool:
        return bool(self._store.recorder.select_events(match_id, gt=version, limit=1))

    def _read(self, match_id: UUID) -> Replay | None:
        stored = self._store.stored(match_id)
        if not stored:
            return None
        facts = [self._store.mapper.to_domain_event(s) for s in stored]
        recorded: list[tuple[MatchEvent, datetime, str]] = []
        for fact in facts:
            envelope = fact.envelope()   # type: ignore[attr-defined]
            recorded.append((fact.to_domain(),  # type: ignore[attr-defined]
                             parse_stamp(fact.timestamp),  # type: ignore[attr-defined]
                             "" if envelope is None else str(envelope)))
        if not isinstance(recorded[0][0], MatchCreated):
            return None   # a tournament's stream: not a match
        return replay_of(match_id, recorded, event_hash(stored[-1].state))

    def forget(self, match_id: UUID) -> None:
        with self._lock:
            self._cache.pop(match_id, None)
            self._heads.pop(match_id, None)
            self._verified.pop(match_id, None)
