"""Random stored matches and hand records for the notation's round-trip properties.

`stored_matches` draws a match plan of the read models' properties (tests/projections/read_models/
match_plans.py: either game, 2 or 4 players, short formats, a timeout, an abandon or rulings,
maybe transcribed, maybe left in progress), plays it by the demo's bots without a store and
returns its events; a transcribed one gets a header (TagsTranscribed) and claimed scores
(ScoreClaimed) as a scorer's record would. `partial_records` hides cards of a record (the cards
nobody saw), drops hands and stocks, and scribbles what a writer may add (a seat, a marker, more
tags).
"""

from __future__ import annotations

from hypothesis import strategies as st

from domain.cards import UNKNOWN, Card
from domain.events import SmazzataEnded
from domain.record.catalog import CATALOG
from domain.record.commands import CreateMatch
from domain.record.decide import decide
from domain.record.events import ScoreClaimed, TagsTranscribed
from domain.record.match import evolve, initial
from importers.notation.from_events import StoredEvent
from importers.notation.model import (
    CLAIMED_BY_RECORD,
    IRREGULARITY_MARKERS,
    Move,
    Tag,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.writer import ordered_tags
from tests.projections.read_models.match_plans import START, Action, actions, match_plans, setup_of
from tests.replacing import replace

HEADER_NAMES = ("Event", "Site", "Date", "Round", "Table", "Arbiter", "Annotator", "Result",
                "Commento_2")
TAG_TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc"), include_characters="\t"),
                   max_size=24)
"""A tag value: any text the notation can quote (no line break, no control character but the
tab), quotes, backslashes, `;`, braces and line separators (U+2028) included."""


def decided(setup: CreateMatch, made: list[Action]) -> list[StoredEvent]:
    """The events of a match, decided and folded locally (no store)."""
    state = initial(CATALOG)
    events: list[StoredEvent] = []
    for command, at in [(setup, START), *made]:
        for event in decide(state, command, at):
            state = evolve(state, event, at)
            events.append(event)
    return events


@st.composite
def headers(draw: st.DrawFn) -> TagsTranscribed:
    names = draw(st.lists(st.sampled_from(HEADER_NAMES), unique=True, max_size=4))
    tags = tuple((name, draw(TAG_TEXT)) for name in names)
    return TagsTranscribed(tags=tags, content_hash="0" * 64)


def claimed(events: list[StoredEvent], skew: int) -> list[StoredEvent]:
    """Each SmazzataEnded followed by the score the record claimed: its breakdown, the first row
    off by `skew` (a claim need not be right); and by a score sheet's claim of it, which is not
    part of the hand record (the writer leaves it out)."""
    out: list[StoredEvent] = []
    for event in events:
        out.append(event)
        if isinstance(event, SmazzataEnded) and event.breakdown:
            (category, a, b), *rest = event.breakdown
            rows = ((category, a + skew, b), *rest)
            out.append(ScoreClaimed(event.number, rows, claimed_by=CLAIMED_BY_RECORD))
            out.append(ScoreClaimed(event.number, tuple(event.breakdown),
                                    claimed_by="foglio del circolo"))
    return out


@st.composite
def stored_matches(draw: st.DrawFn) -> tuple[StoredEvent, ...]:
    """A recorded match's events in stream order."""
    plan = draw(match_plans())
    setup = setup_of(plan)
    events = decided(setup, actions(plan, setup))
    if plan.transcribed:
        events.insert(1, draw(headers()))
        events = claimed(events, draw(st.integers(0, 2)))
    return tuple(events)


def _hidden(draw: st.DrawFn, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    mask = draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
    return tuple(UNKNOWN if hide else card for card, hide in zip(cards, mask, strict=True))


def _hands(draw: st.DrawFn, hands: tuple[tuple[Card, ...] | None, ...] | None
           ) -> tuple[tuple[Card, ...] | None, ...] | None:
    how = draw(st.sampled_from(("keep", "hide", "drop", "drop-seats")))
    if hands is None or how == "drop":
        return None
    if how == "keep":
        return hands
    shown = tuple(None if h is None else _hidden(draw, h) for h in hands)
    if how == "hide":
        return shown
    kept = draw(st.lists(st.booleans(), min_size=len(hands), max_size=len(hands)))
    if not any(kept):
        return None   # a record with no Hand line has no hands, not hands of nobody
    return tuple(h if keep else None for h, keep in zip(shown, kept, strict=True))


@st.composite
def _layout(draw: st.DrawFn, layout: WrittenLayout) -> WrittenLayout:
    stock = layout.stock
    how = draw(st.sampled_from(("keep", "hide", "drop")))
    if stock is not None and how != "keep":
        stock = None if how == "drop" else _hidden(draw, stock)
    return replace(layout, hands=_hands(draw, layout.hands), stock=stock)


@st.composite
def _move(draw: st.DrawFn, move: Move, players: int) -> Move:
    if not isinstance(move, WrittenPlay) or draw(st.integers(0, 5)):
        return move
    seat = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    marker = draw(st.one_of(st.none(), st.sampled_from(IRREGULARITY_MARKERS)))
    return replace(move, seat=seat, irregular=marker, scopa=draw(st.booleans()))


@st.composite
def _smazzata(draw: st.DrawFn, smazzata: WrittenSmazzata, players: int) -> WrittenSmazzata:
    attempts = tuple(draw(_layout(a)) for a in smazzata.attempts)
    moves = tuple(draw(_move(m, players)) for m in smazzata.moves)
    dealer = smazzata.dealer if draw(st.integers(0, 4)) else None
    seed = smazzata.seed if draw(st.integers(0, 2)) else None
    return replace(smazzata, dealer=dealer, seed=seed, attempts=attempts, moves=moves)


@st.composite
def partial_records(draw: st.DrawFn, match: WrittenMatch) -> WrittenMatch:
    """`match` as a scorer might have written it: cards nobody saw, hands and stocks left out,
    seats and markers written on some plays, a dealer or a seed not written."""
    players = len((match.tag("Players") or "a,b").split(","))
    smazzate = tuple(draw(_smazzata(s, players)) for s in match.smazzate)
    more = tuple(Tag(name, value) for name, value in draw(headers()).tags)
    return replace(match, tags=ordered_tags((*match.tags, *more)), smazzate=smazzate)

