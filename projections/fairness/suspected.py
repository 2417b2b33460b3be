"""The catalogue's events (exact.py) as tests of the battery over stored deals.

Each stored deal is read once: its cards become the `SmazzataDealt` they were dealt as
(`DealRecord.dealt`), its match's ruleset is parsed, and `events.observe` says which of the
ruleset's catalogue entries happened on it. An entry whose probability depends on the C1 reading
(the dealer's accusi, the first hands) is one test per reading met in the selection: deals of
matches under different readings are not pooled against one probability. The redeal events and
the Briscola card's are one test each over every deal of their game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from domain.briscola.state import BriscolaRules
from domain.cirulla.ruleset import Ruleset, ruleset_from_dict
from domain.text import Said, say
from projections.fairness.battery import SuspectedEvent
from projections.fairness.deals import DealRecord
from projections.fairness.events import BRISCOLA_GAME, CIRULLA_GAME, ExactEvent, observe
from projections.fairness.exact import exact_probabilities

Group = tuple[str, tuple[tuple[str, str], ...]]
"""An entry's name and the ruleset options its probability holds for."""
DealKey = tuple[str, int, int]


@cache
def _rules(game: str, options: tuple[tuple[str, str], ...]) -> Ruleset | BriscolaRules:
    if game == CIRULLA_GAME:
        return ruleset_from_dict(dict(options))
    return BriscolaRules()


def group_name(group: Group) -> str:
    """`cirulla.quindici[redeal=due-assi]`, or the entry's name when it holds for any ruleset."""
    name, applies = group
    if not applies:
        return name
    return f"{name}[{','.join(f'{k}={v}' for k, v in applies)}]"


def catalogued_events(records: Sequence[DealRecord]) -> list[SuspectedEvent]:
    """One test per catalogue entry (and C1 reading) met among the complete deals of
    `records`, in catalogue order, each observing one record at a time."""
    seen: dict[DealKey, dict[Group, bool]] = {}
    entries: dict[Group, ExactEvent] = {}
    for record in records:
        if not record.complete or record.game not in (CIRULLA_GAME, BRISCOLA_GAME):
            continue
        rules = _rules(record.game, record.ruleset)
        mine = exact_probabilities(record.game, rules)
        answers = observe(mine, record.dealt(), rules)
        marks: dict[Group, bool] = {}
        for entry, happened in zip(mine, answers, strict=True):
            group = _group(entry)
            entries.setdefault(group, entry)
            if happened is not None:
                marks[group] = happened
        seen[_key(record)] = marks
    return [SuspectedEvent(group_name(group), float(entry.probability), _observer(seen, group),
                           title=_title(entry))
            for group, entry in entries.items()]


def _title(entry: ExactEvent) -> Said:
    if not entry.applies_to:
        return entry.describe()
    return say("{event} (C1 reading {reading})", event=entry.describe(),
               reading=", ".join(value for _, value in entry.applies_to))


def _group(entry: ExactEvent) -> Group:
    return entry.name, entry.applies_to


def _key(record: DealRecord) -> DealKey:
    return record.match, record.smazzata, record.attempt


def _observer(seen: dict[DealKey, dict[Group, bool]],
              group: Group) -> Callable[[DealRecord], bool | None]:
    def observe_one(record: DealRecord) -> bool | None:
        return seen.get(_key(record), {}).get(group)
    return observe_one


__all__ = ["catalogued_events", "group_name"]
