"""The catalogue's events (exact.py) as tests of the battery over stored deals.

An entry whose probability depends on the C1 reading (the dealer's accusi, the first hands) is
one test per reading met in the selection: deals of matches under different readings are not
pooled against one probability. The redeal events and the Briscola card's are one test each
over every deal of their game.

The deals are classified by the rule functions events.py uses for one `SmazzataDealt`
(`table_facts`, `hand_kinds`, `table_event`, `hand_event`), but once per distinct table, hand
or briscola card rather than once per deal: the deals of one ruleset, layout and dealer are
numpy rows, their table cards and first hands become keys, and each distinct key is classified
once (at most 91,390 tables and 9,880 hands). A million deals cost seconds, not the minutes
`events.observe` per deal would (bench/bench_fairness.py); the tests check the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from domain.cards import DECK, Card, card_at
from domain.cirulla.ruleset import Ruleset, ruleset_from_dict
from domain.seating import Direction, Seating
from domain.text import Said, say
from projections.fairness.battery import SuspectedEvent
from projections.fairness.columns import DealColumns
from projections.fairness.deals import DECK_SIZE, DealLayout, DealRecord
from projections.fairness.events import (
    BRISCOLA_GAME,
    CIRULLA_GAME,
    EventKind,
    ExactEvent,
    Role,
    hand_event,
    hand_kinds,
    table_event,
    table_facts,
)
from projections.fairness.exact import exact_probabilities

Options = tuple[tuple[str, str], ...]
Group = tuple[str, Options]
"""An entry's name and the ruleset options its probability holds for."""
T = TypeVar("T")
Marks = NDArray[np.int8]
"""Per deal 1 (happened), 0 (did not), -1 (not counted on it)."""


@cache
def _entries(game: str, options: Options) -> tuple[ExactEvent, ...]:
    rules = ruleset_from_dict(dict(options)) if game == CIRULLA_GAME else None
    return exact_probabilities(game, rules)


def group_name(group: Group) -> str:
    """`cirulla.quindici[redeal=due-assi]`, or the entry's name when it holds for any ruleset."""
    name, applies = group
    if not applies:
        return name
    return f"{name}[{','.join(f'{k}={v}' for k, v in applies)}]"


def _group(entry: ExactEvent) -> Group:
    return entry.name, entry.applies_to


def _title(entry: ExactEvent) -> Said:
    if not entry.applies_to:
        return entry.describe()
    return say("{event} (C1 reading {reading})", event=entry.describe(),
               reading=", ".join(value for _, value in entry.applies_to))


def catalogued_events(records: Sequence[DealRecord]) -> list[SuspectedEvent]:
    """One test per catalogue entry (and C1 reading) of the games and rulesets of `records`,
    in catalogue order; each observes all the records at once (and, given other records, one
    at a time). A deal with an unknown card is counted by none."""
    entries: dict[Group, ExactEvent] = {}
    for game, options in {(r.game, r.ruleset) for r in records if _counted(r)}:
        for entry in _entries(game, options):
            entries.setdefault(_group(entry), entry)
    order = sorted(entries, key=_catalogue_order)
    seen = _Observations(tuple(order))
    return [SuspectedEvent(group_name(group), float(entries[group].probability),
                           seen.one(index), title=_title(entries[group]),
                           observe_records=seen.column(index))
            for index, group in enumerate(order)]


@cache
def _catalogue_rank() -> dict[str, int]:
    ranks: dict[str, int] = {}
    for game, options in ((BRISCOLA_GAME, ()), (CIRULLA_GAME, ())):
        for entry in _entries(game, options):
            ranks.setdefault(entry.name, len(ranks))
    return ranks


def _catalogue_order(group: Group) -> tuple[int, Options]:
    return _catalogue_rank().get(group[0], len(_catalogue_rank())), group[1]


def _counted(record: DealRecord) -> bool:
    return record.game in (CIRULLA_GAME, BRISCOLA_GAME)


@dataclass
class _Observations:
    """The marks of every group on the last records seen (computed once for all events)."""

    groups: tuple[Group, ...]
    _for: Sequence[DealRecord] | None = None
    _marks: Marks = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int8))

    def marks(self, records: Sequence[DealRecord]) -> Marks:
        if self._for is not records:
            self._marks = marks_of(records, self.groups)
            self._for = records
        return self._marks

    def column(self, index: int) -> _Column:
        return _Column(self, index)

    def one(self, index: int) -> _One:
        return _One(self, index)


@dataclass(frozen=True)
class _Column:
    seen: _Observations
    index: int

    def __call__(self, records: Sequence[DealRecord]) -> Marks:
        return self.seen.marks(records)[:, self.index]


@dataclass(frozen=True)
class _One:
    seen: _Observations
    index: int

    def __call__(self, record: DealRecord) -> bool | None:
        mark = int(marks_of([record], self.seen.groups)[0, self.index])
        return None if mark < 0 else bool(mark)


