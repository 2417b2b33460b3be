"""`verbale verify`, `verbale export` and `verbale simulate matches --store`: the event store."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import UTC, datetime
from importlib.metadata import version
from typing import TextIO
from uuid import NAMESPACE_URL, UUID, uuid5

import click

from domain.record.audit import Severity
from domain.record.demo import BOTS, DemoMatch, demo_set, play_demo
from domain.record.demo_transcribed import IMPORTER, SOURCE, transcribe
from domain.record.envelope import RecordedBy, importer
from domain.record.match import MatchState
from domain.record.simulate import Table, next_command
from domain.record.tournament import ScheduleMatch
from domain.shuffle import Seed, SeedError
from projections.store.app import Loaded, MatchStore
from projections.store.config import StoreConfigError
from projections.store.export import ExportError, export_jsonl
from projections.store.verify import Verdict, summary, verify_store
from replay_web.cli import cli, simulate

START = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
DATABASE_HELP = "Database URL (default: $VERBALE_DATABASE_URL, else sqlite:///var/verbale.db)."


def simulator() -> RecordedBy:
    """The envelope of what the simulator records: the program and its version."""
    return RecordedBy("simulator", f"verbale {version('verbale')}")


def open_store(database: str | None) -> MatchStore:
    try:
        return MatchStore(url=database)
    except StoreConfigError as error:
        raise click.BadParameter(str(error), param_hint="--database") from None


def parse_id(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a match id (a UUID)",
                                 param_hint="--match") from None


@cli.command("verify")
@click.option("--match", "match_text", default=None, help="Check only this match (its id).")
@click.option("--database", default=None, help=DATABASE_HELP)
def verify(match_text: str | None, database: str | None) -> None:
    """Re-check every match: chain, head, seeds and deals, every play, and the result."""
    only = parse_id(match_text) if match_text else None
    store = open_store(database)
    try:
        verdicts = verify_store(store, only)
    finally:
        store.close()
    for verdict in verdicts:
        for line in render_verdict(verdict):
            click.echo(line)
    click.echo(summary(verdicts))
    if not all(v.ok for v in verdicts):
        sys.exit(1)


def render_verdict(verdict: Verdict) -> list[str]:
    failed = len(verdict.of(Severity.FAILURE))
    status = "OK" if verdict.ok else f"FAILED ({failed} problem{'' if failed == 1 else 's'})"
    found = [_count(len(verdict.of(Severity.FINDING)), "irregularity", "irregularities"),
             _count(len(verdict.of(Severity.NOTE)), "unverifiable check", "unverifiable checks")]
    extra = ", ".join(f for f in found if f)
    if extra:
        status += f", {extra}"
    head = f"{verdict.stream}  {verdict.kind:<14} {verdict.events:>5} events  {status}"
    lines = [head + (f"  ({verdict.note})" if verdict.note and verdict.ok else "")]
    lines.extend(f"    match {verdict.stream} {problem}"
                 for problem in sorted(verdict.problems, key=lambda p: -p.severity))
    if verdict.note and not verdict.ok:
        lines.append(f"    {verdict.note}")
    return lines


def _count(n: int, one: str, many: str) -> str:
    return "" if n == 0 else f"{n} {one if n == 1 else many}"


@cli.command("export")
@click.option("--match", "match_text", required=True, help="The match id.")
@click.option("--format", "fmt", type=click.Choice(["jsonl"]), default="jsonl",
              show_default=True)
@click.option("--output", type=click.File("w", encoding="utf-8"), default="-",
              help="Output file (default: standard output).")
@click.option("--database", default=None, help=DATABASE_HELP)
def export(match_text: str, fmt: str, output: TextIO, database: str | None) -> None:
    """Write a match's events as JSON lines (docs/events.md)."""
    stream = parse_id(match_text)
    store = open_store(database)
    try:
        for line in export_jsonl(store, stream):
            output.write(line + "\n")
    except ExportError as error:
        raise click.ClickException(str(error)) from None
    finally:
        store.close()


@simulate.command("matches")
@click.option("--seed", "seed_text", default="5eed0000000000000000000000000001",
              show_default=True, help="Seed of the whole demo set, hex, at least 128 bits.")
@click.option("--count", type=click.IntRange(1, 10_000), default=None,
              help="How many matches (default: one of each kind in the demo set).")
