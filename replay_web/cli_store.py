"""`verbale simulate matches [--store]` and the one recording loop of `simulate ... --store`:
bot matches recorded action by action, resumed when an interrupted run left them open."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache
from importlib.metadata import version
from typing import cast
from uuid import NAMESPACE_URL, UUID, uuid5

import click

from domain.demo.matches import (
    BOTS,
    DEMO_ARBITER,
    DEMO_SEED,
    DemoMatch,
    demo_games,
    demo_key_seed,
    demo_set,
    play_demo,
)
from domain.demo.seeds import demo_place
from domain.demo.transcribed import IMPORTER, SOURCE, transcribe
from domain.record.clock import stamp, utc
from domain.record.commands import CreateMatch, MatchCommand, RecordRuling
from domain.record.decide import decide
from domain.record.envelope import RecordedBy, importer
from domain.record.events import DeclaredVpTable
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.simulate import Table, next_command
from domain.record.tournament import TournamentRefused, TournamentState
from domain.shuffle import Seed, SeedError
from projections.store.app import ConcurrencyConflict, Loaded, MatchStore
from projections.store.signatures import Signer, ensure_registered
from replay_web.cli import CommandFailed, database_option, simulate
from replay_web.cli_database import open_store
from replay_web.cli_legal import reason_text
from replay_web.cli_tournament_seeds import commit_demo_seeds, reveal_demo_sessions
from replay_web.cli_vp import declared_for_both_games
from replay_web.i18n import _, translate_error
from replay_web.progress import progress
from replay_web.read_models import catch_up_read_models

START = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)


def simulator() -> RecordedBy:
    """The envelope of what the simulator records: the program and its version."""
    return RecordedBy("simulator", f"verbale {version('verbale')}")


@simulate.command("matches")
@click.option("--seed", "seed_text", default="5eed0000000000000000000000000001",
              show_default=True, help="Seed of the whole demo set, hex, at least 128 bits.")
@click.option("--count", type=click.IntRange(1, 10_000), default=None,
              help="How many matches (default: one of each kind in the demo set).")
@click.option("--store", "into_store", is_flag=True, help="Record them into the event store.")
@click.option("--vp-table", "vp_table_file", type=click.Path(exists=True, dir_okay=False),
              default=None, help="A VP table file the demo tournaments declare (the layout of "
                                 "domain/vp_tables.toml); default: the standard table.")
@database_option
def simulate_matches(seed_text: str, count: int | None, into_store: bool,
                     database: str | None, vp_table_file: str | None = None) -> None:
    """Play a demo set of matches (both games, 2 and 4 players, every format, some timeouts,
    abandons and rulings); with --store, record them, one transaction per action (a match's
    place in its tournament and its creation in one), and, for the whole set, one transcribed
    match (unknown cards, two noted irregularities). Run again, it completes the matches an
    interrupted run left open."""
    try:
        seed = Seed.from_hex(seed_text)
    except SeedError as error:
        raise click.BadParameter(translate_error(error), param_hint="--seed") from None
    declared = None if vp_table_file is None else declared_for_both_games(vp_table_file)
    demos = demo_set(seed, count, tournaments=True)   # seeded by the tournaments' sessions
    if not into_store:
        for demo in demos:
            click.echo(_line(None, demo, _play_only(demo)))
        return
    store = open_store(database)
    try:
        tournaments = _tournaments(store, seed, declared)
        signer = demo_signer(store, seed)
        for index, demo in progress(list(enumerate(demos)), len(demos),
                                    _("recording matches")):
            for line in _record(store, demo, tournaments, index, signer):
                click.echo(line)
        reveal_demo_sessions(store, seed, tournaments, len(demos), START, simulator())
        if count is None:
            for line in _record_transcribed(store, seed):
                click.echo(line)
        behind = catch_up_read_models(store, database)
    finally:
        store.close()
    if behind is not None:
        raise behind


def _record_transcribed(store: MatchStore, seed: Seed) -> list[str]:
    """The demo's transcribed match, each action with the importer's envelope (file:line),
    recorded as one import: in one transaction, all or nothing. A transcription left half
    recorded (one transaction per action, before) is completed from where it stopped."""
    stream = uuid5(NAMESPACE_URL, f"verbale:demo:{seed.hex}:transcribed")
    actions = [(command, at, importer(IMPORTER, SOURCE, line))
               for line, (command, at) in enumerate(transcribe().commands, start=1)]
    loaded = store.load(stream)
    lines = []
    if not _finished(loaded.state):
        done = _actions_stored(store, stream, loaded, [(c, at) for c, at, _by in actions])
        (loaded,) = store.execute_batch([(stream, actions[done:])])
        if done:
            lines.append(_resumed(stream))
    result = loaded.state.result
    outcome = _("in progress") if result is None else _outcome(result.scores, result.reason)
    noted = len(loaded.state.irregularities)
    lines.append(_("{stream}  cirulla  2p transcribed {events:>5} events  {outcome}, {noted} "
                   "irregularities noted").format(stream=stream, events=loaded.version,
                                                  outcome=outcome, noted=noted))
    return lines


def _play_only(demo: DemoMatch) -> tuple[int, MatchState]:
    recorded, last = play_demo(demo, START)
    return len(recorded), last


def _tournaments(store: MatchStore, seed: Seed,
                 declared: DeclaredVpTable | None = None) -> dict[str, Loaded]:
    """The demo's two tournaments, created if missing (each in one transaction), declaring
    `declared` as their VP table (None: the standard one)."""
    loaded = {}
    for game in demo_games():
        stream = uuid5(NAMESPACE_URL, f"verbale:demo:{seed.hex}:{game}")
        if store.load_tournament(stream).version == 0:
            store.create_tournament(f"Torneo dimostrativo di {game}", game, START, simulator(),
                                    stream, vp_table=declared)
        commit_demo_seeds(store, stream, seed, game, START, simulator())
        loaded[game] = store.load_tournament(stream)
    return loaded


def _record(store: MatchStore, demo: DemoMatch, tournaments: dict[str, Loaded],
            index: int, signer: Callable[[], Signer]) -> list[str]:
    """Record demo match `index` at its round and table, or complete it if an interrupted run
    left it open; its line (and one saying it was resumed)."""
    stream = uuid5(NAMESPACE_URL, f"verbale:demo:{demo.match_seed.hex}")
    tournament = tournaments[demo.setup.game]
    place = demo_place(index)   # the table whose session seed the match seed is
    setup = replace(demo.setup, tournament=str(tournament.stream), round=place[0],
                    table=place[1])
    loaded, how = _record_bot(store, stream, replace(demo, setup=setup), START, tournaments,
                              signer)
    lines = [_resumed(stream)] if how == "resumed" else []
    return [*lines, _line(stream, demo, (loaded.version, loaded.state))]


def record_match(store: MatchStore, stream: UUID, demo: DemoMatch,
                 start: datetime = START) -> Loaded:
    """Record a bot match into the store action by action, one transaction each, as a live
    table does: the one recording loop of `simulate ... --store`. A match already stored and
    not finished (an interrupted run) is completed from its stored state. Its rulings are
    signed with the demo arbiter's key (of the default demo seed), registered if missing."""
    return _record_bot(store, stream, demo, start, None, demo_signer(store, DEMO_SEED))[0]


