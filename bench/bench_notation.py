"""Hand records: parse and validate, against python-chess reading PGN (docs/benchmarks.md).

Run: .venv/bin/python -m bench.bench_notation [--runs R] [--matches N] [--quick] [--profile]

verbale: N bot matches of the demo set (`verbale simulate matches`: both games, 2 and 4 players,
every format, some timeouts, abandons and rulings, all from one seed) are played, turned into
the notation once (importers/notation/from_events.py, then writer.py: one text of N matches),
and checked (read back, every match accepted, the same plays). Timed, each run:
`reader.read(text)` of the whole text, then `replay.validate(match, "bench")` of every match
(validation replays every play through the rules). A play is a `WrittenPlay` (a card played).

The baseline, same process, same run (the runs alternate): python-chess, random legal games from
a fixed seed, 40 to 120 plies each (ending naturally or cut), as many moves in all as the verbale
text has plays, written with `str(game)` into one PGN text; timed: `chess.pgn.read_game` over the
text until None (it parses each move's SAN and checks it against the board).

Target (issue 12): verbale plays/s at least python-chess moves/s.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import chess
import chess.pgn

from bench.machine import machine
from domain.demo.matches import DemoMatch, demo_set, play_demo
from domain.shuffle import Seed
from importers.notation.from_events import written_from_events
from importers.notation.model import WrittenMatch, WrittenPlay
from importers.notation.reader import read
from importers.notation.replay import validate
from importers.notation.writer import write_matches

SEED = Seed(b"\x12" * 16)
"""The demo set's seed: every match, deal and bot choice follows from it."""
CHESS_SEED = 12
START = datetime.fromisoformat("2026-11-25T09:00:00+00:00")
SHORTEST, LONGEST = 40, 120
"""The length of a random chess game in plies before it is cut (about 80 on average)."""


@dataclass(frozen=True, slots=True)
class Corpus:
    text: str
    records: int
    """Matches (verbale) or games (PGN) in the text."""
    plays: int
    """Cards played (verbale) or moves (PGN)."""
    described: str


def plays_of(matches: Sequence[WrittenMatch]) -> int:
    return sum(isinstance(move, WrittenPlay) for match in matches
               for smazzata in match.smazzate for move in smazzata.moves)


def described(demos: Sequence[DemoMatch]) -> str:
    kinds: dict[str, int] = {}
    for demo in demos:
        key = f"{demo.setup.game} {len(demo.setup.players)}p"
        kinds[key] = kinds.get(key, 0) + 1
    return ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))


def verbale_corpus(count: int) -> Corpus:
    """`count` demo matches played by the bots and written down in the notation."""
    demos = demo_set(SEED, count)
    written = [written_from_events([event for event, _ in play_demo(demo, START)[0]])
               for demo in demos]
    return Corpus(write_matches(written), len(written), plays_of(written), described(demos))


def check_verbale(corpus: Corpus) -> None:
    """Before timing: the text reads back to as many matches and plays, each accepted."""
    matches = read(corpus.text, "bench").matches
    assert len(matches) == corpus.records, (len(matches), corpus.records)
    assert plays_of(matches) == corpus.plays, (plays_of(matches), corpus.plays)
    for index, match in enumerate(matches):
        validation = validate(match, "bench")
        assert validation.actions is not None, (index, validation.report.as_json())


def timed_verbale(text: str) -> tuple[float, float]:
    """One run: the time (s) to read the whole text, and to validate every match."""
    began = time.perf_counter()
    matches = read(text, "bench").matches
    between = time.perf_counter()
    for match in matches:
        validate(match, "bench")
    return between - began, time.perf_counter() - between


def chess_game(rng: random.Random, plies: int) -> chess.pgn.Game:
    """A random legal game of at most `plies` plies (or ended before by the rules)."""
    board = chess.Board()
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    while board.ply() < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        node = node.add_variation(move)
    game.headers["Result"] = board.result()
    return game


def chess_corpus(moves: int) -> Corpus:
    """Random games from CHESS_SEED with `moves` moves in all (the last game cut to fit)."""
    rng = random.Random(CHESS_SEED)
    games: list[chess.pgn.Game] = []
    left = moves
    while left > 0:
        game = chess_game(rng, min(left, rng.randint(SHORTEST, LONGEST)))
        games.append(game)
        left -= game.end().ply()
    ended = sum(game.headers["Result"] != "*" for game in games)
    return Corpus("\n\n".join(str(game) for game in games) + "\n", len(games), moves,
                  f"{ended} ended by the rules, the others cut")


