"""Issue 11's no-leak property, over HTTP: at every step of random recorded matches (both games,
2 and 4 players, every visibility option), no page nor JSON answer given to a seat or to the
public holds a card hidden from it; and permuting the cards hidden from a viewer leaves that
viewer's answers byte-identical (the arbiter's change).

The matches are tests/domain/record/live.py's random live matches, each served at a table with
the visibility options of the case (they decide what is seen, never a move); the hidden cards
are the domain's (tests/domain/test_observation.py `hidden_from`, tests/.../leak_tools.py).
test_no_leak_fairness.py extends the property to /fairness and every combination of its
filters: no figure over fewer deals than the minimum population, no unseen card."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.record.events import TableVisibility
from domain.viewing import PUBLIC, Viewer
from replay_web.web.records import Replay
from tests.domain.record.live import LiveMatch, live_matches
from tests.domain.test_observation import with_hidden_swapped
from tests.replay_web.web.conftest import as_arbiter
from tests.replay_web.web.leak_tools import (
    MATCH_ID,
    MemoryReplays,
    check_answer,
    deal_step,
    hidden_at,
    replay_from,
    urls,
    view_query,
    viewer_app,
    views,
    visible_at,
    with_visibility,
)

NONE, VISTE = TableVisibility(False, False), TableVisibility(True, False)
SCOPERTE, BOTH = TableVisibility(False, True), TableVisibility(True, True)
CASES = [(game, players, visibility) for game in ("cirulla", "briscola")
         for players, options in ((2, (NONE, VISTE)), (4, (NONE, VISTE, SCOPERTE, BOTH)))
         for visibility in options]
COVERED: Counter[str] = Counter()
"""What the runs covered (printed at the end of a `-s` run)."""


def _case_id(case: tuple[str, int, TableVisibility]) -> str:
    game, players, v = case
    options = [name for name, on in (("viste", v.carte_viste), ("scoperte", v.carte_scoperte))
               if on]
    return f"{game}-{players}p-{'+'.join(options) or 'none'}"


def matches_of(game: str, players: int) -> st.SearchStrategy[LiveMatch]:
    return live_matches().filter(lambda m: m.game == game and m.players == players)


# Every step of a match, every viewer, two answers each (the page in one suit style, the JSON):
# a few matches per case.
PER_CASE = settings(max_examples=max(2, settings().max_examples // 30))


@pytest.mark.parametrize(("game", "players", "visibility"), CASES,
                         ids=[_case_id(c) for c in CASES])
@PER_CASE
@given(data=st.data())
def test_nessuna_carta_nascosta_in_pagine_e_json(data: st.DataObject, game: str, players: int,
                                                 visibility: TableVisibility) -> None:
    match = with_visibility(data.draw(matches_of(game, players)), visibility)
    replay = replay_from(match)
    client = viewer_app(MemoryReplays({MATCH_ID: replay})).test_client()
    for step in range(1, replay.last + 1):
        start = deal_step(replay, step)
        for viewer in views(players):
            hidden = hidden_at(replay.line, start, step, viewer)
            shown = visible_at(replay.line, step, viewer)
            assert not shown & set(hidden)
            # Each step's page in one suit style, the next step's in the other: both titles
            # of every card are looked for either way.
            for kind, url in urls(step, viewer, (("italian", "french")[step % 2],)):
                response = client.get(url)
                assert response.status_code == 200, url
                check_answer(kind, response.get_data(as_text=True), response.get_json(silent=True),
                             start, hidden, shown, url)
                COVERED["requests"] += 1
            COVERED["hidden cards checked"] += len(hidden)
            COVERED["views"] += 1
        COVERED["steps"] += 1
    COVERED["matches"] += 1
    COVERED[_case_id((game, players, visibility))] += 1


# One step of each match from its first deal on (dealt or between smazzate), every viewer's page
# in both suit styles, its JSON, the embedded page: a few requests per example.
SWAPS = settings(max_examples=max(10, settings().max_examples // 3))


@SWAPS
@given(data=st.data(), match=live_matches(),
       visibility=st.sampled_from((NONE, VISTE, SCOPERTE, BOTH)))
def test_le_carte_nascoste_non_cambiano_la_risposta(data: st.DataObject, match: LiveMatch,
                                                    visibility: TableVisibility) -> None:
    if match.players == 2 and visibility.carte_scoperte:
        visibility = TableVisibility(visibility.carte_viste, False)
    match = with_visibility(match, visibility)
    whole = replay_from(match)
    dealt = [v for v in range(1, whole.last + 1) if deal_step(whole, v) is not None]
    step = data.draw(st.sampled_from(dealt))
    original = replay_from(match, step)
    replays = MemoryReplays()
    app = viewer_app(replays)
    client, arbiter = app.test_client(), as_arbiter(app.test_client())
    for viewer in views(match.players):
        hidden = hidden_at(original.line, deal_step(original, step), step, viewer)
        permuted = data.draw(st.permutations(hidden))
        swapped = replay_from(match, recorded=with_hidden_swapped(
            match, step, dict(zip(hidden, permuted, strict=True))))
        assert swapped.last == original.last == step
        pairs = [(answers(client, replays, r, step, viewer), arbiter_json(arbiter, step))
                 for r in (original, swapped)]
        assert pairs[0][0] == pairs[1][0], (f"step {step}, {view_query(viewer)}: "
                                            f"{first_difference(pairs[0][0], pairs[1][0])}")
        if hidden != permuted:
            assert pairs[0][1] != pairs[1][1], "the arbiter sees the cards swapped"
        COVERED["swaps"] += 1
        COVERED["swapped cards moved"] += sum(a != b for a, b in zip(hidden, permuted,
                                                                      strict=True))


def first_difference(one: list[bytes], other: list[bytes]) -> str:
    """Where two lists of answers first differ, with some context."""
    for n, (a, b) in enumerate(zip(one, other, strict=True)):
        if a != b:
            at = next(i for i in range(min(len(a), len(b)) + 1) if a[i:i + 1] != b[i:i + 1])
            return f"answer {n} differs at {at}: {a[at - 150:at + 80]!r} / {b[at - 150:at + 80]!r}"
    return "same"


def arbiter_json(client: FlaskClient, step: int) -> object:
    """The arbiter's JSON of the replay last put in the app (its page holds a CSRF token),
    less the head of the record (which differs whenever the record does)."""
    response = client.get(f"/api/matches/{MATCH_ID}/steps/{step}?view=arbiter")
    assert response.status_code == 200
    data = response.get_json()
    del data["arbiter"]["head"]
    return data


def answers(client: FlaskClient, replays: MemoryReplays, replay: Replay, step: int,
            viewer: Viewer) -> list[bytes]:
    """Every answer `viewer` gets at `step` of `replay`, as bytes."""
    replays.held[MATCH_ID] = replay
    found = []
    for _, url in urls(step, viewer):
        response = client.get(url)
        assert response.status_code == 200, url
        found.append(response.get_data())
    if viewer is PUBLIC:
        response = client.get(f"/embed/matches/{MATCH_ID}?step={step}")
        assert response.status_code == 200
        found.insert(0, response.get_data())
    return found


@pytest.fixture(scope="module", autouse=True)
def coverage_report() -> Iterator[None]:
    """Prints what the properties covered in this run (seen with `pytest -s`)."""
    yield
    print("\nno-leak coverage:", dict(COVERED))
