"""`verbale verify` of a Tarocchi tournament's stream (docs/tarocchi.md).

The structure, the chain and the decoding are structure.py's, as for every stream. Then each
recorded event is turned back into the command that made it and decided again on the state
before it: the seating draw is re-derived from its revealed seed (against the commitment the
creation recorded) with turn I's tables, every later turn re-seated from the standings and the
recomposition, each penalty's points re-computed from the catalogue, the tie-break seed checked
against its commitment. An event that `decide` would refuse, or would record otherwise, is a
failure. The checks' findings on the sheets (domain/tarocchi/checks.py) are reported as
findings: facts about the paper, not faults of the record. Each penalty's signature is then
checked as a card game's ruling's (rules.py `signed_rulings`, signatures.py): unsigned, signed
by another key or out of the key's window is a failure; one the importer transcribed from the
paper, unsigned, is a note.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.game import RuleViolation
from domain.record.audit import Severity
from domain.shuffle import Seed, SeedError
from domain.tarocchi.checks import Finding, findings
from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    ImposePenalty,
    RevealSorteggio,
    SeatTurn,
    TarocchiCommand,
    WritePlayerLine,
    WriteTableLine,
)
from domain.tarocchi.decide import decide
from domain.tarocchi.events import (
    PenaltyImposed,
    PlayerLineWritten,
    SeatingDrawn,
    SorteggioRevealed,
    TableLineWritten,
    TarocchiEvent,
    TarocchiTournamentCreated,
    TurnSeated,
)
from domain.tarocchi.penalties import CATALOGUE
from domain.tarocchi.state import TarocchiState, evolve
from domain.text import said_of, say

Problem = tuple[int | None, str, str, Severity]
"""(event version or None, check, message, severity) as verdicts.py's Problem takes them."""


def audit_tarocchi(events: Sequence[object]) -> tuple[TarocchiState, list[Problem]]:
    """The state the stream folds to and its problems: a failure at the first event the
    domain does not re-decide as recorded (the rest is not checked), else the sheets'
    findings."""
    state = TarocchiState()
    version = 0
    while version < len(events):
        event = events[version]
        try:
            command = command_of(event)
            expected = decide(state, command)
        except (RuleViolation, SeedError, ValueError) as error:
            return state, [(version + 1, "tarocchi", said_of(error) or str(error),
                            Severity.FAILURE)]
        recorded = tuple(events[version:version + len(expected)])
        if recorded != expected:
            return state, [(version + 1, "tarocchi", say(
                "recorded {event}, expected {expected}", event=_names(recorded),
                expected=_names(expected)), Severity.FAILURE)]
        for fact in expected:
            state = evolve(state, fact)
        version += len(expected)
    return state, [(None, "tarocchi-sheets", finding_text(f), Severity.FINDING)
                   for f in findings(state)]


def command_of(event: object) -> TarocchiCommand:
    """The command that records `event` (for a seating draw, the draw with turn I)."""
    if isinstance(event, TarocchiTournamentCreated):
        return CreateTarocchiTournament(event)
    if isinstance(event, SeatingDrawn):
        return DrawSeating(Seed.from_hex(event.seed))
    if isinstance(event, TurnSeated):
        if event.turn == 1:
            raise ValueError(say("turn I is seated by the seating draw, not on its own"))
        return SeatTurn(event.turn)
    if isinstance(event, PlayerLineWritten):
        return WritePlayerLine(event)
    if isinstance(event, TableLineWritten):
        return WriteTableLine(event)
    if isinstance(event, PenaltyImposed):
        return _penalty(event)
    if isinstance(event, SorteggioRevealed):
        return RevealSorteggio(Seed.from_hex(event.seed))
    raise ValueError(say("{type} is not an event of a Tarocchi tournament",
                         type=type(event).__name__))


def _penalty(event: PenaltyImposed) -> ImposePenalty:
    """The ruling as asked: 8.a's extra points and 8.c/8.d's important card are what the
    recorded points say (decide then re-computes the points from the catalogue)."""
    kind = CATALOGUE.get(event.code)
    extra = max(0, event.points - kind.points) if kind and kind.extra_allowed else 0
    important = not (kind and kind.needs_important_card) or event.points > 0
    return ImposePenalty(event.player, event.turn, event.smazzata, event.code, event.fate,
                         event.arbiter, event.reason, extra, important, event.signature)


def finding_text(finding: Finding) -> str:
    return say("{where}{sheet}, line {line}: {message} [{rule}]",
               where=f"{finding.source}: " if finding.source else "", sheet=finding.sheet,
               line=finding.line, message=finding.message, rule=finding.rule)


def _names(events: Sequence[TarocchiEvent] | Sequence[object]) -> str:
    return ", ".join(type(e).__name__ for e in events) or "nothing"
