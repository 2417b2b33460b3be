"""Cirulla engine benchmarks (docs/benchmarks.md, section "Cirulla").

Run: .venv/bin/python -m bench.bench_cirulla [--smazzate N] [--runs R] [--positions P]
     [--baseline COMMIT] [--only-compare] [--baseline-dir DIR [--only-outside]]

1. Complete 2-player smazzate per second with random legal play, one core: the deal (with its
   redeals), the dealer's accuso, the automatic accuso of each hand of three, `legal_plays`
   before every play and a uniformly random legal play, the matta, scope, new hands from the
   stock, the end (C9) and the score breakdown. Two deck sources: "engine", decks shuffled by
   `random.Random` as public Cirulla engines do (the like-for-like comparison), and
   "verifiable", the seeded shuffle of a record (per-smazzata seed, HMAC-SHA256 Fisher-Yates,
   docs/shuffle.md). Same-run baseline: the engine loop choosing from the brute-force enumerator
   of domain/cirulla/reference.py instead of `legal_plays`.
2. `legal_plays` calls per second on random positions with 6, 8 and 10 table cards and a hand of
   three, against the brute-force enumerator on the same positions in the same process:
   "cold" clears the capture caches before the run (every position new to the engine), "warm"
   runs the same positions again.
3. The same-run comparison with today's engines (bench/baseline.py): the smazzate of 1., both
   deck sources, played by the engines of a pinned commit (`--baseline`, by default the last
   before the engines' states were read and built by field name) and by this checkout's, in two
   worker processes taking turns run by run; medians and their ratio. `--only-compare` runs
   only this.
4. With `--baseline-dir DIR`: the simulation target of issue 24, verbale's "engine" smazzate
   against marcypotter16/Cirulla's engine imported from DIR, outside the repository
   (bench/outside_cirulla.py), taking turns run by run in this process; medians and their
   ratio. `--only-outside` runs only this. Without the option the reference is not measured.
Before timing, both checks compare the engine with the brute force on every position played.
Each figure is the median of R runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import count
from pathlib import Path

from bench import baseline
from bench.machine import machine
from bench.outside_cirulla import OutsideEngine
from domain.cards import DECK, Card
from domain.cirulla.captures import clear_caches, legal_plays
from domain.cirulla.engine import apply_play, deal_from, evolve, follow_up, turn_starts
from domain.cirulla.reference import reference_legal_plays
from domain.cirulla.ruleset import STANDARD
from domain.cirulla.state import CirullaState, empty_state, table_order, taken
from domain.match_seed import smazzata_seed
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck

SEATING = Seating(2)
HAND_ROUND = 3 * SEATING.players
Chooser = Callable[[CirullaState, Callable[[], float]], tuple[Card, tuple[Card, ...]]]


def engine_choice(state: CirullaState, rand: Callable[[], float]) -> tuple[Card, tuple[Card, ...]]:
    plays = legal_plays(state)
    return plays[int(rand() * len(plays))]


def brute_force_choice(state: CirullaState,
                       rand: Callable[[], float]) -> tuple[Card, tuple[Card, ...]]:
    plays = sorted(reference_legal_plays(state.table, state.hands[state.to_move], state.ruleset,
                                         state.matta_value))
    return plays[int(rand() * len(plays))]


DeckSource = Callable[[], Iterator[tuple[Card, ...]]]


def seeded(seed: Seed) -> DeckSource:
    return lambda: (shuffled_deck(seed, attempt) for attempt in count())


def python_random(rng: random.Random) -> DeckSource:
    def decks() -> Iterator[tuple[Card, ...]]:
        while True:
            deck = list(DECK)
            rng.shuffle(deck)
            yield tuple(deck)
    return decks


def smazzata(decks: DeckSource, rand: Callable[[], float], choose: Chooser) -> CirullaState:
    state = empty_state(STANDARD, SEATING)
    for event in deal_from(STANDARD, SEATING, 0, 1, "", decks()):
        state = evolve(state, event)
    players = SEATING.players
    while not state.finished:
        if state.plays % HAND_ROUND < players:
            accuso = turn_starts(state)
            if accuso is not None:
                state = evolve(state, accuso)
        card, capture = choose(state, rand)
        state = apply_play(state, card, capture)
        if state.plays % HAND_ROUND == 0:
            after = follow_up(state)
            if after is not None:
                state = evolve(state, after)
    return state


def smazzate_per_second(sources: Sequence[DeckSource], choose: Chooser, rng_seed: int) -> float:
    rand = random.Random(rng_seed).random
    start = time.perf_counter()
    for decks in sources:
        smazzata(decks, rand, choose)
    return len(sources) / (time.perf_counter() - start)


def check_smazzate(seeds: Sequence[Seed]) -> None:
    """The engine and the brute force, fed the same random numbers, play the same smazzate."""
    for number, seed in enumerate(seeds):
        engine = smazzata(seeded(seed), random.Random(number).random, _sorted_engine_choice)
        brute = smazzata(seeded(seed), random.Random(number).random, brute_force_choice)
        if engine != brute:
            raise SystemExit(f"engine and brute force differ on smazzata {number}")


def _sorted_engine_choice(state: CirullaState,
                          rand: Callable[[], float]) -> tuple[Card, tuple[Card, ...]]:
    plays = sorted((p[0], taken(p)) for p in legal_plays(state))
    return plays[int(rand() * len(plays))]


# ---- legal plays on random positions --------------------------------------------------------

def random_positions(table_size: int, count: int, rng: random.Random) -> list[CirullaState]:
    base = empty_state(STANDARD, SEATING)._replace(dealt=True, to_move=0)
    positions = []
    for _ in range(count):
        cards = rng.sample(DECK, table_size + 3)
        table = table_order(cards[:table_size], _value)
        positions.append(base._replace(hands=(tuple(cards[table_size:]), ()), table=table,
                                       table_values=tuple(c.value for c in table)))
    return positions


def _value(card: Card) -> int:
    return card.value


def engine_calls(positions: Sequence[CirullaState]) -> float:
    start = time.perf_counter()
    for position in positions:
        legal_plays(position)
    return len(positions) / (time.perf_counter() - start)


def brute_force_calls(positions: Sequence[CirullaState]) -> float:
    start = time.perf_counter()
    for p in positions:
        reference_legal_plays(p.table, p.hands[0], p.ruleset, p.matta_value)
    return len(positions) / (time.perf_counter() - start)


def check_positions(positions: Sequence[CirullaState]) -> None:
    for number, p in enumerate(positions):
        engine = {(play[0], taken(play)) for play in legal_plays(p)}
        brute = reference_legal_plays(p.table, p.hands[0], p.ruleset, p.matta_value)
        if engine != set(brute):
            raise SystemExit(f"legal plays differ from the brute force on position {number}")


# ---- report -----------------------------------------------------------------------------------

MATCH_SEED = Seed.from_hex("c1a55e5eed0000000000000000000001")


def worker_cases(smazzate: int) -> dict[str, Callable[[int], float]]:
    """The cases both engines run in the same-run comparison (bench/baseline.py), by run."""
    verifiable = [seeded(smazzata_seed(MATCH_SEED, n)) for n in range(smazzate)]
    return {
        "engine": lambda run: smazzate_per_second(
            [python_random(random.Random(run))] * smazzate, engine_choice, run),
        "verifiable": lambda run: smazzate_per_second(verifiable, engine_choice, run),
    }


def outside_comparison(directory: Path | None, smazzate: int, runs: int) -> None:
    """verbale's engine and the outside reference, the same number of smazzate, run by run."""
    if directory is None:
        print("reference marcypotter16/Cirulla: not measured (--baseline-dir DIR, "
              "bench/outside_cirulla.py)")
        return
    outside = OutsideEngine(directory)
    ours_case = worker_cases(smazzate)["engine"]
    ours_case(0), outside.smazzate_per_second(smazzate, 0)   # warm-up: caches, imports
    ours, theirs = [], []
    for run in range(runs):
        ours.append(ours_case(run))
        theirs.append(outside.smazzate_per_second(smazzate, run))
    mine, reference = statistics.median(ours), statistics.median(theirs)
    print(f"same run, {runs} interleaved runs of {smazzate} 2-player smazzate, random play, "
          f"median: verbale {mine:,.0f}/s (runs {min(ours):,.0f}...{max(ours):,.0f}), "
          f"marcypotter16/Cirulla {reference:,.0f}/s (runs {min(theirs):,.0f}..."
          f"{max(theirs):,.0f}): {mine / reference:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smazzate", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--baseline-dir", type=Path, default=None,
                        help="a directory outside the repository with marcypotter16/Cirulla's "
                             "engine, timed beside verbale's (bench/outside_cirulla.py)")
    parser.add_argument("--only-outside", action="store_true",
                        help="run only the comparison with --baseline-dir's engine")
    baseline.add_options(parser)
    args = parser.parse_args()
    if baseline.handled(args, "bench.bench_cirulla", worker_cases):
        return
    if args.only_outside:
        outside_comparison(args.baseline_dir, args.smazzate, args.runs)
        return
    seeds = [smazzata_seed(MATCH_SEED, n) for n in range(args.smazzate)]
    print(f"machine: {machine()}")
    check_smazzate(seeds[:200])
    print("check: engine == brute force on 200 smazzate played with the same random numbers")
    verifiable = [seeded(seed) for seed in seeds]
    shuffler = random.Random(11)
    engine_decks = [python_random(shuffler)] * args.smazzate
    smazzate_per_second(verifiable, engine_choice, 0)   # warm-up: the capture caches fill
    runs: dict[str, list[float]] = {"engine": [], "verifiable": [], "brute": []}
    for run in range(args.runs):
        runs["engine"].append(smazzate_per_second(engine_decks, engine_choice, run))
        runs["verifiable"].append(smazzate_per_second(verifiable, engine_choice, run))
        runs["brute"].append(smazzate_per_second(engine_decks[: max(1, args.smazzate // 20)],
                                                 brute_force_choice, run))
    brute = statistics.median(runs["brute"])
    for case in ("engine", "verifiable"):
        figure = statistics.median(runs[case])
        print(f"smazzate/s  {case:<10} {figure:,.0f}  (runs {min(runs[case]):,.0f}..."
              f"{max(runs[case]):,.0f})  = {figure / brute:.1f}x the brute-force chooser")
    print(f"smazzate/s  brute-force chooser {brute:,.0f}")
    rng = random.Random(7)
    for size in (6, 8, 10):
        positions = random_positions(size, args.positions, rng)
        check_positions(positions)
        cold, warm, slow = [], [], []
        for _ in range(args.runs):
            clear_caches()
            cold.append(engine_calls(positions))
            warm.append(engine_calls(positions))
            slow.append(brute_force_calls(positions[: max(1, args.positions // 10)]))
        c, w, b = (statistics.median(x) for x in (cold, warm, slow))
        print(f"legal_plays, {size:>2} table cards: engine cold {c:,.0f}/s ({c / b:.0f}x), "
              f"warm {w:,.0f}/s ({w / b:.0f}x); brute force {b:,.0f}/s")
    baseline.print_comparison("bench.bench_cirulla", ("engine", "verifiable"), args.smazzate,
                              args.runs, args.baseline)
    outside_comparison(args.baseline_dir, args.smazzate, args.runs)


if __name__ == "__main__":
    main()
