"""Issue 23, point 6, over HTTP: a step's page and JSON show the state after its own event, so a
card still in the stock by the event log is in no answer but the arbiter's, and no seat is shown
a card it has not drawn yet. At the play that completes a Briscola trick, and at its TrickTaken,
the cards the CardsDrawn that follows gives out are not in any seat's page or JSON; they are
at the CardsDrawn.

The oracle is the event log alone (tests/domain/record/dealt_by_events.py), never a game state:
the no-leak property of test_no_leak.py takes its hidden cards from the domain's own views, so
a view ahead of its event (a draw shown early) passed it; this one does not."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import Card
from domain.events import CardPlayed, CardsDrawn, SmazzataEnded, TrickTaken
from domain.match_format import MatchFormat
from domain.record.catalog import CATALOG, format_options
from domain.record.commands import CreateMatch
from domain.record.events import Abandoned, TableVisibility, TimeControl, TimeoutRecorded
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed
from domain.viewing import ARBITER, Viewer
from tests.domain.record.dealt_by_events import Dealt, dealt_by_events
from tests.domain.record.live import START, LiveMatch, live_matches, random_bot
from tests.replay_web.web.conftest import as_arbiter
from tests.replay_web.web.leak_tools import (
    MATCH_ID,
    MemoryReplays,
    check_answer,
    deal_step,
    json_strings,
    page_cards,
    replay_from,
    titles,
    urls,
    view_query,
    viewer_app,
    views,
    with_visibility,
)

NONE, VISTE = TableVisibility(False, False), TableVisibility(True, False)
SCOPERTE, BOTH = TableVisibility(False, True), TableVisibility(True, True)
CASES = [(game, players) for game in ("briscola", "cirulla") for players in (2, 4)]


def briscola_match(players: int, seed: bytes = b"d" * 16) -> LiveMatch:
    """One Briscola smazzata played by the random bot, at a table with no visibility option."""
    setup = CreateMatch(game="briscola", ruleset={"vinco_subito": "false"},
                        players=("Anna", "Bruno", "Carla", "Dario")[:players],
                        match_format=format_options(MatchFormat.parse("1smazzata", "briscola")),
                        time_control=TimeControl(per_move=60, bank=1800, abandon_after=300),
                        first_dealer=0, visibility=NONE)
    table = Table(Seed(seed), random_bot("briscola", random.Random(7)), Incidents())
    recorded = tuple((event, at) for events, at, _ in play_locally(CATALOG, setup, table, START)
                     for event in events)
    return LiveMatch("briscola", players, recorded, (), f"briscola {players}p {seed.hex()}")


def contains(kind: str, text: str, data: Any, since: int | None, card: Card) -> bool:
    """Whether an answer shows `card` (its code, or its title in either suit style)."""
    if kind == "json":
        return card.code in json_strings(data, since)
    codes, found_titles = page_cards(text, since)
    return card.code in codes or bool(titles(card) & found_titles)


def answers(client: FlaskClient, step: int, viewer: Viewer,
            suits: tuple[str, ...] = ("italian", "french")) -> list[tuple[str, str, Any, str]]:
    """`viewer`'s answers at `step`: the page in each suit style of `suits`, the JSON."""
    found = []
    for kind, url in urls(step, viewer, suits):
        response = client.get(url)
        assert response.status_code == 200, url
        found.append((kind, response.get_data(as_text=True), response.get_json(silent=True), url))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_alla_giocata_che_chiude_la_mano_la_carta_pescata_non_si_vede(players: int) -> None:
    """The first trick: at its completing play and at its TrickTaken, no seat's page or JSON
    (nor the public's) shows a card its CardsDrawn gives out, the trick is whole on the table
    and no hand is refilled; at the CardsDrawn each seat sees the card it drew."""
    match = briscola_match(players)
    replay = replay_from(match)
    client = viewer_app(MemoryReplays({MATCH_ID: replay})).test_client()
    events = list(replay.events)
    drawn_at = next(i for i, e in enumerate(events) if isinstance(e, CardsDrawn)) + 1
    draws = events[drawn_at - 1]
    assert isinstance(draws, CardsDrawn) and isinstance(events[drawn_at - 2], TrickTaken)
    played = events[drawn_at - 3]
    assert isinstance(played, CardPlayed)
    start = deal_step(replay, drawn_at)
    for step in (drawn_at - 2, drawn_at - 1):   # the completing play, the TrickTaken
        for viewer in views(players):
            for kind, text, data, url in answers(client, step, viewer):
                for _, card in draws.draws:
                    assert not contains(kind, text, data, start, card), (
                        f"{url}: {card.code}, drawn at step {drawn_at}, shown at step {step}")
                if kind == "json":
                    assert [s["hand_size"] for s in data["table"]["seats"]] == [2] * players
                    on_table = players if step == drawn_at - 2 else 0
                    assert len(data["table"]["table"]) == on_table, url
                    assert data["to_move"] is None, url
    for seat, card in draws.draws:
        for kind, text, data, url in answers(client, drawn_at, seat):
            assert contains(kind, text, data, start, card), f"{url}: {card.code} not shown"


