"""Random live matches, for the timeline and observation tests: both games, 2 and 4 players,
random Cirulla rulesets and Briscola "vinco subito", sometimes a timeout, an abandon or a ruling,
and every move a random pick among the engine's `legal_commands`, played through the record
(play_locally: `decide`, then `evolve`) as a live table plays."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st

from domain.game import Command
from domain.match_format import MatchFormat
from domain.record.catalog import CATALOG, format_options
from domain.record.commands import CreateMatch
from domain.record.events import TableVisibility, TimeControl
from domain.record.match import MatchEvent, MatchState
from domain.record.simulate import Bot, Incidents, Table, play_locally
from domain.shuffle import Seed
from tests.domain.cirulla.helpers import rulesets

START = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
Recorded = tuple[tuple[MatchEvent, datetime], ...]


@dataclass(frozen=True, slots=True)
class LiveMatch:
    game: str
    players: int
    recorded: Recorded
    """Every event with the moment it was recorded."""
    live: tuple[tuple[int, MatchState], ...]
    """After each action: how many events were recorded so far, and the table's live state."""
    about: str
    """What was drawn, for a failing example's report (the record itself is too long)."""

    def __repr__(self) -> str:
        return f"LiveMatch({self.about}, {len(self.recorded)} events)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Hypothesis prints a dataclass field by field; the short form is enough to replay it.
        printer.text(repr(self))


def random_bot(game: str, rng: random.Random) -> Bot:
    """A player that picks any legal command: it reaches positions the demo bots never do."""
    engine = CATALOG[game].engine

    def bot(state: object) -> Command:
        return rng.choice(engine.legal_commands(state))
    return bot


incidents = st.one_of(st.just(Incidents()), st.just(Incidents()),  # most matches play out
                      st.builds(Incidents, timeout_at=st.integers(0, 40)),
                      st.builds(Incidents, abandon_at=st.integers(0, 40)),
                      st.builds(Incidents, ruling_after=st.integers(1, 30)))


@st.composite
def setups(draw: st.DrawFn, game: str, players: int) -> CreateMatch:
    if game == "cirulla":
        options = draw(rulesets).options()
        fmt = MatchFormat.parse(f"{draw(st.integers(1, 2))}smazzate", game)
    else:
        vinco = draw(st.booleans())
        options = {"vinco_subito": "true" if vinco else "false"}
        fmt = MatchFormat.parse("1smazzata", game, vinco_subito=vinco)
    names = ("Anna", "Bruno", "Carla", "Dario")[:players]
    return CreateMatch(game=game, ruleset=options, players=names,
                       match_format=format_options(fmt),
                       time_control=TimeControl(per_move=60, bank=1800, abandon_after=300),
                       first_dealer=draw(st.integers(0, players - 1)),
                       visibility=TableVisibility(draw(st.booleans()),
                                                  players == 4 and draw(st.booleans())))


@st.composite
def live_matches(draw: st.DrawFn) -> LiveMatch:
    game = draw(st.sampled_from(("cirulla", "briscola")))
    players = draw(st.sampled_from((2, 4)))
    setup = draw(setups(game, players))
    seed, rng_seed = Seed(draw(st.binary(min_size=16, max_size=16))), draw(st.integers(0, 2**32))
    table = Table(seed, random_bot(game, random.Random(rng_seed)), draw(incidents))
    about = (f"{game} {players}p {dict(setup.ruleset)} {dict(setup.match_format)} "
             f"dealer {setup.first_dealer} {setup.visibility} seed {seed.hex} rng {rng_seed} "
             f"{table.incidents}")
    recorded: list[tuple[MatchEvent, datetime]] = []
    live: list[tuple[int, MatchState]] = []
    for events, at, state in play_locally(CATALOG, setup, table, START):
        recorded.extend((event, at) for event in events)
        live.append((len(recorded), state))
    return LiveMatch(game, players, tuple(recorded), tuple(live), about)
