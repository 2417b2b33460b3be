"""The tournaments' rounds as the audit log sees them: which are over, so that a checkpoint can
be made when a round ends (`verbale checkpoint --after-round`, docs/audit-log.md).

A round is over when every match scheduled in it has a `MatchEnded` (and no `MatchResumed` after
it: a ruling that resumed the match puts it back in play): its results are then in the log, and the
first checkpoint made after that fixes them. The store is read once in commit order for the topics
(no record is decoded), then each tournament's schedule is loaded.

A round's checkpoints are kept in one folder as `<tournament id>-round-<n>.txt` (and its heads
beside it). A round that gets a table after its checkpoint (a match scheduled late) is over
again once that match ends, and gets another one: `<tournament id>-round-<n>-2.txt`, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from domain.record.tournament import TournamentState
from projections.audit_log.leaves import LeavesError, parse_heads, read_leaves
from projections.audit_log.proofs import read_heads
from projections.store.app import MatchStore
from projections.store.facts import TOPIC_OF

_CREATED, _ENDED = TOPIC_OF["TournamentCreated"], TOPIC_OF["MatchEnded"]
_RESUMED = TOPIC_OF["MatchResumed"]


@dataclass(frozen=True, slots=True)
class Round:
    tournament: UUID
    name: str
    number: int
    matches: tuple[UUID, ...]     # by table
    in_play: tuple[UUID, ...]     # the scheduled matches without a MatchEnded (since resumed)

    @property
    def over(self) -> bool:
        return not self.in_play


def rounds_of(store: MatchStore, only: UUID | None = None) -> list[Round]:
    """Every round of every tournament (or of tournament `only`) holding a match, in
    tournament id and round order."""
    tournaments: set[UUID] = set()
    ended: set[UUID] = set()
    for leaf in read_leaves(store):
        if leaf.topic == _CREATED:
            tournaments.add(leaf.stream)
        elif leaf.topic == _ENDED:
            ended.add(leaf.stream)
        elif leaf.topic == _RESUMED:
            ended.discard(leaf.stream)   # a ruling resumed it: in play again
    chosen = sorted(t for t in tournaments if only is None or t == only)
    return [r for t in chosen for r in _rounds(t, store.load_tournament(t).state, ended)]


def _rounds(tournament: UUID, state: TournamentState, ended: set[UUID]) -> list[Round]:
    name = state.created.name if state.created is not None else str(tournament)
    numbers = sorted({number for number, _ in state.places})
    found = []
    for number in numbers:
        matches = tuple(UUID(match) for _, match in sorted(state.matches_of_round(number).items()))
        found.append(Round(tournament, name, number, matches,
                           tuple(m for m in matches if m not in ended)))
    return found


def round_file(directory: Path, found: Round, nth: int = 1) -> Path:
    """The `nth` checkpoint of a round in `directory`."""
    more = "" if nth == 1 else f"-{nth}"
    return directory / f"{found.tournament}-round-{found.number}{more}.txt"


def round_files(directory: Path, found: Round) -> list[Path]:
    """The checkpoints of the round kept in `directory`, the first first."""
    files, nth = [], 1
    while (path := round_file(directory, found, nth)).exists():
        files.append(path)
        nth += 1
    return files


def covering(directory: Path, found: Round) -> Path | None:
    """The latest checkpoint of the round in `directory` whose heads hold every match of the
    round (one without heads beside it is taken to), None when there is none."""
    for path in reversed(round_files(directory, found)):
        text = read_heads(path)
        if text is None:
            return path
        try:
            held = {head.stream for head in parse_heads(text)}
        except LeavesError:
            continue
        if held.issuperset(found.matches):
            return path
    return None
