"""The verbale: the whole record of a match on paper, for the arbiter to sign.

`/matches/<id>/verbale` is a print page (A4, static/verbale.css); `/matches/<id>/verbale.pdf`
is the same HTML through WeasyPrint. It holds every hand and every seed, so only a logged-in
arbiter sees it. Everything on it comes from the record (the Replay and its timeline), the read
models (the event's name, the verdict, VP) and the audit of the record; no SQL here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from uuid import UUID

from flask import Blueprint, Response, abort, current_app, g, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.security import safe_join

from domain.cards import Suit
from domain.events import SmazzataDealt
from replay_web.web.app import services
from replay_web.web.events_text import describe
from replay_web.web.findings import record_findings
from replay_web.web.guard import logged_arbiter, parse_match_id
from replay_web.web.records import Replay
from replay_web.web.step import JSON, match_header, result_data, smazzate_data

blueprint = Blueprint("verbale", __name__)

SYMBOLS = {suit.value: suit.symbol for suit in Suit}
MATCH_KINDS = frozenset({"created", "match_seed_revealed", "ruling", "end"})
"""Entries of the match as a whole, not of the smazzata being played when recorded."""
NOTED_KINDS = frozenset({"irregularity", "timeout", "abandon"})


@blueprint.get("/matches/<match_text>/verbale")
def verbale(match_text: str) -> ResponseReturnValue:
    return _render(_arbiters_replay(match_text))


@blueprint.get("/matches/<match_text>/verbale.pdf")
def verbale_pdf(match_text: str) -> ResponseReturnValue:
    replay = _arbiters_replay(match_text)
    return pdf_response(_render(replay, pdf=True), f"verbale-{str(replay.match_id)[:8]}.pdf")


def pdf_response(html: str, filename: str) -> ResponseReturnValue:
    """A printable page as an A4 PDF (WeasyPrint), or the page saying why there is none."""
    try:
        import weasyprint
    except (ImportError, OSError) as missing:   # OSError: pango or cairo not installed
        return no_pdf(str(missing))
    document = weasyprint.HTML(string=html, base_url=request.url_root,
                               url_fetcher=static_fetcher(weasyprint))
    response = Response(document.write_pdf(), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _arbiters_replay(match_text: str) -> Replay:
    """The match, for a logged-in arbiter only (403 before anything is looked up)."""
    g.private = True
    if logged_arbiter() is None:
        abort(403)
    replay = services().replays.replay(parse_match_id(match_text))
    if replay is None:
        abort(404)
    return replay


def _render(replay: Replay, pdf: bool = False) -> str:
    return render_template("verbale.html", pdf=pdf, arbiter=logged_arbiter(),
                           symbols=SYMBOLS, **verbale_data(replay))


def no_pdf(reason: str) -> ResponseReturnValue:
    current_app.logger.error("verbale PDF unavailable: %s", reason)
    detail = gettext("The PDF cannot be made on this server: WeasyPrint or the libraries it "
                     "needs (Pango) are not installed. The printable page still works: print "
                     "it from the browser.")
    return render_template("error.html", code=503, title=gettext("PDF unavailable"),
                           detail=detail), 503


def verbale_data(replay: Replay) -> JSON:
    """Everything the verbale shows, from the record, the read models and the audit."""
    state = replay.line.state(replay.last)
    sections, match_entries = smazzate(replay)
    ended = {s["number"]: s for s in smazzate_data(state)}
    for section in sections:
        section["score"] = ended.get(section["number"])
    return {
        "match": match_header(replay.created, replay),
        "created": replay.created,
        "side_players": [[name for name, s in zip(replay.created.players, replay.created.sides,
                                                 strict=True) if s == side] for side in (0, 1)],
        "row": _row(replay.match_id),
        "started": replay.moments[0],
        "finished": replay.moments[-1],
        "sections": sections,
        "match_entries": match_entries,
        "noted": [e for s in sections for e in s["entries"] if e["kind"] in NOTED_KINDS],
        "rulings": [e for e in match_entries if e["kind"] == "ruling"],
        "result": result_data(state),
        "findings": record_findings(replay),
        "head": replay.head,
        "events": len(replay.events),
    }


def _row(match_id: UUID) -> Any:
    """The read models' row of the match (event name, verdict, VP); None without them."""
    engine = services().engine
    if engine is None:
        return None
    from projections.read_models.scores import match_scores
    found = match_scores(engine, str(match_id))
    return None if found is None else found.match


def smazzate(replay: Replay) -> tuple[list[JSON], list[JSON]]:
    """The record's entries in the order recorded, grouped by smazzata (a play, a draw, an
    irregularity belong to the smazzata being played); and the entries of the whole match."""
    sections: dict[int, JSON] = {}
    current: JSON | None = None
    whole: list[JSON] = []
    for version, event in enumerate(replay.events, start=1):
        entry = describe(event, version, True)
        number = getattr(event, "number", getattr(event, "smazzata", None))
        if entry["kind"] in MATCH_KINDS:
            whole.append(entry)
            continue
        section = current if number is None else sections.setdefault(
            number, _section(number + 1))   # the domain counts from 0, people from 1
        if section is None:   # nothing dealt yet: of the match as a whole
            whole.append(entry)
            continue
        if isinstance(event, SmazzataDealt):
            current = section
            entry["commitment"] = event.seed_commitment
        _place(section, entry)
    return [sections[n] for n in sorted(sections)], whole


def _section(number: int) -> JSON:
    return {"number": number, "deals": [], "redeals": [], "commitments": [], "seeds": [],
            "contributions": [], "entries": [], "end": None, "score": None}


_PLACES = {"deal": "deals", "redeal": "redeals", "seed_committed": "commitments",
           "seed_revealed": "seeds", "seed_contributed": "contributions"}


def _place(section: JSON, entry: JSON) -> None:
    kind = entry["kind"]
    if kind == "smazzata_end":
        section["end"] = entry
    elif kind in _PLACES:
        section[_PLACES[kind]].append(entry)
    else:
        section["entries"].append(entry)


def static_fetcher(weasyprint: Any) -> Any:
    """A URL fetcher that serves this app's own static files from disk and refuses any other
    URL: the PDF is made without a request over the network."""
    root, base = current_app.static_folder, request.url_root.rstrip("/")
    prefix = f"{base}{current_app.static_url_path}/"

    def read(url: str) -> tuple[bytes, str]:
        path = unquote(urlsplit(url).path) if url.startswith(prefix) else None
        name = path[len(urlsplit(prefix).path):] if path else None
        found = safe_join(root, name) if root and name else None
        if found is None or not Path(found).is_file():
            raise ValueError(f"verbale PDF: refused to fetch {url}")
        kind = "text/css" if found.endswith(".css") else "application/octet-stream"
        return Path(found).read_bytes(), kind

    return _fetcher_for(weasyprint, read)


def _fetcher_for(weasyprint: Any, read: Callable[[str], tuple[bytes, str]]) -> Any:
    """`read` in the form this WeasyPrint wants: a URLFetcher object (since 67) or a
    function answering a dict (before)."""
    urls = weasyprint.urls
    if not hasattr(urls, "URLFetcherResponse"):
        def fetch_dict(url: str) -> dict[str, Any]:
            body, kind = read(url)
            return {"string": body, "mime_type": kind, "redirected_url": url}
        return fetch_dict

    base: Any = urls.URLFetcher

    class StaticOnly(base):   # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            body, kind = read(url)
            return urls.URLFetcherResponse(url, body, {"Content-Type": kind})

    return StaticOnly()
