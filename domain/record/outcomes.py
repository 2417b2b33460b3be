"""What a smazzata's and a match's end say about themselves, so read models need no replay.

`with_outcomes` completes the events an action causes: each SmazzataEnded gets its outcome (last
capture, cappotto and whether it ends the match, vinco subito), computed from the smazzata's
result as the record folds it; a smazzata with no seed to reveal (a transcribed deal) is followed
at once by the MatchEnded the format gives, if the match is over. `settled` is the MatchEnded of
a standing, with how the match ended and its MP difference.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from domain.events import SmazzataEnded, SmazzataOutcome
from domain.record.events import MatchEnded, MatchSettlement
from domain.record.games import Standing
from domain.record.match import MatchEvent, MatchState, Phase, evolve

_HOW = {"target": "target", "punti": "points", "smazzate": "smazzate",
        "maggioranza certa": "smazzate", "parità": "smazzate", "cappotto": "cappotto",
        "vinco subito": "vinco subito"}


def how_it_ended(reason: str) -> str:
    """The way a match ended (events.ENDINGS) from the match format's reason."""
    if reason in ("timeout", "abandon"):
        return reason
    return _HOW.get(reason, "spareggio" if "spareggio" in reason else reason)


def settled(standing: Standing, reason: str, smazzate: int, how: str | None = None) -> MatchEnded:
    return MatchEnded(scores=standing.scores, winner=standing.winner, reason=reason,
                      smazzate=smazzate,
                      settlement=MatchSettlement(how=how or how_it_ended(reason), mp=standing.mp))


def with_outcomes(state: MatchState, events: tuple[MatchEvent, ...],
                  at: datetime) -> tuple[MatchEvent, ...]:
    if not any(isinstance(e, SmazzataEnded) for e in events):
        return events
    completed: list[MatchEvent] = []
    for event in events:
        if isinstance(event, SmazzataEnded):
            event = replace(event, outcome=_outcome(evolve(state, event, at)))
        completed.append(event)
        state = evolve(state, event, at)
    if state.phase is Phase.COMMIT and state.forfeit is None:
        # The smazzata had no seed: nothing to reveal, so the standing is known at once.
        ended = _ended_if_over(state)
        if ended is not None:
            completed.append(ended)
    return tuple(completed)


def _outcome(after: MatchState) -> SmazzataOutcome:
    assert after.setup is not None
    return after.setup.outcome(after.results[-1])


def _ended_if_over(state: MatchState) -> MatchEnded | None:
    assert state.setup is not None
    standing = state.setup.standing(state.counted(), state.adjustment)
    if not standing.over:
        return None
    return settled(standing, standing.reason, len(state.ended))
