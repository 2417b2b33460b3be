"""Complete 2-player Briscola smazzate per second with random legal play (docs/benchmarks.md).

Run: .venv/bin/python -m bench.bench_briscola [--smazzate N] [--runs R] [--baseline COMMIT]
     [--only-compare]

Three measurements, each the median of R runs of N smazzate on one core:
- engine: deal a deck shuffled by Python's `random` (as public environments do), then call
  `legal_plays` and play a random legal card until the smazzata ends, then its breakdown;
- verifiable: the same, the deck coming from the project's seeded shuffle (per-smazzata seed
  derivation and HMAC-SHA256 Fisher-Yates), as a real match deals;
- naive: a straightforward reference implementation of the same rules written here (frozen
  dataclasses, `dataclasses.replace`, dictionaries by rank and suit), the same-run baseline.
Before timing, the naive version and the engine play the same decks with the same choices and
must agree on every final score. Then the same-run comparison with today's engine
(bench/baseline.py): the engine and verifiable cases played by the engine of a pinned commit
(`--baseline`, by default the last before the state was read and built by field name) and by
this checkout's, in two worker processes taking turns run by run; medians and their ratio.
`--only-compare` runs only this.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bench import baseline
from bench.machine import machine
from domain.briscola.scoring import breakdown
from domain.briscola.state import BriscolaRules, deal_deck, legal_plays, play
from domain.cards import DECK, Card, Rank
from domain.match_seed import smazzata_seed
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck

SEATING = Seating(2)
RULES = BriscolaRules()
Deal = Callable[[int], Sequence[Card]]


def engine_smazzata(deck: Sequence[Card], rand: Callable[[], float]) -> tuple[int, int]:
    state = deal_deck(RULES, SEATING, 0, 0, deck)
    while True:
        cards = legal_plays(state)
        if not cards:
            break
        state = play(state, cards[int(rand() * len(cards))])
    breakdown(state)
    return state.points


# ---- the naive reference: the same rules written plainly ----------------------------------

_ORDER = {Rank.ASSO: 10, Rank.TRE: 9, Rank.RE: 8, Rank.CAVALLO: 7, Rank.FANTE: 6, Rank.SETTE: 5,
          Rank.SEI: 4, Rank.CINQUE: 3, Rank.QUATTRO: 2, Rank.DUE: 1}
_POINTS = {Rank.ASSO: 11, Rank.TRE: 10, Rank.RE: 4, Rank.CAVALLO: 3, Rank.FANTE: 2}


@dataclass(frozen=True, slots=True)
class NaiveState:
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    briscola: Card
    table: tuple[tuple[int, Card], ...]
    turn: int
    points: tuple[int, int]
    over: bool = False


def naive_deal(deck: Sequence[Card]) -> NaiveState:
    hands: list[list[Card]] = [[], []]
    for k in range(6):
        hands[(1 + k) % 2].append(deck[k])
    return NaiveState(tuple(tuple(h) for h in hands), tuple(deck[7:]) + (deck[6],), deck[6],
                      (), 1, (0, 0))


def naive_winner(table: tuple[tuple[int, Card], ...], briscola: Card) -> int:
    def strength(entry: tuple[int, Card]) -> tuple[int, int]:
        card = entry[1]
        if card.suit == briscola.suit:
            return (2, _ORDER[card.rank])
        if card.suit == table[0][1].suit:
            return (1, _ORDER[card.rank])
        return (0, 0)
    return max(table, key=strength)[0]


def naive_play(state: NaiveState, card: Card) -> NaiveState:
    hands = [list(h) for h in state.hands]
    hands[state.turn].remove(card)
    table = state.table + ((state.turn, card),)
    if len(table) < 2:
        return replace(state, hands=tuple(tuple(h) for h in hands), table=table,
                       turn=1 - state.turn)
    winner = naive_winner(table, state.briscola)
    gained = sum(_POINTS.get(c.rank, 0) for _, c in table)
    points = list(state.points)
    points[winner] += gained
    stock = list(state.stock)
    if stock:
        hands[winner].append(stock.pop(0))
        hands[1 - winner].append(stock.pop(0))
    over = not hands[winner]
    return replace(state, hands=tuple(tuple(h) for h in hands), stock=tuple(stock), table=(),
                   turn=winner, points=(points[0], points[1]), over=over)


def naive_smazzata(deck: Sequence[Card], rand: Callable[[], float]) -> tuple[int, int]:
    state = naive_deal(deck)
    while not state.over:
        cards = list(state.hands[state.turn])
        state = naive_play(state, cards[int(rand() * len(cards))])
    return state.points


# ---- timing ---------------------------------------------------------------------------------

def random_decks(rng: random.Random) -> Deal:
    deck = list(DECK)

    def deal(_: int) -> Sequence[Card]:
        rng.shuffle(deck)
        return deck
    return deal


def seeded_decks(match_seed: Seed) -> Deal:
    def deal(number: int) -> Sequence[Card]:
        return shuffled_deck(smazzata_seed(match_seed, number), 0)
    return deal


def rate(smazzata: Callable[[Sequence[Card], Callable[[], float]], tuple[int, int]],
         decks: Deal, count: int, seed: int) -> float:
    rand = random.Random(seed).random
    start = time.perf_counter()
    for number in range(count):
        smazzata(decks(number), rand)
    return count / (time.perf_counter() - start)


def check_agreement(count: int) -> None:
    decks = random_decks(random.Random(99))
    for number in range(count):
        deck = tuple(decks(number))
        ours = engine_smazzata(deck, random.Random(number).random)
        theirs = naive_smazzata(deck, random.Random(number).random)
        if ours != theirs or sum(ours) != 120:
            raise SystemExit(f"engine {ours} and naive {theirs} disagree on deck {number}")


MATCH_SEED = Seed(bytes(range(16)))


def worker_cases(smazzate: int) -> dict[str, Callable[[int], float]]:
    """The cases both engines run in the same-run comparison (bench/baseline.py), by run."""
    return {
        "engine": lambda r: rate(engine_smazzata, random_decks(random.Random(r)), smazzate, r),
        "verifiable": lambda r: rate(engine_smazzata, seeded_decks(MATCH_SEED), smazzate, r),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smazzate", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    baseline.add_options(parser)
    args = parser.parse_args()
    if baseline.handled(args, "bench.bench_briscola", worker_cases):
        return
    check_agreement(500)
    match_seed = MATCH_SEED
    cases: dict[str, Callable[[int], float]] = {
        "engine": lambda r: rate(engine_smazzata, random_decks(random.Random(r)), args.smazzate, r),
        "verifiable": lambda r: rate(engine_smazzata, seeded_decks(match_seed), args.smazzate, r),
        "naive": lambda r: rate(naive_smazzata, random_decks(random.Random(r)), args.smazzate, r),
    }
    print(f"machine: {machine()}")
    print(f"{args.runs} runs of {args.smazzate} complete 2-player smazzate each, median:")
    # Rounds interleave the cases, so a passing load on the machine hits all of them alike.
    rates: dict[str, list[float]] = {name: [] for name in cases}
    for r in range(args.runs):
        for name, run in cases.items():
            rates[name].append(run(r))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for name, values in rates.items():
        print(f"  {name:10} {medians[name]:9,.0f} smazzate/s  (runs: "
              f"{', '.join(f'{x:,.0f}' for x in values)})")
    print(f"  engine / naive = {medians['engine'] / medians['naive']:.2f}x")
    baseline.print_comparison("bench.bench_briscola", ("engine", "verifiable"), args.smazzate,
                              args.runs, args.baseline)


if __name__ == "__main__":
    main()
