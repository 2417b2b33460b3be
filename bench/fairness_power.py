"""The per-dealer power table (docs/fairness.md, "Per-dealer power"): for each event of the
catalogue (its exact probability p), the deals one dealer needs before a one-sided exact
binomial test at level α sees his rate raised to 1.5 p or 2 p with 80% and 90% power; derived
(projections/fairness/power.py), then confirmed by simulating dealers.

Run: .venv/bin/python -m bench.fairness_power [--alpha 0.01] [--dealers 4000] [--seed 23]
         [--deals-check 400] [--markdown]

1. Derived: per distinct p, `deals_needed(p, ratio, power, alpha)`: the first n whose power
   reaches the target, and the n from which on it stays there (the table's number).
2. Simulated, per cell: `--dealers` dealers of that many deals, each deal an independent
   Bernoulli(ratio·p) (numpy, PCG64, `--seed`), each dealer's count tested by the report's own
   test (dealers.greater_p_values, P(X ≥ k) ≤ α): the share caught, beside the derived power at
   that n, with its binomial standard error.
3. Simulated from shuffles (`--deals-check`, 0 to skip): that many dealers of real shuffled
   decks (numpy's Fisher-Yates) at the 15's derived n for 80% against ×2 (redeal=mai), each a
   cheater whose 15 comes twice as often (a share p/(1-p) of his deals is a 15 picked on
   purpose), classified by the report's own code (suspected.marks_of): the share caught.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime, timedelta

import numpy as np

from projections.fairness import calibration as cal
from projections.fairness.dealers import greater_p_values
from projections.fairness.deals import DealRecord
from projections.fairness.exact import catalogue
from projections.fairness.power import TIE, deals_needed, power_of
from projections.fairness.suspected import group_name, marks_of

RATIOS = (1.5, 2.0)
POWERS = (0.8, 0.9)
MAI = (("redeal", "mai"),)


def _rows() -> list[tuple[str, float]]:
    """(event as group name, p) per catalogue entry, Briscola's suits and ranks as one row each
    (they share a probability)."""
    rows: list[tuple[str, float]] = []
    seen_briscola: set[str] = set()
    for entry in catalogue():
        name = group_name((entry.name, entry.applies_to))
        if entry.name.startswith("briscola."):
            kind = entry.name.split(".")[1]
            if kind in seen_briscola:
                continue
            seen_briscola.add(kind)
            name = f"briscola.{kind}.<any>"
        rows.append((name, float(entry.probability)))
    return rows


def _simulate(rng: np.random.Generator, p: float, ratio: float, n: int, dealers: int,
              alpha: float) -> float:
    caught = 0
    chunk = max(1, 20_000_000 // max(n, 1))
    for start in range(0, dealers, chunk):
        size = min(chunk, dealers - start)
        k = np.zeros(size, dtype=np.int64)
        for first in range(0, n, 4096):   # deal by deal, in blocks of deals
            width = min(4096, n - first)
            k += (rng.random((size, width)) < ratio * p).sum(axis=1)
        p_values = greater_p_values(k, np.full(size, n), np.full(size, p))
        caught += int((p_values <= alpha * (1 + TIE)).sum())
    return caught / dealers


def _records(decks: np.ndarray, label: str) -> list[DealRecord]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [DealRecord(match=label, smazzata=k, attempt=0, layout=cal.CIRULLA_2, dealer=1,
                       deck=deck.tobytes(), seed=f"{k:032x}", provenance="simulated",
                       dealt_at=start + timedelta(minutes=k), ruleset=MAI)
            for k, deck in enumerate(decks)]


def _deals_check(rng: np.random.Generator, dealers: int, alpha: float) -> str:
    p = 617 / 9139   # the dealer's 15 under redeal=mai
    n = deals_needed(p, 2.0, 0.8, alpha).stays
    group = [("cirulla.quindici", MAI)]
    decks = cal.fisher_yates(rng, dealers * n)
    marks = marks_of(_records(decks, "fair"), group)[:, 0]
    pool: list[np.ndarray] = []
    while sum(len(x) for x in pool) < dealers * n:
        more = cal.fisher_yates(rng, 200_000)
        pool.append(more[marks_of(_records(more, "pool"), group)[:, 0] == 1])
    fifteens = np.concatenate(pool)
    chosen = rng.random(dealers * n) < p / (1 - p)
    decks[chosen] = fifteens[: int(chosen.sum())]
    marks = np.where(chosen, 1, marks).reshape(dealers, n)
    seen = marks_of(_records(decks, "cheat"), group)[:, 0].reshape(dealers, n)
    assert (seen == marks).all(), "the cheater's marks are the report's classification"
    k = seen.sum(axis=1)
    caught = greater_p_values(k, np.full(dealers, n), np.full(dealers, p)) <= alpha * (1 + TIE)
    return (f"shuffled decks: {dealers} dealers x {n} deals, the 15 (redeal=mai, p = {p:.6f}) "
            f"doubled: caught {caught.mean():.3f} (derived power {power_of(n, p, 2.0, alpha):.3f}"
            f", mean rate {k.mean() / n / p:.2f} p)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--dealers", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--deals-check", type=int, default=400)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    began = time.perf_counter()
    print(f"alpha = {args.alpha} one-sided; {args.dealers} simulated dealers per cell; "
          f"seed {args.seed}")
    header = ["event", "p"] + [f"{int(w * 100)}% x{r:g}" for r in RATIOS for w in POWERS]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, p in _rows():
        cells = []
        for ratio in RATIOS:
            for power in POWERS:
                needed = deals_needed(p, ratio, power, args.alpha)
                derived = power_of(needed.stays, p, ratio, args.alpha)
                simulated = _simulate(rng, p, ratio, needed.stays, args.dealers, args.alpha)
                cells.append(f"{needed.stays:,} ({needed.first:,}): {derived:.3f} / "
                             f"{simulated:.3f}")
        print(f"| `{name}` | {p:.6f} | " + " | ".join(cells) + " |", flush=True)
    if args.deals_check:
        print(_deals_check(rng, args.deals_check, args.alpha))
    print(f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
