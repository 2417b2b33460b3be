"""Which entrants sit together in each turn: the draw's first turn, then art. 3's recompositions.

- Turn I: the order of the seating draw, four by four (003 art. 2).
- Pre-constituted ("precostituito", art. 3): "con lo scopo di non fare mai rincontrare due
  giocatori allo stesso tavolo e consentire dunque ad ognuno di incontrare il massimo numero
  possibile di avversari". The whole schedule is fixed before the tournament: a depth-first
  search for four turns in which no pair sits together twice; where that cannot be (fewer than 4
  tables: two of any table of turn II sat together in turn I), each later turn is the partition
  that repeats the fewest pairs. docs/tarocchi.md gives the proof and the measured figures.
- By provisional standings ("classifica"): the top four at table A from North to East, and so on.
- The final turn by standing bands ("fasce"): with T tables, table k holds places k, k+T, k+2T,
  k+3T ("ad esempio per 5 tavoli: 1/6/11/16, 2/7/12/17, ...").
- The final turn pre-constituted after turns seated by standings: the partition that repeats the
  fewest pairs already met ("a meno di eventuali necessarie eccezioni").

Every group lists its numbers North, West, South, East; within a computed group, by increasing
player number (the lowest North, as in turn I).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from domain.tarocchi.seats import TABLE_SIZE, TURNS, TableSeating, seat_tables
from domain.text import say

Pair = tuple[int, int]
Group = tuple[int, ...]

SEARCH_BUDGET = 200_000
"""Nodes a search may visit before it settles for the best partition found so far: the search is
deterministic, so the same entrants always get the same schedule."""


class ScheduleError(ValueError):
    """A number of entrants or an order that cannot be seated."""


def check_entrants(count: int) -> int:
    """003 art. 2: "un torneo con numero di giocatori multiplo di 4 giocatori"."""
    if count < TABLE_SIZE or count % TABLE_SIZE:
        raise ScheduleError(say("{count} entrants: a 003 tournament seats a multiple of 4 (at "
                                "least 4); players may pair up as teams (art. 2)", count=count))
    return count


def pairs(group: Sequence[int]) -> Iterator[Pair]:
    yield from combinations(sorted(group), 2)


def met(turns: Sequence[Sequence[TableSeating]]) -> Counter[Pair]:
    """How many times each pair of entrants sat at the same table."""
    return Counter(p for turn in turns for table in turn for p in pairs(table.players))


def first_turn(count: int) -> tuple[TableSeating, ...]:
    """Turn I: numbers 1-4 at table A (1 North ... 4 East), 5-8 at B, and so on."""
    check_entrants(count)
    return seat_tables([tuple(range(k, k + 4)) for k in range(1, count + 1, 4)])


def by_standing(order: Sequence[int]) -> tuple[TableSeating, ...]:
    """003 art. 3: "i primi 4 nella classifica provvisoria ... siederanno, nello stesso ordine,
    sempre a partire dal più alto (Nord) fino al più basso (Est) ..., al tavolo A"."""
    check_entrants(len(order))
    return seat_tables([tuple(order[k:k + 4]) for k in range(0, len(order), 4)])


def by_bands(order: Sequence[int]) -> tuple[TableSeating, ...]:
    """003 art. 3, the final turn: "per 5 tavoli: 1/6/11/16, 2/7/12/17, ...": with T tables,
    table k holds places k, k+T, k+2T, k+3T, the best placed North."""
    tables = check_entrants(len(order)) // TABLE_SIZE
    return seat_tables([tuple(order[k::tables]) for k in range(tables)])


def least_repeating(numbers: Sequence[int], already: Counter[Pair]) -> tuple[TableSeating, ...]:
    """The partition of `numbers` into tables that repeats the fewest pairs already met (each
    pair weighted by how often it met), found by a bounded branch-and-bound search."""
    check_entrants(len(numbers))
    return seat_tables(_Search(tuple(sorted(numbers)), already).best())