def demo_signer(store: MatchStore, seed: Seed) -> Callable[[], Signer]:
    """The demo arbiter's key for the demo set of `seed` (a public demo key: domain/record/
    demo.py), registered in the store at its first use unless it is already (dated START)."""

    @cache
    def signer() -> Signer:
        made = Signer.from_seed(DEMO_ARBITER, demo_key_seed(seed))
        ensure_registered(store, made, START, simulator())
        return made
    return signer


def _record_bot(store: MatchStore, stream: UUID, demo: DemoMatch, start: datetime,
                tournaments: dict[str, Loaded] | None,
                signer: Callable[[], Signer]) -> tuple[Loaded, str]:
    """The recording loop; how it went: "recorded", "resumed" or "stored" (finished before).
    With `tournaments`, the match is scheduled in its tournament (which the dict's entry for
    its game is) and created in one transaction, and the entry follows the write."""
    by = simulator()
    table, at = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents), start
    loaded = store.load(stream)
    if loaded.version == 0:
        how = "recorded"
        if tournaments is None:
            loaded = store.execute(stream, demo.setup, start, by)
        else:
            game = demo.setup.game
            place = (demo.setup.round or 0, demo.setup.table or 0)
            if cast(TournamentState, tournaments[game].state).places.get(place) == str(stream):
                how = "resumed"   # scheduled by an earlier run that stopped before creating it
            tournaments[game], loaded = _schedule_and_create(store, tournaments[game], stream,
                                                             demo.setup, start, by)
    elif _finished(loaded.state):
        return loaded, "stored"
    else:
        how = "resumed"
        table, at = _resume_point(store, stream, demo, start, loaded)
    while (step := next_command(loaded.state, table, at)) is not None:
        command, at, table = step
        if isinstance(command, RecordRuling):
            command = signer().sign(command, stream, loaded.head)
        loaded = store.execute(stream, command, at, by, loaded)
    return loaded, how


def _schedule_and_create(store: MatchStore, tournament: Loaded, stream: UUID,
                         setup: CreateMatch, at: datetime,
                         by: RecordedBy) -> tuple[Loaded, Loaded]:
    try:
        try:
            return store.schedule_and_create(tournament.stream, stream, setup, at, by,
                                             tournament)
        except ConcurrencyConflict:   # another writer scheduled a match meanwhile: read again
            return store.schedule_and_create(tournament.stream, stream, setup, at, by)
    except TournamentRefused as refused:
        raise CommandFailed(_("match {stream} cannot be scheduled in tournament {tournament}: "
                              "{reason}").format(stream=stream, tournament=tournament.stream,
                                                 reason=translate_error(refused))) from None