def check_chess(corpus: Corpus) -> None:
    """Before timing: the PGN reads back to as many games and moves, without errors."""
    stream = io.StringIO(corpus.text)
    games, moves = 0, 0
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        games, moves = games + 1, moves + game.end().ply()
    assert (games, moves) == (corpus.records, corpus.plays), (games, moves)


def timed_chess(text: str) -> float:
    began = time.perf_counter()
    stream = io.StringIO(text)
    while chess.pgn.read_game(stream) is not None:
        pass
    return time.perf_counter() - began


@dataclass(frozen=True, slots=True)
class Runs:
    reads: list[float]
    validations: list[float]
    totals: list[float]
    chess: list[float]


def measure(ours: Corpus, theirs: Corpus, runs: int) -> Runs:
    """The two sides in turn, run by run, so a passing load hits both alike."""
    result = Runs([], [], [], [])
    for _ in range(runs):
        reading, validating = timed_verbale(ours.text)
        result.reads.append(reading)
        result.validations.append(validating)
        result.totals.append(reading + validating)
        result.chess.append(timed_chess(theirs.text))
    return result


def row(name: str, count: int, times: list[float], bold: bool = False) -> str:
    rates = sorted(count / seconds for seconds in times)
    rate = f"{count / statistics.median(times):,.0f}"
    return (f"| {name} | {statistics.median(times) * 1000:,.1f} ms | "
            f"{f'**{rate}**' if bold else rate} | {rates[0]:,.0f}–{rates[-1]:,.0f} |")


def report(ours: Corpus, theirs: Corpus, runs: Runs) -> None:
    print(f"median of {len(runs.totals)} runs, verbale and python-chess in turn")
    print("| case | time | plays (moves) /s | runs |")
    print("|---|---:|---:|---|")
    print(row("verbale: read + validate", ours.plays, runs.totals, bold=True))
    print(row("  of which read (reader.read)", ours.plays, runs.reads))
    print(row("  of which validate (replay.validate)", ours.plays, runs.validations))
    print(row("python-chess: read_game (SAN parsed, checked on the board)", theirs.plays,
              runs.chess, bold=True))
    ratio = statistics.median(runs.chess) / statistics.median(runs.totals)
    ratios = sorted(c / v for c, v in zip(runs.chess, runs.totals, strict=True))
    print(f"verbale / python-chess (plays/s over moves/s): {ratio:.2f}x (of the runs: median "
          f"{statistics.median(ratios):.2f}, {ratios[0]:.2f}–{ratios[-1]:.2f}); records: verbale "
          f"{ours.records / statistics.median(runs.totals):,.0f} matches/s, python-chess "
          f"{theirs.records / statistics.median(runs.chess):,.0f} games/s")
    print(f"target (issue 12): verbale plays/s >= python-chess moves/s: "
          f"{'met' if ratio >= 1 else 'missed'}")


def profile(text: str, top: int) -> None:
    """cProfile of one read and one validation of every match, by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    timed_verbale(text)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    # The project's and lark's functions by cumulative time: where reading and validating go.
    stats.sort_stats("cumulative").print_stats(r"/(importers|domain|lark)/", top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="3 runs of 60 matches")
    parser.add_argument("--profile", action="store_true",
                        help="also profile one verbale run (cProfile)")
    args = parser.parse_args()
    runs, count = (3, 60) if args.quick else (args.runs, args.matches)
    print(f"machine: {machine()}")
    ours = verbale_corpus(count)
    check_verbale(ours)
    theirs = chess_corpus(ours.plays)
    check_chess(theirs)
    print(f"verbale: {ours.records} demo matches ({ours.described}), {ours.plays:,} plays, "
          f"{len(ours.text.encode()):,} bytes of notation")
    print(f"python-chess {chess.__version__}: {theirs.records} random games "
          f"({theirs.described}), {theirs.plays:,} moves, {len(theirs.text.encode()):,} "
          f"bytes of PGN")
    report(ours, theirs, measure(ours, theirs, runs))
    if args.profile:
        profile(ours.text, 30)


if __name__ == "__main__":
    main()
