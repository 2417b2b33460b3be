"""The no-leak property over HTTP, extended to /fairness (and its printable report) and every
combination of its filters (issue 23 point 5), on the demo store in SQLite and PostgreSQL: it
has matches ended by timeout and by abandon, cappotti and redealt attempts, whose cards were
never all seen.

For any filters a visitor may type (tournament, days, game, ruleset options, dealer,
provenance, level, language):
- no test, figure or verdict of the public page counts fewer deals than the minimum population
  (40): each shown test's n is at least 40, each figure belongs to a shown test, and a
  population with fewer deals shows no table, no figure and no card;
- the cards never seen of the selected deals (hidden from the public at the end of their
  smazzata: tests/replay_web/web/leak_tools.py `hidden_at`) reach the public only through
  figures over at least 40 deals: permuting them among their places in every deal of a
  population shown as "too few" leaves the page and the printable report byte-identical.
test_no_leak.py is the same property over the match pages and their JSON."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock
from urllib.parse import urlencode

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import DECK
from domain.events import SmazzataDealt
from domain.viewing import PUBLIC
from projections.fairness.deals import DealRecord
from projections.fairness.privacy import MIN_DEALS
from projections.fairness.report import fairness_report
from projections.fairness.selection import Criteria, Selection, select_deals
from projections.store.listing import Filters, list_matches
from replay_web.web import fairness as page
from tests.replacing import replace
from tests.replay_web.web.conftest import as_arbiter
from tests.replay_web.web.leak_tools import hidden_at

Key = tuple[str, int, int]
"""A deal: its match, smazzata and attempt (as DealRecord has them)."""
COVERED: Counter[str] = Counter()
_NAMES = re.compile(r'(?:data-test|id)="([^"]+)"')
_PRINTED = re.compile(r'<table class="fairness-tests"[^>]*>.*?</table>', re.S)
_PRINTED_N = re.compile(r'<tr class="[a-z]*"><td>[^<]*</td><td class="num">(\d+)</td>')
_FIGURE = re.compile(r'<svg [^>]*id="([^"]+)"')
_SECTION = re.compile(r'<section class="battery" id="battery-([a-z]+)">(.*?)</section>', re.S)
_CODES = {card.code for card in DECK}
_WORD = re.compile(r"[\w?]+")


@dataclass(frozen=True, slots=True)
class Store:
    """What the filters are drawn from, and the cards never seen of each deal."""

    tournaments: tuple[str, ...]
    days: tuple[str, ...]
    players: tuple[str, ...]
    options: tuple[str, ...]
    unseen: dict[Key, frozenset[str]]


@pytest.fixture(scope="module")
def store_facts(demo_app: Flask) -> Store:
    services = demo_app.extensions["verbale"]
    store = services.store
    listed = list_matches(store, Filters()).matches
    tournaments = {m.tournament_name for m in listed if m.tournament_name}
    tournaments |= {m.tournament[:8] for m in listed if m.tournament}
    records = select_deals(store, Criteria()).records
    days = {r.dealt_at.date().isoformat() for r in records if r.dealt_at is not None}
    options = {f"{k}={v}" for r in records for k, v in r.ruleset}
    unseen: dict[Key, frozenset[str]] = {}
    for summary in listed:
        if summary.ending is not None:
            unseen |= _unseen(services.replays.replay(summary.stream), str(summary.stream))
    assert any(unseen.values()), "the demo store has deals whose cards were never all seen"
    return Store(tuple(sorted(tournaments)), tuple(sorted(days)),
                 tuple(sorted({p for m in listed for p in m.players})), tuple(sorted(options)),
                 unseen)


def _unseen(replay: Any, match: str) -> dict[Key, frozenset[str]]:
    """Per deal of the match, the cards the public never saw: hidden at the last step before
    the next deal (or the end)."""
    deals = [v for v in range(1, replay.last + 1)
             if isinstance(replay.events[v - 1], SmazzataDealt)]
    out = {}
    for k, start in enumerate(deals):
        end = deals[k + 1] - 1 if k + 1 < len(deals) else replay.last
        dealt = replay.events[start - 1]
        hidden = hidden_at(replay.line, start, end, PUBLIC)
        out[(match, dealt.number, dealt.attempt)] = frozenset(c.code for c in hidden)
    return out


def _maybe(values: st.SearchStrategy[str]) -> st.SearchStrategy[str | None]:
    """A filter left empty two times in three: several filters at once mostly select
    nothing."""
    return st.integers(0, 2).flatmap(lambda n: values if n == 0 else st.none())


MALFORMED = (("since", "2026-02-30"), ("until", "23/11/2026"), ("ruleset", "redeal"),
             ("alpha", "2"), ("game", "tarocchi"), ("provenance", "x"))
"""Values the form refuses (or, for game and provenance, ignores)."""


def queries(facts: Store) -> st.SearchStrategy[dict[str, str]]:
    """Any filters: the store's own values (which narrow to a few deals), parts of them, other
    text; now and then one malformed value."""
    text = st.text("abcdefxyz0123456789 -=", max_size=8)
    name_part = st.sampled_from(facts.players).flatmap(
        lambda p: st.integers(1, len(p)).map(lambda n: p[:n]))
    fields = {
        "tournament": _maybe(st.sampled_from(facts.tournaments) | text),
        "since": _maybe(st.sampled_from(facts.days)),
        "until": _maybe(st.sampled_from(facts.days)),
        "game": _maybe(st.sampled_from(("cirulla", "briscola"))),
        "ruleset": _maybe(st.lists(st.sampled_from(facts.options), min_size=1, max_size=3)
                          .map(" ".join)),
        "dealer": _maybe(st.sampled_from(("1", "2", "3", "4")) | name_part | text),
        "provenance": _maybe(st.sampled_from(("live", "simulated", "transcribed"))),
        "alpha": _maybe(st.sampled_from(("0.05", "0.5"))),
        "lang": st.sampled_from(("it", "en")),
    }
    bad = st.integers(0, 4).flatmap(
        lambda n: st.sampled_from(MALFORMED).map(lambda kv: dict([kv])) if n == 0
        else st.just({}))
    return st.tuples(st.fixed_dictionaries(fields), bad).map(
        lambda pair: {k: v for k, v in pair[0].items() if v is not None} | pair[1])


def _get(app: Flask, query: dict[str, str], path: str = "/fairness") -> str:
    page._KEPT.reports.clear()
    response = app.test_client().get(f"{path}?" + urlencode(query))
    assert response.status_code == 200, query
    return response.get_data(as_text=True)


def _cards(html: str) -> set[str]:
    return {w for w in _WORD.findall(html) if w in _CODES}


def _check_shown(html: str, counts: dict[str, dict[str, int]], query: dict[str, str]
                 ) -> dict[str, set[str]]:
    """Every test the page names (a row, an article, a figure) counted at least MIN_DEALS
    deals in the owner's report (`counts`: per section, each test's n); a section of too few
    deals names no test, draws no figure and shows no card. Returns the tests named per
    section."""
    named: dict[str, set[str]] = {}
    for key, body in _SECTION.findall(html):
        tests = counts.get(key, {})
        words = set(_NAMES.findall(body))
        ids = {w.removeprefix(f"{key}-").removeprefix("figure-") for w in words}
        named[key] = {name for name in ids if name in tests}
        small = {name: tests[name] for name in named[key] if tests[name] < MIN_DEALS}
        assert not small, (query, key, small)
        figures = _FIGURE.findall(body)
        if not named[key]:
            assert not figures and not _cards(body.split("</h2>", 1)[1]), (query, key)
        COVERED["figures"] += len(figures)
    return named


def _swapped(unseen: dict[Key, frozenset[str]], which: Callable[[DealRecord], bool],
             rng: random.Random) -> Callable[[Any, Criteria], Selection]:
    """select_deals, with the cards never seen of the deals `which` keeps permuted among
    their places."""
    def select(store: Any, criteria: Criteria) -> Selection:
        found = select_deals(store, criteria)
        return replace(found, records=tuple(
            _permuted(r, unseen.get((r.match, r.smazzata, r.attempt), frozenset()), rng)
            if which(r) else r for r in found.records))
    return select


def _permuted(record: DealRecord, unseen: frozenset[str], rng: random.Random) -> DealRecord:
    deck = bytearray(record.deck)
    places = [k for k, index in enumerate(deck) if index < len(DECK)
              and DECK[index].code in unseen]
    values = [deck[k] for k in places]
    rng.shuffle(values)
    for k, value in zip(places, values, strict=True):
        deck[k] = value
    COVERED["unseen cards moved"] += sum(deck[k] != record.deck[k] for k in places)
    return replace(record, deck=bytes(deck))


def _population(record: DealRecord) -> str | None:
    if not record.complete:
        return None
    return "transcribed" if record.transcribed else "verified"


@settings(max_examples=max(8, settings().max_examples // 6))
@given(data=st.data())
def test_fairness_never_shows_a_figure_over_too_few_deals_nor_an_unseen_card(
        data: st.DataObject, demo_app: Flask, store_facts: Store) -> None:
    query = data.draw(queries(store_facts))
    html = _get(demo_app, query)
    with demo_app.test_request_context("/fairness?" + urlencode(query)):
        form = page.read_form(page.request.args)
    if form.errors:
        assert 'id="battery-' not in html and "<svg" not in html
        COVERED["refused"] += 1
        return
    printed = _get(demo_app, query, "/fairness/print")
    counted = [int(n) for table in _PRINTED.findall(printed) for n in _PRINTED_N.findall(table)]
    assert all(n >= MIN_DEALS for n in counted), (query, counted)
    COVERED["printed tests"] += len(counted)
    selection = select_deals(demo_app.extensions["verbale"].store, form.criteria)
    owner = fairness_report(selection, form.criteria, form.alpha)
    counts = {key: {o.name: o.n for o in (*battery.outcomes, *battery.descriptive)}
              for key, battery in (("verified", owner.verified),
                                   ("transcribed", owner.transcribed))}
    named = _check_shown(html, counts, query)
    records = selection.records
    sizes = Counter(_population(r) for r in records)
    few = {key for key in ("verified", "transcribed") if 0 < sizes[key] < MIN_DEALS}
    for key in few:
        assert not named.get(key), (query, key, sizes)
    hiding = [r for r in records if _population(r) in few
              and store_facts.unseen.get((r.match, r.smazzata, r.attempt))]
    COVERED["too few" if few else "shown" if records else "nothing selected"] += 1
    if hiding:
        seed = data.draw(st.integers(0, 2**32 - 1))
        swap = _swapped(store_facts.unseen, lambda r: _population(r) in few,
                        random.Random(seed))
        with mock.patch.object(page, "select_deals", swap):
            again = _get(demo_app, query)
            printed_again = _get(demo_app, query, "/fairness/print")
        assert again == html, query
        assert printed_again == printed, query
        COVERED["swapped"] += 1


def test_the_demo_store_reaches_both_sides_of_the_minimum(demo_app: Flask,
                                                          store_facts: Store) -> None:
    """The property above is not vacuous: the whole store is shown, its tests over 40 deals
    or more; narrowed to a tournament's timeout, it is too few, and its unseen cards move."""
    store = demo_app.extensions["verbale"].store
    for query, shown in (({"lang": "en"}, True),
                         ({"lang": "en", "game": "briscola", "dealer": "1"}, False)):
        criteria = Criteria(game=query.get("game"), dealer=query.get("dealer"))
        owner = fairness_report(select_deals(store, criteria), criteria)
        counts = {"verified": {o.name: o.n for o in owner.verified.outcomes}}
        named = _check_shown(_get(demo_app, query), counts, query)
        assert bool(named["verified"]) is shown, query
        assert any(n < MIN_DEALS for n in counts["verified"].values() if n), query
    assert sum(1 for cards in store_facts.unseen.values() if cards) >= 5


@pytest.fixture(scope="module", autouse=True)
def coverage_report() -> Iterator[None]:
    """What the property covered (seen with `pytest -s`)."""
    yield
    print("\nfairness no-leak coverage:", dict(COVERED))


def test_the_arbiter_s_whole_report_is_never_kept_by_a_proxy(demo_app: Flask) -> None:
    """A logged-in arbiter gets the whole report; a shared cache must not keep it and hand it
    to the public (the arbiter's match pages are private the same way)."""
    query = "/fairness?lang=en&ruleset=deal_order%3Dalternata"
    arbiter = as_arbiter(demo_app.test_client()).get(query)
    assert 'id="figure-slots"' in arbiter.get_data(as_text=True)
    assert arbiter.headers["Cache-Control"] == "private, no-store"
    assert "Cookie" in arbiter.headers.get("Vary", "")
    public = demo_app.test_client().get(query)
    assert 'id="figure-slots"' not in public.get_data(as_text=True)
    assert "private" not in public.headers["Cache-Control"]
