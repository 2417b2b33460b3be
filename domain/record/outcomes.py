"""What a smazzata's and a match's end say about themselves, so read models need no replay.

`with_outcomes` completes the events an action causes: each SmazzataEnded gets its outcome (last
capture, cappotto and whether it ends the match, vinco subito), computed from the smazzata's
result as the record folds it; a smazzata with no seed to reveal (a transcribed deal) is followed
at once by the MatchEnded the format gives, if the match is over. `cut_short` ends a smazzata at
the play that completes a cappotto when the format says the match ends there (C11). `settled` is
the MatchEnded of a standing, with how the match ended and its MP difference.
"""

from __future__ import annotations

from datetime import datetime

from msgspec.structs import replace

from domain.events import CardPlayed, SmazzataEnded, SmazzataOutcome
from domain.record.events import IrregularityNoted, MatchEnded, MatchSettlement
from domain.record.games import Standing
from domain.record.match import MatchEvent, MatchState, Phase, evolve, with_changes
from domain.record.transcription import transcriber

# Events are msgspec Structs: msgspec.structs.replace changes them in C.
_ended_with = replace
_outcome_with = replace
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
                      settlement=MatchSettlement(how=how or how_it_ended(reason), mp=standing.mp,
                                                 unit=standing.unit, points=standing.points))


def cut_short(state: MatchState, events: tuple[MatchEvent, ...]) -> tuple[MatchEvent, ...]:
    """C11 (000: "effettua un cappotto e la partita termina immediatamente"): when the format
    says so, a play that completes a cappotto before the smazzata's last play ends it there.

    The play stays, with the irregularities noted on it; what would have followed it by itself
    (a new hand, an automatic accuso) does not happen, and the game's SmazzataEnded of that
    moment follows instead, its `unplayed` cards listed. `with_outcomes` then adds the
    MatchEnded in the same action.
    """
    if not state.steady.cuts_short or state.phase is not Phase.PLAY or not events \
            or not isinstance(events[0], CardPlayed) or state.setup is None:
        return events   # most plays: the format never cuts a smazzata short
    if any(isinstance(e, SmazzataEnded) for e in events):
        return events   # the last play: the smazzata ends as usual (C9), cappotto or not
    play = events[0]
    if not play.capture:
        return events   # a play that takes nothing adds nothing to a pile
    if state.transcribed:
        game = transcriber(state.rules.name).fold(state.game, play)
    else:
        game = state.engine.evolve(state.game, play)
    ended = state.setup.cut_short(game)
    if ended is None:
        return events
    kept = 1
    while kept < len(events) and isinstance(events[kept], IrregularityNoted):
        kept += 1
    return (*events[:kept], ended)


def with_outcomes(state: MatchState, events: tuple[MatchEvent, ...],
                  at: datetime) -> tuple[MatchEvent, ...]:
    return outcomes_folded(state, events, at)[0]


def outcomes_folded(state: MatchState, events: tuple[MatchEvent, ...],
                    at: datetime) -> tuple[tuple[MatchEvent, ...], MatchState | None]:
    """`with_outcomes`, and the state after all its events when completing them folded them
    (a SmazzataEnded among them), else None: `decide_folded` then need not fold them again."""
    if not any(isinstance(e, SmazzataEnded) for e in events):
        return events, None
    completed: list[MatchEvent] = []
    cut = False
    for event in events:
        if isinstance(event, SmazzataEnded):
            unplayed = event.outcome.unplayed if event.outcome is not None else ()
            cut = bool(unplayed)
            folded = evolve(state, event, at)
            event = _ended_with(event, outcome=_outcome_with(_outcome(folded),
                                                           unplayed=unplayed))
            # The outcome is the record's own: no game's fold reads it, so the state folded
            # without it differs only in the event it keeps (the score is not computed again).
            state = with_changes(folded, ended=(*folded.ended[:-1], event))
        else:
            state = evolve(state, event, at)
        completed.append(event)
    if (state.phase is Phase.COMMIT or cut) and state.forfeit is None:
        # The smazzata had no seed: nothing to reveal, so the standing is known at once. A
        # smazzata cut short by a cappotto ends the match at that play (C11); its seed is
        # revealed afterwards.
        ended = _ended_if_over(state)
        if ended is not None:
            completed.append(ended)
            state = evolve(state, ended, at)
    return tuple(completed), state


def _outcome(after: MatchState) -> SmazzataOutcome:
    assert after.setup is not None
    return after.setup.outcome(after.results[-1])


def _ended_if_over(state: MatchState) -> MatchEnded | None:
    assert state.setup is not None
    standing = state.setup.standing(state.counted(), state.adjustment)
    if not standing.over:
        return None
    return settled(standing, standing.reason, len(state.ended))
