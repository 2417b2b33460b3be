"""Deals with a known answer, to calibrate the battery: fair ones from the project's own shuffle,
and biased ones from shufflers that cheat in a stated way (bench/fairness_calibration.py, the
tests of the battery).

Fair: domain.shuffle from seeds derived from a label and a counter (no randomness here: the
caller's label and counter make every run repeatable). Biased, from a numpy Fisher-Yates driven
by the caller's generator:
- `forced_step`: in a share of the deals one step of Fisher-Yates swaps slot i with slot j
  instead of a uniform draw: "one swap of two positions more often than chance";
- `swapped_after`: slots i and j swapped after a fair shuffle in a share of the deals. A
  uniform permutation followed by a fixed swap is still uniform: no test can see it, and no
  deal is less fair for it (the calibration shows the battery stays quiet);
- `sticky_pair`: in a share of the deals the card after slot i is swapped for the deck-order
  neighbour of the card at slot i (a stacked pair: every slot's card stays uniform);
- `redealing_dealer`: the dealer at one seat shuffles again, unrecorded, when the table would
  let his opponent sweep it with a 15 on the first play (OPPONENT_FIFTEEN);
- `accuso_redealer`: the dealer at one seat shuffles again, unrecorded, when the table gives
  him no 15 or 30 (the catalogue's dealer's accusi see it).

Honest stores of complete matches (`honest_store`): the matches `verbale simulate matches`
records (domain/demo/matches.py: both games, 2 and 4 players, every format, with timeouts,
abandons and rulings), played whole by the bots, their deals read by `deal_records` from the
events the match records, as `select_deals` reads them from a store. The tests that depend on
the deals' number, order and winners are calibrated on these, not only on bare deals.
`hand_shuffled` turns such a store into a club's transcriptions (no seed), and
`stacked_fifteens` makes one dealer of it stack his 15 in a share of his deals.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod

import numpy as np
from numpy.typing import NDArray

from domain.demo.matches import demo_set, play_demo
from domain.record.match import Phase
from domain.shuffle import Seed, shuffled_indices
from projections.fairness.battery import ALPHA, BatteryReport, SuspectedEvent, run_on_columns
from projections.fairness.columns import DealColumns, simulated_columns
from projections.fairness.deals import DECK_SIZE, DealLayout, DealRecord, deal_records
from projections.fairness.selection import Selection
from projections.fairness.suspected import column_events

CIRULLA_2 = DealLayout("cirulla", 2, "uno-alla-volta")
"""The layout the calibration's deals have, and the one its own event is counted on."""
Decks = NDArray[np.uint8]


def calibration_seed(label: str, number: int) -> Seed:
    """The seed of deal `number` of a calibration run `label` (128 bits of SHA-256)."""
    return Seed(hashlib.sha256(f"verbale/fairness-calibration\x00{label}\x00{number}"
                               .encode()).digest()[:16])


def fair_decks(label: str, n: int, first: int = 0) -> tuple[Decks, list[str]]:
    """n decks from the project's shuffle (domain.shuffle), and their seeds in hex."""
    seeds = [calibration_seed(label, first + k) for k in range(n)]
    flat = np.fromiter((i for s in seeds for i in shuffled_indices(s)), dtype=np.uint8,
                       count=n * DECK_SIZE)
    return flat.reshape(n, DECK_SIZE), [s.hex for s in seeds]


def fisher_yates(rng: np.random.Generator, n: int,
                 forced: tuple[int, int, float] | None = None) -> Decks:
    """n Fisher-Yates shuffles of deck order, from the top as domain.shuffle does (i = 39 down
    to 1, swap slots i and a uniform j <= i); `forced` = (i, j, share): in that share of the
    deals step i swaps with j instead."""
    decks = np.tile(np.arange(DECK_SIZE, dtype=np.uint8), (n, 1))
    rows = np.arange(n)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = rng.integers(0, i + 1, size=n)
        if forced is not None and forced[0] == i:
            j = np.where(rng.random(n) < forced[2], forced[1], j)
        top = decks[rows, i].copy()
        decks[rows, i] = decks[rows, j]
        decks[rows, j] = top
    return decks


def swapped_after(decks: Decks, rng: np.random.Generator, i: int, j: int,
                  share: float) -> Decks:
    """Slots i and j swapped in `share` of the deals."""
    out = decks.copy()
    hit = rng.random(len(out)) < share
    out[hit, i], out[hit, j] = decks[hit, j], decks[hit, i]
    return out