def marks_of(records: Sequence[DealRecord], groups: Sequence[Group]) -> Marks:
    """marks[deal, group]: whether each group's event happened on each deal (-1: not counted:
    another ruleset's reading, another game, an unknown card)."""
    out = np.full((len(records), len(groups)), -1, dtype=np.int8)
    where = {group: k for k, group in enumerate(groups)}
    batches: dict[tuple[str, Options, DealLayout, int], list[int]] = {}
    for k, record in enumerate(records):
        if _counted(record):
            batches.setdefault((record.game, record.ruleset, record.layout, record.dealer),
                               []).append(k)
    for (game, options, layout, dealer), rows in batches.items():
        decks = np.frombuffer(b"".join(records[k].deck for k in rows),
                              dtype=np.uint8).reshape(len(rows), DECK_SIZE)
        whole = (np.sort(decks, axis=1) == np.arange(DECK_SIZE)).all(axis=1)
        decks, index = decks[whole], np.asarray(rows)[whole]
        if not len(index):
            continue
        for entry, marks in _batch_marks(game, options, layout, dealer, decks):
            column = where.get(_group(entry))
            if column is not None:
                out[index, column] = marks
    return out


def _positions(layout: DealLayout, dealer: int, where: str, seat: int = -1) -> list[int]:
    return [p for p, (w, s, _) in enumerate(layout.locations(dealer))
            if w == where and (seat < 0 or s == seat)]


def _classes(decks: NDArray[np.uint8], positions: list[int],
             classify: Callable[[tuple[Card, ...]], T]) -> tuple[list[T], NDArray[np.intp]]:
    """What `classify` says of the cards at `positions` (as a set, in deck order), computed
    once per distinct set: the few distinct answers, and each deal's answer (an index)."""
    chosen = np.sort(decks[:, positions], axis=1).astype(np.int64)
    codes = np.zeros(len(decks), dtype=np.int64)
    for column in range(chosen.shape[1]):
        codes = codes * DECK_SIZE + chosen[:, column]
    distinct, inverse = np.unique(codes, return_inverse=True)
    answers: dict[T, int] = {}
    of_set = np.empty(len(distinct), dtype=np.intp)
    for k, code in enumerate(distinct.tolist()):
        cards = []
        for _ in positions:
            code, index = divmod(code, DECK_SIZE)
            cards.append(card_at(index))
        of_set[k] = answers.setdefault(classify(tuple(reversed(cards))), len(answers))
    return list(answers), of_set[inverse.reshape(-1)]


def _batch_marks(game: str, options: Options, layout: DealLayout, dealer: int,
                 decks: NDArray[np.uint8]) -> list[tuple[ExactEvent, Marks]]:
    entries = _entries(game, options)
    if game == BRISCOLA_GAME:
        card = decks[:, _positions(layout, dealer, "briscola")[0]]
        return [(e, _briscola_marks(e, card)) for e in entries]
    rules = ruleset_from_dict(dict(options))
    facts, on_table = _classes(decks, _positions(layout, dealer, "table"), table_facts)
    stands = np.array([rules.redeal not in f.a_monte for f in facts])[on_table]
    hands = {role: _classes(decks, _positions(layout, dealer, "hand",
                                              _seat(role, layout, dealer, rules)),
                            lambda hand: hand_kinds(hand, rules))
             for role in Role}
    out = []
    for entry in entries:
        key = entry.key
        if key.kind is EventKind.A_MONTE:
            seen = np.array([key.reading in f.a_monte for f in facts])[on_table]
            out.append((entry, seen.astype(np.int8)))
            continue
        if key.role is None:
            happened = np.array([table_event(key.kind, f) for f in facts])[on_table]
        else:
            kinds, on_hand = hands[key.role]
            happened = np.array([hand_event(key.kind, k) for k in kinds])[on_hand]
        out.append((entry, np.where(stands, happened, -1).astype(np.int8)))
    return out


def _seat(role: Role, layout: DealLayout, dealer: int, rules: Ruleset) -> int:
    if role is Role.MAZZIERE:
        return dealer
    return Seating(layout.seats, Direction(rules.direction)).first_after_dealer(dealer)


def _briscola_marks(entry: ExactEvent, card: NDArray[np.uint8]) -> Marks:
    key = entry.key
    hits = np.array([(c.suit is key.suit) if key.kind is EventKind.SEME else (c.rank is key.rank)
                     for c in DECK])
    return hits[card].astype(np.int8)




def column_events(game: str, options: Options) -> list[SuspectedEvent]:
    """The catalogue's events of one game and ruleset observing deals already in columns
    (simulated deals, all of this ruleset: bench/fairness_calibration.py)."""
    entries = _entries(game, options)
    seen = _ColumnMarks(game, options)
    return [SuspectedEvent(entry.name, float(entry.probability), _never,
                           _ColumnMark(seen, k), title=_title(entry))
            for k, entry in enumerate(entries)]


def _never(record: DealRecord) -> bool | None:
    raise ValueError(say("this event observes deals in columns only"))


@dataclass
class _ColumnMarks:
    game: str
    options: Options
    _for: object = None
    _marks: Marks = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int8))

    def marks(self, columns: DealColumns) -> Marks:
        if self._for is not columns:
            entries = _entries(self.game, self.options)
            out = np.full((columns.n, len(entries)), -1, dtype=np.int8)
            for row, (layout, dealer) in enumerate(columns.keys):
                if layout.game != self.game:
                    continue
                rows = np.flatnonzero(columns.rows == row)
                batch = _batch_marks(self.game, self.options, layout, dealer,
                                     columns.decks[rows])
                for k, (_, marks) in enumerate(batch):
                    out[rows, k] = marks
            self._marks, self._for = out, columns
        return self._marks


@dataclass(frozen=True)
class _ColumnMark:
    seen: _ColumnMarks
    index: int

    def __call__(self, columns: DealColumns) -> Marks:
        return self.seen.marks(columns)[:, self.index]


__all__ = ["catalogued_events", "column_events", "group_name", "marks_of"]
