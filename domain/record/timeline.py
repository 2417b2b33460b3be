"""The states of a match by version: folded once, kept, indexed.

A viewer stepping through a stored match, an auditor pointing at an event, a golden playthrough:
each asks "what was the match like after event v, and what did each viewer see?" Folding the
events again from the start for every question costs the whole match each time; the timeline
folds them once with the record's own `evolve` (domain/record/match.py) and keeps every state
(the states are frozen and share what did not change, so keeping them all is cheap).

Version v is the match after its first v events: `state(0)` is before MatchCreated,
`state(len(timeline) - 1)` after the last event. The views and the legal commands come from the
game's engine (`observe`, `legal_commands`); the timeline only adds what a game state does not
hold, the plays of the smazzata so far, as a slice of the match's CardPlayed events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.events import CardPlayed, SmazzataDealt
from domain.game import Command
from domain.record.games import GameRules
from domain.record.match import MatchEvent, MatchState, evolve, initial
from domain.text import say
from domain.viewing import (
    Observation,
    ObservationError,
    Viewer,
    Visibility,
    no_smazzata,
)


@dataclass(frozen=True, slots=True)
class Timeline:
    """Every state of one match, by version, and where each version's smazzata plays are."""

    states: tuple[MatchState, ...]
    """states[v]: the match after its first v events."""
    plays: tuple[CardPlayed, ...]
    """Every CardPlayed of the match, in order."""
    spans: tuple[tuple[int, int], ...]
    """spans[v]: plays[start:end] are the plays of the smazzata in play at version v."""

    def __len__(self) -> int:
        """The number of versions: the events folded plus one (version 0, before any)."""
        return len(self.states)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def state(self, version: int) -> MatchState:
        return self.states[_checked(self, version)]

    def smazzata_plays(self, version: int) -> tuple[CardPlayed, ...]:
        """The CardPlayed of the smazzata in play at `version`, up to it (() between smazzate)."""
        start, end = self.spans[_checked(self, version)]
        return self.plays[start:end]

    def observe(self, version: int, viewer: Viewer,
                visibility: Visibility | None = None) -> Observation:
        """`viewer`'s view after event `version`: the engine's observe of the smazzata in play,
        or the view with no cards out before a deal and between smazzate. `visibility` None:
        the table's own options, as its MatchCreated recorded them."""
        state = self.state(version)
        created, seating = state.created, state.seating
        if created is None or seating is None:
            raise ObservationError(say("version {version}: the match has not been created yet",
                                       version=version))
        if state.game is None:
            return no_smazzata(created.game, seating, viewer, state.smazzata, state.dealer)
        options = visibility if visibility is not None else table_options(state)
        return state.engine.observe(state.game, viewer, options, self.smazzata_plays(version))

    def legal_commands(self, version: int) -> tuple[Command, ...]:
        """What the seat to move may play at `version`: () outside play or with nobody to move
        (the record's own commands, seeds, timeouts and rulings, are not a seat's moves)."""
        state = self.state(version)
        if state.game is None or state.forfeit is not None or state.result is not None:
            return ()
        return state.engine.legal_commands(state.game)


def table_options(state: MatchState) -> Visibility:
    """The visibility options the match was created with."""
    recorded = state.visibility
    return Visibility(carte_viste=recorded.carte_viste, carte_scoperte=recorded.carte_scoperte)


def _checked(timeline: Timeline, version: int) -> int:
    # A negative index would silently count from the end: a version is never negative.
    if not 0 <= version < len(timeline.states):
        raise IndexError(say("version {version} is not in this timeline (0..{last})",
                             version=version, last=timeline.last))
    return version


def timeline(catalog: Mapping[str, GameRules],
             recorded: Sequence[tuple[MatchEvent, datetime]]) -> Timeline:
    """Fold `recorded` (each event with the moment it was recorded) once, keeping every state."""
    state = initial(catalog)
    states = [state]
    plays: list[CardPlayed] = []
    spans = [(0, 0)]
    start = 0
    for event, at in recorded:
        state = evolve(state, event, at)
        states.append(state)
        if isinstance(event, SmazzataDealt):
            start = len(plays)  # a new deal (or a redeal attempt): no plays yet
        elif isinstance(event, CardPlayed):
            plays.append(event)
        done = len(plays)
        spans.append((start, done) if state.game is not None else (done, done))
    return Timeline(tuple(states), tuple(plays), tuple(spans))