def sticky_pair(decks: Decks, rng: np.random.Generator, slot: int, share: float) -> Decks:
    """In `share` of the deals, the card that follows the one at `slot` in deck order is moved
    to slot+1 (swapped with whatever was there)."""
    out = decks.copy()
    rows = np.flatnonzero(rng.random(len(out)) < share)
    wanted = (out[rows, slot].astype(np.int16) + 1) % DECK_SIZE
    where = np.argmax(out[rows] == wanted[:, None], axis=1)
    there = out[rows, slot + 1].copy()
    out[rows, slot + 1] = wanted
    out[rows, where] = there
    return out


# ---- the opponent's 15 ------------------------------------------------------------------------

def _ranks_sweep(hand: tuple[int, ...], table: tuple[int, ...]) -> bool:
    return any(r + sum(table) == 15 for r in hand)


@cache
def opponent_fifteen_probability() -> Fraction:
    """The chance, on one uniform shuffle dealt to 2 seats one card at a time, that the first
    seat served holds a card which with all four table cards makes 15 at face value (the matta
    counted as its 7), so that his first play can sweep the table: by enumeration of the rank
    patterns of table and hand, each weighted by the ways to pick its cards."""
    hits = 0
    for table in combinations_with_replacement(range(1, 11), 4):
        ways_table = prod(comb(4, table.count(r)) for r in set(table))
        for hand in combinations_with_replacement(range(1, 11), 3):
            ways_hand = prod(comb(4 - table.count(r), hand.count(r)) for r in set(hand))
            if ways_hand and _ranks_sweep(hand, table):
                hits += ways_table * ways_hand
    return Fraction(hits, comb(40, 4) * comb(36, 3))


def _fifteen(decks: Decks, hand_slots: NDArray[np.intp],
             table_slots: NDArray[np.intp]) -> NDArray[np.bool_]:
    table = (np.take_along_axis(decks, table_slots, axis=1) % 10 + 1).sum(axis=1, dtype=np.int64)
    need = 14 - np.take_along_axis(decks, hand_slots, axis=1).astype(np.int64) % 10
    return np.asarray((need == table[:, None]).any(axis=1), dtype=np.bool_)


def _slots(layout: DealLayout, dealer: int) -> tuple[list[int], list[int]]:
    first = layout.seating().rounds[dealer][0]
    places = layout.locations(dealer)
    hand = [p for p, (w, s, _) in enumerate(places) if w == "hand" and s == first]
    table = [p for p, (w, _, _) in enumerate(places) if w == "table"]
    return hand, table


def _observe_columns(columns: DealColumns) -> NDArray[np.int8]:
    out = np.full(columns.n, -1, dtype=np.int8)
    for row, (layout, dealer) in enumerate(columns.keys):
        if layout.game != CIRULLA_2.game or layout.seats != CIRULLA_2.seats:
            continue
        rows = np.flatnonzero(columns.rows == row)
        hand, table = _slots(layout, dealer)
        n = len(rows)
        out[rows] = _fifteen(columns.decks[rows], np.tile(hand, (n, 1)),
                             np.tile(table, (n, 1)))
    return out


def _observe_record(record: DealRecord) -> bool | None:
    if record.game != CIRULLA_2.game or record.seats != CIRULLA_2.seats:
        return None
    hand, table = _slots(record.layout, record.dealer)
    decks = np.frombuffer(record.deck, dtype=np.uint8)[None, :]
    return bool(_fifteen(decks, np.array([hand]), np.array([table]))[0])


OPPONENT_FIFTEEN = SuspectedEvent(
    "di-mano-quindici", float(opponent_fifteen_probability()), _observe_record,
    _observe_columns)
"""The calibration's own table event (2-seat Cirulla): the first seat served can sweep the
table with a 15 on his first play."""


def redealing_dealer(rng: np.random.Generator, n: int, cheat: int,
                     share: float = 1.0) -> tuple[Decks, NDArray[np.int64]]:
    """n deals of 2-seat Cirulla, dealers taking turns from seat 0; when seat `cheat` deals and
    the table lets his opponent sweep it with a 15, he shuffles once more, unseen, in `share`
    of those deals. The decks, and each deal's dealer."""
    decks = fisher_yates(rng, n)
    dealers = np.arange(n) % 2
    hand, table = _slots(CIRULLA_2, cheat)
    rows = np.flatnonzero(dealers == cheat)
    bad = _fifteen(decks[rows], np.tile(hand, (len(rows), 1)), np.tile(table, (len(rows), 1)))
    redo = rows[bad & (rng.random(len(rows)) < share)]
    decks[redo] = fisher_yates(rng, len(redo))
    return decks, dealers


TABLE_DEALS = 20
"""Calibration deals are grouped in tables of this many deals (about a match each)."""


