"""The demo set of `verbale simulate matches`: both games, 2 and 4 players, every match format,
with some timeouts, abandons and rulings, all following from one seed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import datetime

from domain.cirulla.ruleset import STANDARD, TAVERNA, Ruleset
from domain.demo.seeds import demo_match_seed
from domain.games import games
from domain.match_format import CIRULLA_MAX_SMAZZATE, CIRULLA_TARGETS, MatchFormat
from domain.match_seed import first_dealer
from domain.record.catalog import CATALOG, format_options
from domain.record.commands import CreateMatch
from domain.record.events import SIMULATED, TableVisibility, TimeControl
from domain.record.match import MatchEvent, MatchState, initial
from domain.record.simulate import Bot, Incidents, Table, play_locally
from domain.shuffle import Seed

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Luca")
DEMO_SEED = Seed.from_hex("5eed0000000000000000000000000001")
"""The seed of the demo set `verbale simulate matches` plays unless told otherwise."""
DEMO_ARBITER = "arbitro"
"""The arbiter of the demo's rulings (domain/record/simulate.py)."""


def demo_key_seed(seed: Seed) -> bytes:
    """The 32-byte private seed of the demo arbiter's Ed25519 key for the demo set of `seed`.

    A DEMO KEY: anyone can derive it from the demo seed, so it proves nothing about who
    signed; it exists so that the demo's rulings are signed and verify like real ones, the
    same on every run. Never register it for a real arbiter (docs/audit-log.md)."""
    return hashlib.sha256(b"verbale/demo-arbiter-key-v1\x00" + seed.value).digest()


BOTS: dict[str, Bot] = {game.name: game.bot for game in games()
                        if game.recorded and game.bot is not None}
"""The simulator's bot of each game the match record holds (its Game's `bot`)."""


@dataclass(frozen=True, slots=True)
class DemoMatch:
    setup: CreateMatch
    match_seed: Seed
    incidents: Incidents


def play_demo(demo: DemoMatch, start: datetime, incidents: Incidents | None = None
              ) -> tuple[list[tuple[MatchEvent, datetime]], MatchState]:
    """The demo match played by its bots without a store: every event with the moment it was
    recorded, and the state after the last one (`incidents` replaces the demo's own)."""
    table = Table(demo.match_seed, BOTS[demo.setup.game],
                  demo.incidents if incidents is None else incidents)
    recorded: list[tuple[MatchEvent, datetime]] = []
    last = initial(CATALOG)
    for events, at, state in play_locally(CATALOG, demo.setup, table, start):
        recorded.extend((event, at) for event in events)
        last = state
    return recorded, last


def reseeded(demo: DemoMatch, match_seed: Seed) -> DemoMatch:
    """The same demo match played from another match seed: its first dealer and the match
    seed's commitment follow the seed."""
    players = len(demo.setup.players)
    setup = replace(demo.setup, first_dealer=first_dealer(match_seed, players),
                    match_seed_commitment=match_seed.commitment())
    return replace(demo, setup=setup, match_seed=match_seed)


def demo_formats() -> list[tuple[str, MatchFormat, Ruleset | None]]:
    """Every format of both games once, with the tavern ruleset and KO on some."""
    formats: list[tuple[str, MatchFormat, Ruleset | None]] = []
    for target in CIRULLA_TARGETS:
        formats.append(("cirulla", MatchFormat.parse(f"{target}pt", "cirulla",
                                                     cappotto_ends=target == 51),
                        TAVERNA if target == 11 else STANDARD))
    for length in range(1, CIRULLA_MAX_SMAZZATE + 1):
        formats.append(("cirulla", MatchFormat.parse(f"{length}smazzate", "cirulla",
                                                     ko=length == 2), STANDARD))
    formats.append(("briscola", MatchFormat.parse("punti", "briscola"), None))
    formats.append(("briscola", MatchFormat.parse("punti", "briscola", vinco_subito=True), None))
    for length in (1, 3, 5):
        formats.append(("briscola", MatchFormat.parse(f"{length}smazzate", "briscola",
                                                      ko=length == 3), None))
    return formats


def demo_games() -> tuple[str, ...]:
    """The games of the demo set, in the order its formats list them: one demo tournament
    each."""
    return tuple(dict.fromkeys(game for game, _, _ in demo_formats()))


def demo_set(seed: Seed, count: int | None = None, *,
             tournaments: bool = False) -> list[DemoMatch]:
    """One match per format and table size (2, then 4 players), or `count` going round them.
    `tournaments`: each match seed is its table's in the session of its round of the demo
    tournament of its game (seeds.py), as `verbale simulate matches` plays them; else
    SHA-256("verbale/demo-v1" 00 || seed || BE32(index)), the set the tests pick from."""
    kinds = [(g, f, r, p) for g, f, r in demo_formats() for p in (2, 4)]
    total = len(kinds) if count is None else count
    return [_demo(seed, index, *kinds[index % len(kinds)], tournaments)
            for index in range(total)]


def _demo(seed: Seed, index: int, game: str, fmt: MatchFormat, ruleset: Ruleset | None,
          players: int, tournaments: bool = False) -> DemoMatch:
    if tournaments:   # the seed its table gets in its round's session (seeds.py)
        match_seed = demo_match_seed(seed, game, index)
    else:
        match_seed = Seed(hashlib.sha256(b"verbale/demo-v1\x00" + seed.value
                                         + index.to_bytes(4, "big")).digest())
    names = tuple(NAMES[(index + k) % len(NAMES)] for k in range(players))
    return seeded_match(game, fmt, ruleset, names, match_seed, _visibility(index, players),
                        _incidents(index))


def seeded_match(game: str, fmt: MatchFormat, ruleset: Ruleset | None,
                 players: tuple[str, ...], match_seed: Seed,
                 visibility: TableVisibility | None = None,
                 incidents: Incidents | None = None) -> DemoMatch:
    """A simulated match played by the bots from one match seed: every smazzata seed and the
    first dealer derive from it, and it is committed to at creation (docs/shuffle.md §2)."""
    options = ruleset.options() if ruleset is not None else {
        "vinco_subito": "true" if fmt.vinco_subito else "false"}
    setup = CreateMatch(game=game, ruleset=options, players=players,
                        match_format=format_options(fmt),
                        time_control=TimeControl(per_move=60, bank=1800, abandon_after=300),
                        first_dealer=first_dealer(match_seed, len(players)),
                        provenance=SIMULATED, visibility=visibility or TableVisibility(),
                        match_seed_commitment=match_seed.commitment())
    return DemoMatch(setup, match_seed, incidents or Incidents())


def _visibility(index: int, players: int) -> TableVisibility:
    """Some tables play with the optional visibility rules (carte scoperte: pairs only)."""
    return TableVisibility(carte_viste=index % 3 == 1,
                           carte_scoperte=players == 4 and index % 5 == 2)


def _incidents(index: int) -> Incidents:
    if index % 7 == 3:
        return Incidents(timeout_at=5 + index % 11)
    if index % 7 == 5:
        return Incidents(abandon_at=9 + index % 13)
    if index % 4 == 1:
        return Incidents(ruling_after=4)
    return Incidents()
