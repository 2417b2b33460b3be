"""The record's refusal: a command that breaks the record's own rules (phase, seeds, clock)."""

from __future__ import annotations

from domain.game import RuleViolation
from domain.record.match import MatchState, Phase
from domain.text import Said, say


class RecordRefused(RuleViolation):
    """A command the match record refuses: wrong phase, bad seed, unjustified timeout..."""


def need(state: MatchState, phase: Phase, what: Said) -> None:
    """`what` (e.g. say("play a card")) is refused unless the match is at `phase`."""
    if state.phase is not phase:
        raise RecordRefused("phase", say("{what}: not now, the match is at phase '{phase}' "
                                         "(smazzata {smazzata})", what=what,
                                         phase=state.phase.value, smazzata=state.smazzata + 1))


def one_based(number: int | None) -> int | None:
    """A seat (or smazzata) as people count it, from 1; the data keeps 0 (docs/i18n.md)."""
    return None if number is None else number + 1
