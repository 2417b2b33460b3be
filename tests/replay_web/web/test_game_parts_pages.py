"""The viewer asks the game (its Game's `captures`) whether a play takes cards from the table:
the verbale's Capture column and the step's scope row are there for Cirulla, not for Briscola."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from domain.games import game_named
from tests.replay_web.demo import Demo
from tests.replay_web.web.conftest import as_arbiter

CAPTURE_HEADER = re.compile(r"<th>#</th><th>Seat</th><th>Card</th><th>(.*?)</th>")
SCOPE_ROW = '<tr><th><abbr class="term" title="sweeps">scope</abbr></th><td>'


def _one_of_each_game(demo: Demo) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for stream in demo.matches():
        chosen.setdefault(demo.created(stream).game, stream)
    return chosen


def test_the_capture_column_and_the_scope_row_are_the_game_s(client: FlaskClient,
                                                              web_demo: Demo) -> None:
    as_arbiter(client)
    chosen = _one_of_each_game(web_demo)
    assert {"cirulla", "briscola"} <= set(chosen)
    for game, stream in chosen.items():
        captures = game_named(game).captures
        verbale = client.get(f"/matches/{stream}/verbale?lang=en").get_data(as_text=True)
        headers = CAPTURE_HEADER.findall(verbale)
        assert headers and set(headers) == {"Capture" if captures else ""}, game
        step = client.get(f"/matches/{stream}?step=2&lang=en").get_data(as_text=True)
        assert (SCOPE_ROW in step) is captures, game
    assert game_named("cirulla").captures and not game_named("briscola").captures
