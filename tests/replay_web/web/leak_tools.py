"""For the no-leak test: random live matches served from memory, the cards hidden from a viewer
at a step, and the cards a page or a JSON answer shows.

A card is hidden from a viewer at a step when the domain says so (`hidden_from`: the hands the
viewer cannot see, less their shown cards, and the stock but the briscola card). Between a
smazzata's end and the next deal no cards are out: the cards hidden at the smazzata's last
dealt step stay hidden (the cards a cappotto, a timeout or an abandon left unplayed).

What a response shows is scoped to the smazzata in play: the timeline entries of earlier
smazzate show the same cards, played in the open before this deal shuffled them again.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from flask import Flask

from domain.cards import Card
from domain.events import SmazzataDealt
from domain.record.events import MatchCreated, TableVisibility
from domain.record.timeline import Timeline
from domain.viewing import ARBITER, PUBLIC, Viewer
from replay_web.access import seat_token
from replay_web.svg_cards import default_title
from replay_web.web.app import create_app
from replay_web.web.records import RecordHead, Replay, head_of, replay_of
from tests.domain.record.live import LiveMatch
from tests.domain.test_observation import hidden_from
from tests.replacing import replace

SECRET = b"k" * 32
MATCH_ID = UUID("00000000-0000-4000-8000-00000000000b")

_ENTRY = re.compile(r'<li class="entry[^"]*" value="(\d+)">.*?</li>', re.S)
_DATA_CARD = re.compile(r'data-card="([^"]*)"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


@dataclass
class MemoryReplays:
    """The `Replays` of an app over records held in memory (replaced between requests)."""

    held: dict[UUID, Replay] = field(default_factory=dict)

    def replay(self, match_id: UUID) -> Replay | None:
        return self.held.get(match_id)

    def record_head(self, match_id: UUID) -> RecordHead | None:
        found = self.held.get(match_id)
        return None if found is None else head_of(found)


def viewer_app(replays: MemoryReplays) -> Flask:
    return create_app(replays=replays, secret=SECRET, config={"TESTING": True})


def with_visibility(match: LiveMatch, visibility: TableVisibility) -> LiveMatch:
    """The same match recorded at a table with other visibility options: the options change
    what each viewer sees, never a move."""
    (created, at), *rest = match.recorded
    assert isinstance(created, MatchCreated)
    return replace(match, recorded=((replace(created, visibility=visibility), at), *rest))


def replay_from(match: LiveMatch, version: int | None = None,
                recorded: Any = None) -> Replay:
    """The first `version` events of `match` (or `recorded`) as the viewer's Replay. Its head
    stands for the chain hash a store would give it: the app keeps answers by match, step and
    head, and two records held in memory must not share them."""
    events = match.recorded if recorded is None else recorded
    events = events if version is None else events[:version]
    head = hashlib.sha256(repr(events).encode()).hexdigest()
    return replay_of(MATCH_ID, [(e, at, "") for e, at in events], head)


def views(players: int) -> tuple[Viewer, ...]:
    return (*range(players), PUBLIC)


def view_query(viewer: Viewer) -> str:
    """`view=` and, for a seat, its link `token=`."""
    if viewer is PUBLIC:
        return "view=public"
    if viewer is ARBITER:
        return "view=arbiter"
    assert isinstance(viewer, int)
    return f"view=seat{viewer + 1}&token={seat_token(SECRET, MATCH_ID, viewer)}"


def urls(step: int, viewer: Viewer, suits: tuple[str, ...] = ("italian", "french")
         ) -> Iterator[tuple[str, str]]:
    """What one viewer asks of a step: the page in the suit styles `suits`, the JSON."""
    query = f"step={step}&{view_query(viewer)}"
    for style in suits:
        yield "html", f"/matches/{MATCH_ID}?{query}&suits={style}"
    yield "json", f"/api/matches/{MATCH_ID}/steps/{step}?{view_query(viewer)}"


def deal_step(replay: Replay, step: int) -> int | None:
    """The step of the last deal recorded up to `step`: where the smazzata in play begins."""
    deals = [v for v in range(1, step + 1) if isinstance(replay.events[v - 1], SmazzataDealt)]
    return deals[-1] if deals else None


def hidden_at(line: Timeline, start: int | None, step: int, viewer: Viewer) -> list[Card]:
    """The cards hidden from `viewer` after `step`, in the smazzata dealt at `start`."""
    if start is None:
        return []
    for version in range(step, start - 1, -1):
        arbiter = line.observe(version, ARBITER)
        if arbiter.dealt:
            return hidden_from(line.observe(version, viewer), arbiter)
    return []


def visible_at(line: Timeline, step: int, viewer: Viewer) -> set[Card]:
    """Cards the viewer must be shown: the hands it sees, the table, the briscola card."""
    obs = line.observe(step, viewer)
    if not obs.dealt:
        return set()
    cards = {c for hand in obs.hands if hand is not None for c in hand} | set(obs.table)
    return cards | ({obs.briscola} if obs.briscola is not None else set())


def titles(card: Card) -> set[str]:
    return {default_title(card, "italian"), default_title(card, "french")}


def page_cards(page: str, since: int | None) -> tuple[set[str], set[str]]:
    """The card codes (`data-card`) and SVG titles of a page, leaving out the timeline entries
    recorded before step `since` (earlier smazzate)."""
    def earlier(entry: re.Match[str]) -> bool:
        return since is None or int(entry.group(1)) < since
    kept = _ENTRY.sub(lambda m: "" if earlier(m) else m.group(0), page)
    return (set(_DATA_CARD.findall(kept)),
            {html.unescape(t).strip() for t in _TITLE.findall(kept)})


def json_strings(data: Any, since: int | None) -> set[str]:
    """Every string value of a step's JSON, leaving out the events recorded before `since`."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk({k: v for k, v in data.items() if k != "events"})
    walk([e for e in data["events"] if since is not None and e["step"] >= since])
    return found


def check_answer(kind: str, text: str, data: object, start: int | None,
                 hidden: Collection[Card],
                 shown: set[Card], url: str) -> None:
    """No hidden card in the answer; every card the viewer must see is in it."""
    if kind == "json":
        strings = json_strings(data, start)
        leaked = {c.code for c in hidden} & strings
        missing = {c.code for c in shown} - strings
    else:
        codes, found_titles = page_cards(text, start)
        leaked = {c.code for c in hidden if c.code in codes or titles(c) & found_titles}
        missing = {c.code for c in shown if not titles(c) & found_titles}
    assert not leaked, f"{url}: hidden cards {sorted(leaked)} in the answer"
    assert not missing, f"{url}: cards {sorted(missing)} the viewer sees are not shown"
