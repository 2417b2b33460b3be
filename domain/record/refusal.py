"""The record's refusal: a command that breaks the record's own rules (phase, seeds, clock)."""

from __future__ import annotations

from domain.game import RuleViolation
from domain.record.match import MatchState, Phase


class RecordRefused(RuleViolation):
    """A command the match record refuses: wrong phase, bad seed, unjustified timeout..."""


def need(state: MatchState, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise RecordRefused("phase", f"{what}: not now, the match is at phase "
                                     f"'{state.phase.value}' (smazzata {state.smazzata})")