@click.option("--store", "into_store", is_flag=True, help="Record them into the event store.")
@click.option("--database", default=None, help=DATABASE_HELP)
def simulate_matches(seed_text: str, count: int | None, into_store: bool,
                     database: str | None) -> None:
    """Play a demo set of matches (both games, 2 and 4 players, every format, some timeouts,
    abandons and rulings); with --store, record them, one transaction per action, and, for the
    whole set, one transcribed match (unknown cards, two noted irregularities)."""
    try:
        seed = Seed.from_hex(seed_text)
    except SeedError as error:
        raise click.BadParameter(str(error), param_hint="--seed") from None
    demos = demo_set(seed, count)
    if not into_store:
        for demo in demos:
            click.echo(_line(None, demo, _play_only(demo)))
        return
    store = open_store(database)
    try:
        tournaments = _tournaments(store, seed)
        for index, demo in enumerate(demos):
            click.echo(_line(*_record(store, demo, tournaments, index)))
        if count is None:
            click.echo(_record_transcribed(store, seed))
    finally:
        store.close()


def _record_transcribed(store: MatchStore, seed: Seed) -> str:
    """The demo's transcribed match, each action with the importer's envelope (file:line)."""
    stream = uuid5(NAMESPACE_URL, f"verbale:demo:{seed.hex}:transcribed")
    loaded = store.load(stream)
    if not loaded.version:
        for line, (command, at) in enumerate(transcribe().commands, start=1):
            loaded = store.execute(stream, command, at, importer(IMPORTER, SOURCE, line), loaded)
    result = loaded.state.result
    outcome = "in corso" if result is None else (f"{result.scores[0]}-{result.scores[1]} "
                                                 f"({result.reason})")
    noted = len(loaded.state.irregularities)
    return (f"{stream}  cirulla  2p trascritta    {loaded.version:>4} events  {outcome}, "
            f"{noted} irregolarità annotate")


def _play_only(demo: DemoMatch) -> tuple[int, MatchState]:
    recorded, last = play_demo(demo, START)
    return len(recorded), last


def _tournaments(store: MatchStore, seed: Seed) -> dict[str, UUID]:
    ids = {}
    for game in ("cirulla", "briscola"):
        stream = uuid5(NAMESPACE_URL, f"verbale:demo:{seed.hex}:{game}")
        if store.load_tournament(stream).version == 0:
            store.create_tournament(f"Torneo dimostrativo di {game}", game, START, simulator(),
                                    stream)
        ids[game] = stream
    return ids


def _record(store: MatchStore, demo: DemoMatch, tournaments: dict[str, UUID],
            index: int) -> tuple[UUID, DemoMatch, tuple[int, MatchState]]:
    stream = uuid5(NAMESPACE_URL, f"verbale:demo:{demo.match_seed.hex}")
    existing = store.load(stream)
    if existing.version:
        return stream, demo, (existing.version, existing.state)
    tournament = tournaments[demo.setup.game]
    place = (index // 4 + 1, index % 4 + 1)
    setup = replace(demo.setup, tournament=str(tournament), round=place[0], table=place[1])
    store.schedule(tournament, ScheduleMatch(place[0], place[1], str(stream)), START,
                   simulator())
    loaded = record_match(store, stream, replace(demo, setup=setup))
    return stream, demo, (loaded.version, loaded.state)


def record_match(store: MatchStore, stream: UUID, demo: DemoMatch,
                 start: datetime = START) -> Loaded:
    """Record a bot match into the store action by action, one transaction each, as a live
    table does: the one recording loop of `simulate ... --store`."""
    by = simulator()
    loaded = store.execute(stream, demo.setup, start, by)
    table, at = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents), start
    while (step := next_command(loaded.state, table, at)) is not None:
        command, at, table = step
        loaded = store.execute(stream, command, at, by, loaded)
    return loaded


def store_seeded(demo: DemoMatch, database: str | None) -> None:
    """`simulate cirulla|briscola --store`: record that seeded match and say where it is."""
    stream = uuid5(NAMESPACE_URL, f"verbale:simulate:{demo.match_seed.hex}:"
                                  f"{sorted(demo.setup.match_format.items())}:"
                                  f"{sorted(demo.setup.ruleset.items())}:"
                                  f"{len(demo.setup.players)}")
    store = open_store(database)
    try:
        existing = store.load(stream)
        loaded = existing if existing.version else record_match(store, stream, demo)
    finally:
        store.close()
    click.echo(_line(stream, demo, (loaded.version, loaded.state)))
    click.echo(f"recorded as match {stream}" if not existing.version
               else f"already recorded as match {stream}")


def _line(stream: UUID | None, demo: DemoMatch, played: tuple[int, MatchState]) -> str:
    events, state = played
    fmt = demo.setup.match_format
    result = state.result
    outcome = ("in corso" if result is None else
               f"{result.scores[0]}-{result.scores[1]} ({result.reason})")
    where = f"{stream}  " if stream is not None else ""
    return (f"{where}{demo.setup.game:<8} {len(demo.setup.players)}p {fmt['kind']:<8} "
            f"{fmt['length']:>2}  {events:>4} events  {outcome}")