def precostituito(count: int) -> tuple[tuple[TableSeating, ...], ...]:
    """The four turns of a pre-constituted tournament of `count` entrants."""
    check_entrants(count)
    turns = [first_turn(count)]
    numbers = tuple(range(1, count + 1))
    if count >= TABLE_SIZE * TABLE_SIZE:
        never = _never_twice(numbers, met(turns), TURNS - 1)
        if never is not None:
            return (turns[0], *(seat_tables(t) for t in never))
    while len(turns) < TURNS:
        turns.append(least_repeating(numbers, met(turns)))
    return tuple(turns)


def _never_twice(numbers: tuple[int, ...], already: Counter[Pair],
                 rounds: int) -> list[list[Group]] | None:
    """`rounds` partitions with no pair meeting twice, by depth-first search across rounds."""
    budget = [SEARCH_BUDGET * rounds]

    def rounds_from(seen: set[Pair], left: int) -> list[list[Group]] | None:
        if not left:
            return []
        for partition in _zero_partitions(numbers, seen, budget):
            added = {p for g in partition for p in pairs(g)}
            rest = rounds_from(seen | added, left - 1)
            if rest is not None:
                return [partition, *rest]
            if budget[0] <= 0:
                return None
        return None

    return rounds_from(set(already), rounds)


def _zero_partitions(numbers: tuple[int, ...], seen: set[Pair],
                     budget: list[int]) -> Iterator[list[Group]]:
    """Every partition of `numbers` into groups of 4 with no pair in `seen`, lowest first."""

    def fill(free: tuple[int, ...]) -> Iterator[list[Group]]:
        if not free:
            yield []
            return
        head, rest = free[0], free[1:]
        for group in _groups_with(head, rest, seen):
            budget[0] -= 1
            if budget[0] <= 0:
                return
            left = tuple(n for n in rest if n not in group)
            for tail in fill(left):
                yield [group, *tail]

    yield from fill(numbers)


def _groups_with(head: int, rest: tuple[int, ...], seen: set[Pair]) -> Iterator[Group]:
    fits = [n for n in rest if (head, n) not in seen]
    for a, b, c in combinations(fits, 3):
        if (a, b) not in seen and (a, c) not in seen and (b, c) not in seen:
            yield (head, a, b, c)


@dataclass
class _Search:
    """Branch and bound: the partition with the least weight of pairs already met."""

    numbers: tuple[int, ...]
    already: Counter[Pair]
    best_cost: int = -1
    best_groups: tuple[Group, ...] = ()
    visited: int = 0

    def best(self) -> tuple[Group, ...]:
        self._fill(self.numbers, (), 0)
        return self.best_groups

    def _fill(self, free: tuple[int, ...], groups: tuple[Group, ...], cost: int) -> None:
        if self.best_cost == 0 or (self.best_cost >= 0 and (
                cost >= self.best_cost or self.visited >= SEARCH_BUDGET)):
            return
        if not free:
            self.best_cost, self.best_groups = cost, groups
            return
        head, rest = free[0], free[1:]
        options = sorted((self._cost((head, *trio)), (head, *trio))
                         for trio in combinations(rest, 3))
        for extra, group in options:
            self.visited += 1
            left = tuple(n for n in rest if n not in group)
            self._fill(left, (*groups, group), cost + extra)

    def _cost(self, group: Group) -> int:
        return sum(self.already[p] for p in pairs(group))


@dataclass(frozen=True, slots=True)
class Closeness:
    """How many different opponents the entrants meet in a schedule, against the bound
    min(entrants - 1, 3 x turns)."""

    entrants: int
    bound: int
    fewest: int
    mean: float
    repeated_pairs: int


def closeness(turns: Sequence[Sequence[TableSeating]]) -> Closeness:
    count = sum(len(t.players) for t in turns[0])
    seen = met(turns)
    opponents: dict[int, set[int]] = {n: set() for n in range(1, count + 1)}
    for a, b in seen:
        opponents[a].add(b)
        opponents[b].add(a)
    sizes = [len(o) for o in opponents.values()]
    bound = min(count - 1, (TABLE_SIZE - 1) * len(turns))
    return Closeness(count, bound, min(sizes), sum(sizes) / count,
                     sum(1 for times in seen.values() if times > 1))
