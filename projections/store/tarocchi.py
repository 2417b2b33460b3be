"""A Sicilian Tarocchi tournament (source 003, docs/tarocchi.md) as a stream of the event store.

The stream starts with TarocchiTournamentCreated; its events are the stored classes of facts.py
(canonical JSON, hash-chained like a match's). A command is decided by the domain
(domain/tarocchi/decide.py) on the stored state and its events appended in one transaction; a
run of commands (an import, a seating) is decided whole and appended all or nothing. Another
writer's append in between is a ConcurrencyConflict: nothing is stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import cast
from uuid import UUID, uuid5

from eventsourcing.persistence import IntegrityError

from domain.record.envelope import RecordedBy
from domain.tarocchi.commands import ImposePenalty, TarocchiCommand
from domain.tarocchi.decide import decide
from domain.tarocchi.events import PenaltyImposed, TarocchiEvent, TarocchiTournamentCreated
from domain.tarocchi.state import TarocchiState, evolve
from domain.text import say
from projections.store.app import ConcurrencyConflict, Loaded, MatchStore, chain_facts
from projections.store.canonical import GENESIS, event_hash
from projections.store.facts import TAROCCHI_FACTS, StoredFact
from projections.store.signatures import Signer

FIRST_TYPE = TarocchiTournamentCreated.__name__
_TYPES = frozenset(c.__name__ for c in TAROCCHI_FACTS)
_NAMESPACE = UUID("5d0c8f2e-3b7a-5a41-9a55-7a726f636368")
"""The namespace of imported tournaments' ids (the same sheets give the same stream)."""


class NotATarocchiTournament(LookupError):
    """A stream that is not a stored Tarocchi tournament (a usage problem: exit code 2)."""

    exit_code = 2


def is_tarocchi(store: MatchStore, stream: UUID) -> bool:
    """Whether `stream` is stored and starts with TarocchiTournamentCreated (one key lookup)."""
    rows = store.chained.select_events(stream, limit=1)
    return bool(rows) and rows[0].topic.rpartition(":")[2] == FIRST_TYPE


def load_tarocchi(store: MatchStore, stream: UUID, *, must_exist: bool = True) -> Loaded:
    """The stored tournament: its TarocchiState, version and head."""
    stored = store.stored(stream)
    if must_exist and (not stored or stored[0].topic.rpartition(":")[2] != FIRST_TYPE):
        raise NotATarocchiTournament(say("{stream} is not a stored Tarocchi tournament",
                                         stream=str(stream)))
    state = TarocchiState()
    for row in stored:
        fact = cast(StoredFact, store.mapper.to_domain_event(row))
        if fact.type not in _TYPES:
            raise NotATarocchiTournament(say("{stream}: event {version} is a {type}",
                                             stream=str(stream), version=fact.version,
                                             type=fact.type))
        state = evolve(state, fact.to_domain())
    head = event_hash(stored[-1].state) if stored else GENESIS
    return Loaded(stream, state, len(stored), head)


def decided(state: TarocchiState, commands: Sequence[TarocchiCommand]
            ) -> tuple[TarocchiState, list[TarocchiEvent]]:
    """The state and events after deciding `commands` in order (the first refusal raises
    TarocchiRefused; nothing is kept)."""
    events: list[TarocchiEvent] = []
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    return state, events


def execute_tarocchi(store: MatchStore, stream: UUID, commands: Sequence[TarocchiCommand],
                     at: datetime, by: RecordedBy, loaded: Loaded | None = None) -> Loaded:
    """Decide `commands` on the stored tournament (or `loaded`) and append every event they
    cause in one transaction, or none."""
    current = loaded if loaded is not None and loaded.stream == stream \
        else load_tarocchi(store, stream, must_exist=False)
    state, events = decided(cast(TarocchiState, current.state), commands)
    return _append(store, current, state, events, at, by)


def execute_signed_penalty(store: MatchStore, stream: UUID, command: ImposePenalty,
                           signer: Signer, at: datetime, by: RecordedBy) -> Loaded:
    """Decide the penalty on the stored tournament, sign the PenaltyImposed it records (the
    points the catalogue gives included) over the tournament's current head, and record it on
    exactly that state: another writer's append in between is a ConcurrencyConflict."""
    loaded = load_tarocchi(store, stream)
    (event,) = decide(cast(TarocchiState, loaded.state), command)
    signed = signer.sign(cast(PenaltyImposed, event), stream, loaded.head)
    return execute_tarocchi(store, stream, [replace(command, signature=signed.signature)], at,
                            by, loaded)


def record_tarocchi(store: MatchStore, loaded: Loaded, events: Sequence[TarocchiEvent],
                    at: datetime, by: RecordedBy) -> Loaded:
    """Append events already decided on `loaded`'s state (an import's, importers/sheets) in
    one transaction: they are folded again here, and a writer that appended since makes it a
    ConcurrencyConflict."""
    state = cast(TarocchiState, loaded.state)
    for event in events:
        state = evolve(state, event)
    return _append(store, loaded, state, events, at, by)


def _append(store: MatchStore, loaded: Loaded, state: TarocchiState,
            events: Sequence[TarocchiEvent], at: datetime, by: RecordedBy) -> Loaded:
    if not events:
        return loaded
    facts, head = chain_facts(loaded.stream, loaded.version, loaded.head, events, at, by)
    try:
        store.events.put(facts)
    except IntegrityError as error:
        raise ConcurrencyConflict(say(
            "stream {streams} was changed by another writer meanwhile (an event at the same "
            "version is already stored); nothing was recorded: reload and try again [{error}]",
            streams=str(loaded.stream), error=str(error))) from None
    return Loaded(loaded.stream, state, loaded.version + len(facts), head)


def imported_id(files: Sequence[tuple[str, str]]) -> UUID:
    """The stream id of a tournament imported from `files` (name, text): the same texts give
    the same id, whatever their order or names, so importing them again stores nothing."""
    digest = hashlib.sha256()
    for text in sorted(text for _, text in files):
        digest.update(hashlib.sha256(text.encode("utf-8")).digest())
    return uuid5(_NAMESPACE, "tarocchi/" + digest.hexdigest())
