"""The JSON mirror of the pages (docs/api.md; described by /api/openapi.json).

The same data as the HTML, from the same functions: a step is `step_data` (replay_web/web/step.py)
under the same access rules, so the JSON can show no more than the page. The list and a match's
summary come from the read models (projections/read_models), as the list page's do.

Seats, sides and smazzate are numbered from 1 here, as in the step data (the read models count
them from 0). What only an ended match has (its result, MP, VP, the verify verdict) is null
while the match is in progress: the summary of a match being played tells no more than the
public view of its last step.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, jsonify
from flask.typing import ResponseReturnValue

from projections.read_models.queries import MatchRow
from projections.read_models.scores import MatchScores, Ruling, SmazzataScore, match_scores
from replay_web.web.app import services
from replay_web.web.matches import folded, listed, load_replay, step_request
from replay_web.web.step import JSON, match_header, step_data

blueprint = Blueprint("api", __name__, url_prefix="/api")

OPENAPI_FILE = Path(__file__).parent / "static" / "openapi.json"
"""The API's contract, kept by hand beside the code it describes (tests check the two agree)."""


@blueprint.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    return Response(_openapi_text(), mimetype="application/json")


@cache
def _openapi_text() -> str:
    return OPENAPI_FILE.read_text(encoding="utf-8")


def openapi_document() -> JSON:
    """The OpenAPI document as data (for tests and tools)."""
    found: JSON = json.loads(_openapi_text())
    return found


@blueprint.get("/matches")
def matches() -> ResponseReturnValue:
    """A page of the match list: the filters and their 400s are the list page's."""
    _, page = listed()
    return jsonify(matches=[row_data(row) for row in page.rows], total=page.total,
                   exact=page.exact, stored=page.stored, page=page.page, pages=page.pages,
                   size=page.size)


@blueprint.get("/matches/<match_text>")
def summary(match_text: str) -> ResponseReturnValue:
    """A match: its header, how many steps, its state; its scores from the read models."""
    replay = load_replay(match_text)
    ended = replay.line.state(replay.last).result is not None
    engine = services().engine
    scores = None if engine is None else match_scores(engine, str(replay.match_id))
    data: JSON = {"match": match_header(replay.created, replay), "steps": replay.last,
                  "state": "ended" if ended else "in-progress"}
    data.update(scores_data(scores, ended))
    return jsonify(data)


@blueprint.get("/matches/<match_text>/steps/<step_text>")
def step(match_text: str, step_text: str) -> ResponseReturnValue:
    """A step as the `view` of the query string saw it (`step_text`: a number or `last`)."""
    head, view, step = step_request(match_text, step_text)
    key = ("json", head, step, view.text)
    found = services().answers.get(key)
    if found is None:
        found = json.dumps(step_data(folded(head), step, view), ensure_ascii=False,
                           separators=(",", ":")).encode()
        services().answers.put(key, found)
    return Response(found, mimetype="application/json")


def row_data(row: MatchRow) -> JSON:
    """A row of the list; a match in progress shows no result."""
    ended = row.state == "ended"
    return {
        "id": row.stream, "prefix": row.prefix, "created": row.created, "game": row.game,
        "tournament": row.tournament, "tournament_name": row.tournament_name,
        "round": row.round, "table": row.table, "players": list(row.players),
        "sides": [side + 1 for side in row.sides], "format": row.match_format,
        "flags": list(row.flags), "provenance": row.provenance, "state": row.state,
        "ruled": row.ruled, "smazzate": row.smazzate, "spareggi": row.spareggi,
        "rulings": row.rulings, "irregularities": row.irregularities,
        **_outcome(row, ended),
    }


def _outcome(row: MatchRow, ended: bool) -> JSON:
    """What an ended match settled, and verify's verdict on it: all null in progress."""
    if not ended:
        return dict.fromkeys(("how", "scores", "unit", "winner", "mp", "vp", "mp_per_side",
                              "verdict", "findings"))
    return {"how": row.how, "scores": _pair(row.scores), "unit": row.unit,
            "winner": None if row.winner is None else row.winner + 1, "mp": row.mp,
            "vp": _pair(row.vp), "mp_per_side": _pair(row.mp_per_side),
            "verdict": row.verdict, "findings": row.findings}


def _pair(pair: tuple[int, int] | None) -> list[int] | None:
    return None if pair is None else list(pair)


def scores_data(scores: MatchScores | None, ended: bool) -> JSON:
    """The summary's part from the read models: the row, the ended smazzate (public once
    ended), the rulings (public events) and, once the match ended, the totals it settled."""
    if scores is None:
        return {"row": None, "smazzate": [], "rulings": [], "settled": None}
    settled = None
    if ended and scores.match.state == "ended":
        settled = {"totals": list(scores.totals), "adjustment": list(scores.adjustment),
                   "penalty": list(scores.penalty), "kept": _pair(scores.kept),
                   "vp_table": scores.vp_table}
    return {"row": row_data(scores.match) if ended else _in_progress_row(scores.match),
            "smazzate": [smazzata_data(s) for s in scores.smazzate],
            "rulings": [ruling_data(r) for r in scores.rulings], "settled": settled}


def _in_progress_row(row: MatchRow) -> JSON:
    data = row_data(row)
    data.update(_outcome(row, False))
    data["state"] = "in-progress"
    return data


def smazzata_data(score: SmazzataScore) -> JSON:
    return {
        "number": score.number + 1,
        "dealer": None if score.dealer is None else score.dealer + 1,
        "points": list(score.points), "counted": list(score.counted),
        "breakdown": [{"category": c, "points": [a, b]} for c, a, b in score.breakdown],
        "accusi": [{"seat": seat + 1, "kind": kind, "points": points}
                   for seat, kind, points in score.accusi],
        "cappotto": None if score.cappotto is None else score.cappotto + 1,
        "spareggio": score.spareggio, "annulled": score.annulled,
        "running": list(score.running), "won": list(score.won),
    }


def ruling_data(ruling: Ruling) -> JSON:
    """A ruling as the timeline shows it: `step` is the ruling's own step."""
    return {"step": ruling.version, "arbiter": ruling.arbiter, "ruling": ruling.kind,
            "smazzata": None if ruling.smazzata is None else ruling.smazzata + 1,
            "adjustment": list(ruling.adjustment), "reason": ruling.reason,
            "recorded": ruling.recorded}