def _finished(state: MatchState) -> bool:
    """Over, every seed revealed, and the match seed too if it was committed to."""
    promised = state.created.match_seed_commitment if state.created else None
    return (state.phase is Phase.ENDED and state.commitment is None
            and (promised is None or state.match_seed is not None))


def _resume_point(store: MatchStore, stream: UUID, demo: DemoMatch, start: datetime,
                  loaded: Loaded) -> tuple[Table, datetime]:
    """The bot table and its clock after the stored events: the match is played again from its
    seed without the store, and every stored event must be the one the bots' table makes; then
    the recording goes on exactly where the interrupted run stopped."""
    table, at = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents), start
    stored = [(fact.to_domain(), fact.timestamp) for fact in store.facts(stream)]
    state, command, done = initial(store.catalog), cast(MatchCommand, demo.setup), 0
    while True:
        if isinstance(command, RecordRuling) and done < len(stored):
            # the stored ruling's signature, as it was signed when first recorded
            command = replace(command, signature=getattr(stored[done][0], "signature", None))
        for event in decide(state, command, at):
            if done >= len(stored) or stored[done] != (event, stamp(at)):
                raise _cannot_resume(stream, done + 1)
            state, done = evolve(state, event, utc(at)), done + 1
        if done == len(stored):
            return table, at
        step = next_command(state, table, at)
        if step is None:
            raise _cannot_resume(stream, done + 1)
        command, at, table = step


def _actions_stored(store: MatchStore, stream: UUID, loaded: Loaded,
                    actions: list[tuple[MatchCommand, datetime]]) -> int:
    """How many of `actions` the stored events of `stream` are (a prefix of them, or fail)."""
    if loaded.version == 0:
        return 0
    stored = [(fact.to_domain(), fact.timestamp) for fact in store.facts(stream)]
    state, done = initial(store.catalog), 0
    for number, (command, at) in enumerate(actions, start=1):
        for event in decide(state, command, at):
            if done >= len(stored) or stored[done] != (event, stamp(at)):
                raise _cannot_resume(stream, done + 1)
            state, done = evolve(state, event, utc(at)), done + 1
        if done == len(stored):
            return number
    raise _cannot_resume(stream, done + 1)


def _cannot_resume(stream: UUID, event: int) -> CommandFailed:
    return CommandFailed(_("match {stream} is stored but not finished, and its event {event} is "
                           "not what this recording makes: it cannot be completed here "
                           "(nothing was recorded; 'verbale verify --match {stream}' checks "
                           "it)").format(stream=stream, event=event))


def _resumed(stream: UUID) -> str:
    return _("resumed match {stream} left open by an interrupted run").format(stream=stream)


def store_seeded(demo: DemoMatch, database: str | None) -> None:
    """`simulate cirulla|briscola --store`: record that seeded match and say where it is."""
    stream = uuid5(NAMESPACE_URL, f"verbale:simulate:{demo.match_seed.hex}:"
                                  f"{sorted(demo.setup.match_format.items())}:"
                                  f"{sorted(demo.setup.ruleset.items())}:"
                                  f"{len(demo.setup.players)}")
    store = open_store(database)
    try:
        loaded, how = _record_bot(store, stream, demo, START, None,
                                  demo_signer(store, DEMO_SEED))
        behind = catch_up_read_models(store, database)
    finally:
        store.close()
    click.echo(_line(stream, demo, (loaded.version, loaded.state)))
    if how == "resumed":
        click.echo(_resumed(stream))
    elif how == "stored":
        click.echo(_("already recorded as match {stream}").format(stream=stream))
    else:
        click.echo(_("recorded as match {stream}").format(stream=stream))
    if behind is not None:
        raise behind   # said after what was recorded: the events stay


def _line(stream: UUID | None, demo: DemoMatch, played: tuple[int, MatchState]) -> str:
    events, state = played
    fmt = demo.setup.match_format
    result = state.result
    outcome = _("in progress") if result is None else _outcome(result.scores, result.reason)
    where = f"{stream}  " if stream is not None else ""
    return _("{where}{game:<8} {players}p {kind:<8} {length:>2}  {events:>4} events  {outcome}"
             ).format(where=where, game=demo.setup.game, players=len(demo.setup.players),
                      kind=fmt["kind"], length=fmt["length"], events=events, outcome=outcome)


def _outcome(scores: tuple[int, int], reason: str) -> str:
    return _("{first}-{second} ({reason})").format(first=scores[0], second=scores[1],
                                                   reason=reason_text(reason))
