"""Record bot matches into a store, command by command, as a live table does."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from domain.game import PlayCard
from domain.record.commands import CreateMatch, RecordRuling
from domain.record.envelope import RecordedBy
from domain.record.envelope import arbiter as by_arbiter
from domain.record.events import TimeControl
from domain.record.simulate import Incidents, Table, next_command
from domain.shuffle import Seed
from projections.store.app import Loaded, MatchStore
from projections.store.signatures import Signer, ensure_registered

START = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
BY = RecordedBy("simulator", "verbale tests")
TEST_KEY_SEED = bytes(range(32))
"""The private seed of the tests' arbiter key (the bots' arbiter, 'arbitro')."""


def arbiter_signer(store: MatchStore, arbiter: str = "arbitro") -> Signer:
    """The tests' key of `arbiter`, registered in `store` (dated START) unless it is, by the
    arbiter (a key the simulator registers is a demo key: docs/audit-log.md)."""
    signer = Signer.from_seed(arbiter, TEST_KEY_SEED)
    ensure_registered(store, signer, START, by_arbiter(arbiter))
    return signer


def toy_bot(game: object) -> PlayCard:
    seat = game.to_move  # type: ignore[attr-defined]
    return PlayCard(seat=seat, card=game.hands[seat][0])  # type: ignore[attr-defined]


def toy_setup(players: int = 2, target: int = 40, bank: int | None = None) -> CreateMatch:
    names = ("anna", "bruno", "carla", "dario")[:players]
    return CreateMatch(game="toy", ruleset={}, players=names, match_format={"target": str(target)},
                       time_control=TimeControl(per_move=60, bank=bank, abandon_after=120))


def record_toy_match(store: MatchStore, seed_byte: int, players: int = 2, target: int = 40,
                     incidents: Incidents | None = None, stop_after: int | None = None,
                     match: UUID | None = None, start: datetime = START) -> Loaded:
    """Play and record a toy match, from `start` on; `stop_after` leaves it in progress after
    that many actions."""
    stream = store.create_match(toy_setup(players, target), start, BY, match)
    table = Table(Seed(bytes([seed_byte % 256, seed_byte // 256]) * 8), toy_bot,
                  incidents or Incidents())
    return play_into(store, stream, table, stop_after, start)


def play_into(store: MatchStore, stream: UUID, table: Table,
              stop_after: int | None = None, start: datetime = START) -> Loaded:
    """The table's bot plays the created match `stream`, each action appended as it is decided
    (from `start` on); `stop_after` leaves it in progress after that many actions."""
    loaded = store.load(stream)
    at, actions = start, 0
    while (step := next_command(loaded.state, table, at)) is not None:
        if stop_after is not None and actions >= stop_after:
            break
        command, at, table = step
        if isinstance(command, RecordRuling):
            command = arbiter_signer(store).sign(command, stream, loaded.head)
        loaded = store.execute(stream, command, at, BY, loaded)
        actions += 1
    return loaded