def calibration_columns(decks: Decks, dealers: NDArray[np.int64] | None = None,
                        seeds: list[str] | None = None, label: str = "audit") -> DealColumns:
    """Columns of simulated 2-seat Cirulla deals in tables of TABLE_DEALS, dealers taking
    turns unless given; `seeds` make the repeated-seed test run."""
    turns = np.arange(len(decks)) % 2 if dealers is None else dealers
    return simulated_columns(decks, CIRULLA_2, turns, TABLE_DEALS, seeds, label)


STANDARD_OPTIONS = (("redeal", "due-assi"),)
"""The calibration deals' ruleset: the standard one (its C1 reading, due-assi)."""


def audit(columns: DealColumns, alpha: float = ALPHA) -> BatteryReport:
    """The battery over calibration deals, with the calibration's event and the catalogue's
    events of the standard ruleset (what `verbale fairness` tests on such deals)."""
    return run_on_columns(columns, [OPPONENT_FIFTEEN,
                                    *column_events(CIRULLA_2.game, STANDARD_OPTIONS)], alpha=alpha)


def accuso_redealer(rng: np.random.Generator, n: int, cheat: int,
                    share: float) -> tuple[Decks, NDArray[np.int64]]:
    """n deals of 2-seat Cirulla, dealers taking turns from seat 0; when seat `cheat` deals a
    table whose four cards do not add up to 15 or 30 at face value (no accuso for him), he
    shuffles once more, unseen, in `share` of those deals. The decks, and each deal's dealer."""
    decks = fisher_yates(rng, n)
    dealers = np.arange(n) % 2
    _, table = _slots(CIRULLA_2, cheat)
    rows = np.flatnonzero(dealers == cheat)
    total = (decks[rows][:, table] % 10 + 1).sum(axis=1, dtype=np.int64)
    redo = rows[~np.isin(total, (15, 30)) & (rng.random(len(rows)) < share)]
    decks[redo] = fisher_yates(rng, len(redo))
    return decks, dealers


STORE_START = datetime(2026, 5, 1, tzinfo=UTC)


def honest_store(label: str, matches: int) -> Selection:
    """A store of `matches` honest complete matches, bot-played from the seed of `label`
    (calibration_seed(label, 0)) as `verbale simulate matches` plays its demo set, one match a
    minute apart: the deal records `select_deals` would read back (ended matches only; a match
    that did not end would be left out, and is counted as in progress)."""
    records: list[DealRecord] = []
    ended = 0
    for index, demo in enumerate(demo_set(calibration_seed(label, 0), matches)):
        recorded, state = play_demo(demo, STORE_START + timedelta(minutes=index))
        if state.phase is not Phase.ENDED:
            continue
        ended += 1
        records += deal_records(f"{label}-{index}", recorded)
    return Selection(tuple(records), ended, matches - ended)


def hand_shuffled(selection: Selection) -> Selection:
    """The same deals as a club's transcriptions: provenance transcribed, no seed."""
    return replace(selection, records=tuple(replace(r, provenance="transcribed", seed=None)
                                            for r in selection.records))


def _face_fifteen(deck: NDArray[np.uint8], table: list[int]) -> bool:
    cards = deck[table]
    return (int((cards % 10 + 1).sum()) == 15 and int((cards % 10 == 0).sum()) < 2
            and int((cards % 10 == 9).sum()) < 3)


def stacked_fifteens(selection: Selection, dealer: int, share: float,
                     rng: np.random.Generator) -> Selection:
    """Seat `dealer`, dealing Cirulla, stacks his 15: in `share` of his deals that stand whose
    four table cards do not add up to 15 at face value (the matta as its 7), the deck becomes
    one that does (drawn uniformly among them; two aces or three kings, which would go a
    monte, excluded). share = 0.07 about doubles his 15 (6.4% of the deals that stand)."""
    last: dict[tuple[str, int], int] = {}
    for r in selection.records:
        last[(r.match, r.smazzata)] = max(r.attempt, last.get((r.match, r.smazzata), 0))
    out = []
    for r in selection.records:
        if (r.game == CIRULLA_2.game and r.dealer == dealer and r.complete
                and last[(r.match, r.smazzata)] == r.attempt):
            _, table = _slots(r.layout, r.dealer)
            deck = np.frombuffer(r.deck, dtype=np.uint8)
            if not _face_fifteen(deck, table) and rng.random() < share:
                while not _face_fifteen(deck := rng.permutation(DECK_SIZE).astype(np.uint8),
                                        table):
                    pass
                r = replace(r, deck=deck.tobytes())
        out.append(r)
    return replace(selection, records=tuple(out))
