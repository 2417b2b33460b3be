"""A stream whose record is sound, checked by the rules: a match replayed through `decide`
(domain/record/audit.py: every deal against its revealed seed and commitment, every play,
timeout and ruling, and the result), told in progress or finished; a tournament re-decided with
its seeds (seeds.py); a Tarocchi tournament (tarocchi.py); an arbiter's keys; and every ruling
(or Tarocchi penalty) against its arbiter's signature (projections/store/signatures.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.record.audit import Audit, Severity, audit
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
from domain.text import say
from projections.store.app import MatchStore
from projections.store.canonical import previous_hash_of
from projections.store.signatures import KeyringCache, RulingRow, audit_keys, ruling_problems
from projections.verify.seeds import redecide, seed_problems
from projections.verify.structure import envelope_kind
from projections.verify.tarocchi import audit_tarocchi
from projections.verify.verdicts import Problem, Verdict, message_of, with_problems

_SIGNED = (RulingRecorded, PenaltyImposed)


def signed_rulings(verdict: Verdict, stored: Sequence[StoredEvent],
                    decoded: list[tuple[object, datetime]], keyrings: KeyringCache) -> Verdict:
    """Every ruling of a match (penalty of a Tarocchi tournament) is its arbiter's, signed by a
    key registered for them at that moment over its content, this stream and the head it
    extends (signatures.py)."""
    rows = [_ruling_row(stored[index], event, at) for index, (event, at) in enumerate(decoded)
            if isinstance(event, _SIGNED)]   # a few rows of a stream: those alone are looked at
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
    return with_problems(verdict, found) if any(p.severity is Severity.FAILURE for p in found) \
        else replace(verdict, problems=verdict.problems + tuple(found))


def _ruling_row(row: StoredEvent, event: object, at: datetime) -> RulingRow:
    return RulingRow(row.originator_version, previous_hash_of(row.state) or "",
                     envelope_kind(row), event, at)


def audited(store: MatchStore, stream: UUID, decoded: list[tuple[object, datetime]]) -> Verdict:
    """The verdict of the rules on a stream whose record is sound."""
    first = decoded[0][0]
    if isinstance(first, MatchCreated):
        return _audited_match(store, stream, first, decoded)
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
    return Verdict(stream, "?", len(decoded),
                   (Problem(1, "order", say(
                       "a stream starts with MatchCreated or TournamentCreated, not {type}",
                       type=type(first).__name__)),))


def _audited_match(store: MatchStore, stream: UUID, first: MatchCreated,
                   decoded: list[tuple[object, datetime]]) -> Verdict:
    """A match replayed through `decide`, told finished or in progress."""
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
            return (Problem(version, "tournament", message_of(error)),)
        if expected != (event,):
            return (Problem(version, "tournament", say("recorded {event}, expected {expected}",
                                                       event=str(event),
                                                       expected=str(expected))),)
        state = evolve_tournament(state, expected[0])
    return ()
