"""Hand records and score sheets into the store: read, judge by replay, write all or nothing.

The glue between `importers` (text in, records and reports out, no database) and the store: a
file is read (importers.notation.reader, importers.sheets.card_sheet), each match judged
(importers.notation.replay), and only a file with no error is written, in one transaction
(`MatchStore.execute_batch`): a failed file leaves the store as it was. A hand record's match is
stored under an id derived from its content hash (the SHA-256 of its strict export form), so a
second import of the same match, however it is laid out or commented, finds it stored and adds
nothing. A score sheet's claims become ScoreClaimed events of the matches they name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from domain.record.commands import ClaimScore
from domain.record.envelope import RecordedBy, importer
from domain.record.match import MatchState
from domain.text import Said, excerpt, said_of, say
from importers.notation.errors import NotationError
from importers.notation.reader import read_bytes
from importers.notation.replay import Validation, content_hash, validate
from importers.notation.report import Report
from importers.sheets.card_sheet import SheetClaim, read_sheet_bytes
from importers.sheets.compare import sheet_report
from projections.store.app import MatchStore
from projections.store.seed_registry import SeedReused
from replay_web.cli import UsageProblem
from replay_web.match_ids import resolve_match

IMPORTER = "verbale-import 0.1.0"
Action = tuple[Any, datetime, RecordedBy]


def match_id(digest: str) -> UUID:
    """The stream of an imported match: the same content, the same id."""
    return uuid5(NAMESPACE_URL, f"verbale:import:{digest}")


@dataclass
class FileOutcome:
    """What became of one file: its errors (the file was refused), its reports, the matches
    stored, and those already in the store (a score sheet: the match of each claim stored, and
    of each claim already recorded)."""

    path: str
    sheet: bool = False
    errors: list[NotationError] = field(default_factory=list)
    refusal: Said | None = None
    reports: list[Report] = field(default_factory=list)
    stored: list[UUID] = field(default_factory=list)
    already: list[UUID] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.errors) or self.refusal is not None or any(
            not r.accepted for r in self.reports)


def import_record(path: Path, store: MatchStore | None, lenient: bool,
                  dry_run: bool) -> FileOutcome:
    """One hand-record file: every match judged; stored (unless `dry_run`) only when the whole
    file holds no error, in one transaction."""
    outcome = FileOutcome(str(path))
    parsed = read_bytes(path.read_bytes(), path.name, lenient=lenient)
    outcome.errors.extend(parsed.errors)
    if not parsed.matches and not parsed.errors:
        outcome.errors.append(NotationError(path.name, 1, 1, say("no match"), say(
            "a match: its tags, starting with [Game \"cirulla\"] or [Game \"briscola\"]")))
    batch: list[tuple[UUID, Sequence[Action]]] = []
    for index, match in enumerate(parsed.matches, start=1):
        validation: Validation = validate(match, IMPORTER, index)
        outcome.reports.append(validation.report)
        stream = match_id(content_hash(match))
        # The same match twice in one file is stored once: the second copy is already there.
        if any(stream == queued for queued, _ in batch) or (
                store is not None and store.load(stream).version > 0):
            outcome.already.append(stream)
        elif validation.actions is not None:
            batch.append((stream, validation.actions))
    if outcome.failed or dry_run or store is None or not batch:
        return outcome
    try:
        store.execute_batch(batch)
    except SeedReused as reused:
        # A seed another stored match already used (a copy of a seeded record, or a forged
        # one): the store refused the whole batch, so the file is refused, nothing stored.
        return refused(outcome, said_of(reused) or say("{error}", error=str(reused)))
    outcome.stored.extend(stream for stream, _ in batch)
    return outcome


def import_sheet(path: Path, store: MatchStore | None, dry_run: bool) -> FileOutcome:
    """One score sheet: every claim compared with the stored match it names (by id or a unique
    start of it); the claims stored (unless `dry_run`) as ScoreClaimed events, all or none."""
    outcome = FileOutcome(str(path), sheet=True)
    claims = read_sheet_bytes(path.read_bytes(), path.name)
    if store is None:
        return outcome
    actions: dict[UUID, list[Action]] = {}
    for index, (stream, mine) in enumerate(_by_match(store, claims, path.name).items(),
                                           start=1):
        state = store.load(stream).state
        outcome.reports.append(sheet_report(path.name, index, _title(stream, state), mine,
                                            state))
        for claim in mine:
            command = ClaimScore(claim.smazzata, claim.rows,
                                 claim.claimed_by or f"sheet {path.name}")
            if _already_claimed(state, command):
                outcome.already.append(stream)
                continue
            actions.setdefault(stream, []).append(
                (command, _after(state), importer(IMPORTER, path.name, claim.line)))
    if outcome.failed or dry_run or not actions:
        return outcome
    store.execute_batch(list(actions.items()))
    outcome.stored.extend(stream for stream, made in actions.items() for _ in made)
    return outcome


def _by_match(store: MatchStore, claims: Sequence[SheetClaim],
              source: str) -> dict[UUID, list[SheetClaim]]:
    """The claims by the stored match they name, each way of naming it looked up once."""
    by_text: dict[str, list[SheetClaim]] = {}
    for claim in claims:
        by_text.setdefault(claim.match, []).append(claim)
    by_match: dict[UUID, list[SheetClaim]] = {}
    for mine in by_text.values():
        by_match.setdefault(_named(store, mine[0], source), []).extend(mine)
    return by_match


def _named(store: MatchStore, claim: SheetClaim, source: str) -> UUID:
    """The stored match a sheet's line names; an error of the sheet at that line (the file
    is refused, the other files go on) when it names none, several, or a tournament."""
    try:
        stream: UUID | None = resolve_match(store, claim.match)
    except UsageProblem:
        stream = None
    if stream is None or not store.stored(stream)[0].topic.endswith(":MatchCreated"):
        raise NotationError(source, claim.line, 1, excerpt(claim.match),
                            say("the id of a stored match, or a start of it that names one "
                                "match only"))
    return stream


def _title(stream: UUID, state: MatchState) -> str:
    players = ", ".join(state.created.players) if state.created is not None else "?"
    return f"{players} ({stream})"


def _after(state: MatchState) -> datetime:
    """A claim's moment: now, or just after the match's last event if the clock says later
    (a record imported with its own dates)."""
    now = datetime.now(UTC)
    last = state.last_at
    return now if last is None or last < now else last + timedelta(seconds=1)


def _already_claimed(state: MatchState, command: ClaimScore) -> bool:
    return any(c.smazzata == command.smazzata and tuple(map(tuple, c.rows)) == command.rows
               and c.claimed_by == command.claimed_by for _, c in state.claims)


def refused(outcome: FileOutcome, why: Said) -> FileOutcome:
    outcome.refusal = why
    return outcome

