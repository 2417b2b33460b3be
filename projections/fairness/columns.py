"""Deals as columns: what the battery's statistics read, built once from DealRecords (or, for
simulations, straight from decks) so that a million deals cost arrays, not objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from projections.fairness.deals import DECK_SIZE, DealLayout, DealRecord

UNKNOWN = -1


@dataclass(frozen=True, slots=True)
class DealColumns:
    """n deals, in table order (the deals of one table consecutive, in the order dealt).

    `decks` (n, 40) deck indices; `rows` (n,) the row of each deal in `keys`, `receivers` and
    `roles`, one row per (layout, dealer) met; `groups` (n,) the deal's layout in `layouts` (the
    per-seat tables are per layout: their categories differ); `tables` (n,) the table each deal
    was dealt at (a tournament table, else its match); `winners` and `dealers_sides_won` (n,)
    0/1, or UNKNOWN; `seeds` per deal, and its smazzata (`matches`, an index in `match_names`,
    and `smazzate`), for repetitions.
    """

    decks: NDArray[np.uint8]
    rows: NDArray[np.int32]
    keys: tuple[tuple[DealLayout, int], ...]
    receivers: NDArray[np.int64]
    roles: NDArray[np.int64]
    groups: NDArray[np.int32]
    layouts: tuple[DealLayout, ...]
    tables: NDArray[np.int64]
    winners: NDArray[np.int8]
    dealers_sides_won: NDArray[np.int8]
    seeds: Sequence[str | None]
    matches: NDArray[np.int64]
    match_names: tuple[str, ...]
    smazzate: NDArray[np.int64]

    @property
    def n(self) -> int:
        return int(self.decks.shape[0])

    def owners(self) -> NDArray[np.int64]:
        """One number per smazzata (match and number): the owner of a seed."""
        return self.matches * 2**32 + self.smazzate


def _ids(values: Iterable[str], n: int) -> tuple[NDArray[np.int64], list[str]]:
    seen: dict[str, int] = {}
    ids = np.fromiter((seen.setdefault(v, len(seen)) for v in values), dtype=np.int64, count=n)
    return ids, list(seen)


def columns_of(records: Sequence[DealRecord]) -> DealColumns:
    """The columns of complete deals (every card known once), sorted into table order: by
    table (a tournament table, else the match), then time dealt, match, smazzata, attempt."""
    n = len(records)
    tables, _ = _ids((r.table or f"match:{r.match}" for r in records), n)
    matches, names = _ids((r.match for r in records), n)
    by_name = np.argsort(np.argsort(np.array(names, dtype=object)))
    when = np.fromiter((r.dealt_at.timestamp() if r.dealt_at is not None else -np.inf
                        for r in records), dtype=np.float64, count=n)
    smazzate = np.fromiter((r.smazzata for r in records), dtype=np.int64, count=n)
    attempts = np.fromiter((r.attempt for r in records), dtype=np.int64, count=n)
    order = np.lexsort((attempts, smazzate, by_name[matches] if n else matches, when, tables))
    decks = np.frombuffer(b"".join(r.deck for r in records), dtype=np.uint8)
    winners = np.fromiter((UNKNOWN if r.winner is None else r.winner for r in records),
                          dtype=np.int8, count=n)
    layouts: dict[DealLayout, int] = {}
    layout_ids = np.fromiter((layouts.setdefault(r.layout, len(layouts)) for r in records),
                             dtype=np.int64, count=n)
    dealers = np.fromiter((r.dealer for r in records), dtype=np.int64, count=n)
    return build(decks.reshape(n, DECK_SIZE)[order], tuple(layouts), layout_ids[order],
                 dealers[order], tables[order], winners[order],
                 [records[i].seed for i in order.tolist()],
                 (matches[order], tuple(names), smazzate[order]))


def build(decks: NDArray[np.uint8], layouts: Sequence[DealLayout], layout_ids: NDArray[np.int64],
          dealers: NDArray[np.int64], tables: NDArray[np.int64], winners: NDArray[np.int8],
          seeds: Sequence[str | None], owners: tuple[NDArray[np.int64], tuple[str, ...],
                                                     NDArray[np.int64]]) -> DealColumns:
    """Columns from decks already in table order, with per deal its layout (an index in
    `layouts`) and dealer, and `owners` = (match indices, match names, smazzata numbers)."""
    met, rows = np.unique(np.asarray(layout_ids, dtype=np.int64) * 4 + dealers,
                          return_inverse=True)
    keys = tuple((layouts[int(k) // 4], int(k) % 4) for k in met)
    lut_receivers = np.array([layout.receivers(dealer) for layout, dealer in keys],
                             dtype=np.int64).reshape(len(keys), DECK_SIZE)
    lut_roles = np.array([layout.roles(dealer) for layout, dealer in keys],
                         dtype=np.int64).reshape(len(keys), DECK_SIZE)
    sides = (np.asarray(dealers) % 2).astype(np.int8)
    matches, names, smazzate = owners
    return DealColumns(
        decks=decks, rows=rows.astype(np.int32), keys=keys, receivers=lut_receivers,
        roles=lut_roles, groups=np.asarray(layout_ids, dtype=np.int32), layouts=tuple(layouts),
        tables=np.asarray(tables, dtype=np.int64), winners=winners,
        dealers_sides_won=np.where(winners == UNKNOWN, UNKNOWN,
                                   winners == sides).astype(np.int8),
        seeds=seeds, matches=np.asarray(matches, dtype=np.int64), match_names=names,
        smazzate=np.asarray(smazzate, dtype=np.int64))


def simulated_columns(decks: NDArray[np.uint8], layout: DealLayout, dealers: NDArray[np.int64],
                      table_size: int, seeds: Sequence[str | None] | None = None,
                      label: str = "simulated") -> DealColumns:
    """Columns of simulated deals of one layout, no winners, in tables (and matches) of
    `table_size` deals, matches named `label`-number."""
    n = len(decks)
    tables = np.arange(n, dtype=np.int64) // table_size
    names = tuple(f"{label}-{t}" for t in range(int(tables[-1]) + 1 if n else 0))
    return build(decks, (layout,), np.zeros(n, dtype=np.int64), np.asarray(dealers), tables,
                 np.full(n, UNKNOWN, dtype=np.int8), seeds if seeds is not None else [None] * n,
                 (tables, names, np.arange(n, dtype=np.int64) % table_size))


__all__ = ["UNKNOWN", "DealColumns", "build", "columns_of", "simulated_columns"]