def check_hands(data: Any, dealt: Dealt, url: str) -> None:
    """The JSON's hands and stock are the ones the events gave out by the step."""
    table = data["table"]
    if not table["dealt"]:
        return
    for row, held in zip(table["seats"], dealt.hands, strict=True):
        assert row["hand_size"] == sum(held.values()), url
        if row["hand"] is not None:
            assert Counter(row["hand"]) == Counter(c.code for c in held.elements()), url
    assert table["stock_size"] == len(dealt.stock), url
    if table["stock"] is not None:
        assert table["stock"] == [c.code for c in dealt.stock], url


# Every step of a match, every viewer (the arbiter's JSON too), two or three answers each.
PER_CASE = settings(max_examples=max(2, settings().max_examples // 30))


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
@PER_CASE
@given(data=st.data())
def test_ogni_passo_mostra_solo_le_carte_gia_pescate_in_pagine_e_json(
        data: st.DataObject, game: str, players: int) -> None:
    match = data.draw(live_matches().filter(lambda m: m.game == game and m.players == players))
    visibility = data.draw(st.sampled_from((NONE, VISTE, SCOPERTE, BOTH) if players == 4
                                           else (NONE, VISTE)))
    match = with_visibility(match, visibility)
    replay = replay_from(match)
    app = viewer_app(MemoryReplays({MATCH_ID: replay}))
    client, arbiter = app.test_client(), as_arbiter(app.test_client())
    dealt = dealt_by_events(players, list(replay.events))
    for step in range(1, replay.last + 1):
        start = deal_step(replay, step)
        now = dealt[step]
        stock = [c for c in now.stock if c is not now.briscola] if now.out else []
        in_play = now.out and not ended(replay.events, start, step)
        for viewer in views(players):
            # A seat is shown its own hand, as the events gave it, while the smazzata is played.
            own = (sorted(now.hands[viewer].elements())
                   if isinstance(viewer, int) and in_play else [])
            # One suit style a step, the other the next: both titles of a card are looked for.
            suits = (("italian", "french")[step % 2],)
            for kind, text, answer, url in answers(client, step, viewer, suits):
                check_answer(kind, text, answer, start, stock, set(own), url)
                if kind == "json":
                    check_hands(answer, now, url)
        url = f"/api/matches/{MATCH_ID}/steps/{step}?{view_query(ARBITER)}"
        response = arbiter.get(url)
        assert response.status_code == 200, url
        check_hands(response.get_json(), now, url)


def ended(events: Sequence[object], start: int | None, step: int) -> bool:
    """Whether the smazzata dealt at `start` ended, or the match was forfeit, by `step`."""
    return start is not None and any(isinstance(e, SmazzataEnded | TimeoutRecorded | Abandoned)
                                     for e in events[start:step])
