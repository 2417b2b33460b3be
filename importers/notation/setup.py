"""From a written match's tags to the CreateMatch that opens its record, and its clock.

The tags say the game, the players, the format, the ruleset, the table's visibility options and
the first dealer (docs/notation.md). A record on paper has no clock: its actions are stamped
from the Date tag, one second apart, and its time control is chosen so that the seconds written
on a Timeout or an Abandon are what the clock needed (`time_control`): the shortest written
timeout is the per-move limit, the shortest written absence the abandon limit. Nothing here
judges the match itself: `replay.py` decides every command.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from domain.games import game_named, games
from domain.match_format import MatchFormat, MatchFormatError
from domain.record.catalog import format_options
from domain.record.commands import CreateMatch
from domain.record.events import MatchEnded, Provenance, TableVisibility, TimeControl
from domain.text import Said, said_of, say
from importers.notation.model import Pos, WrittenIncident, WrittenMatch

GAMES = tuple(game.name for game in games()
              if game.transcriber is not None and game.notation is not None)
"""The games a hand record may be of: the registered games that can be written and
transcribed."""
DEFAULT_FORMATS = {game.name: game.default_format for game in games()}
"""The game's default format when the record has no Format tag (as `verbale simulate`)."""
FORMAT_FLAGS = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
                "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp", "cappotto_waits_end")
"""Words that may follow the format in the Format tag (`21pt ko cappotto_ends`)."""
VISIBILITY_FLAGS = ("carte_viste", "carte_scoperte")
UNKNOWN_DATE = datetime(2000, 1, 1, tzinfo=UTC)
DEFAULT_TIMEOUT_S = 60
DEFAULT_ABANDON_S = 300
DEFAULT_ARBITER = "scorer"
_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")
# Each side may be negative, as in the grammar's SCORE (`7--1`); more digits than a score has
# are no score (and int() refuses thousands of them).
_RESULT = re.compile(r"\s*(-?\d{1,18})\s*[-–]\s*(-?\d{1,18})\s*")


def _markers(game: str) -> tuple[tuple[str, str], ...]:
    notation = game_named(game).notation if game in GAMES else None
    return () if notation is None else notation.markers


def rule_of_marker(game: str, marker: str | None) -> str | None:
    """The rule a marker names (`!presa-mancata`: C16), for a play the known cards cannot show
    irregular (the game's NotationParts)."""
    return dict(_markers(game)).get(marker or "")


def marker_of_rule(game: str, rule: str) -> str:
    """The marker of a play that breaks `rule`."""
    markers = {name: marker for marker, name in _markers(game)}
    return markers.get(rule, "presa-sbagliata")


_ACCEPTED = "{message}; a play the table accepted is recorded as an irregularity, noted by " \
    "whoever noted it"


def advice(game: str, rule: str, message: str) -> str:
    """A refused play: the record's advice for an irregularity the table accepted becomes the
    notation's, a marker on the play."""
    if not isinstance(message, Said) or message.template != _ACCEPTED:
        return message
    return say("{message}; if the table accepted it, mark the play !{marker}",
               message=message.params["message"], marker=marker_of_rule(game, rule))


def default_importer() -> str:
    """The importer a transcribed match names by default: this program and its version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"verbale-import {version('verbale')}"
    except PackageNotFoundError:
        return "verbale-import"


class TagError(ValueError):
    """A tag the match cannot be set up from: where, which check, what is wrong."""

    def __init__(self, pos: Pos, check: str, message: Said) -> None:
        super().__init__(message)
        self.pos = pos
        self.check = check
        self.message = message


def _tag(match: WrittenMatch, name: str) -> tuple[str | None, Pos]:
    for tag in match.tags:
        if tag.name == name:
            return tag.value, tag.pos
    return None, match.pos


def create_match(match: WrittenMatch, importer: str, clock: TimeControl) -> CreateMatch:
    """The CreateMatch of the tags; TagError for a tag it cannot read."""
    game, pos = _tag(match, "Game")
    if game not in GAMES:
        raise TagError(pos, "Game", say("game {game!r}: expected one of {games}", game=game,
                                        games=", ".join(GAMES)))
    players = _players(match)
    fmt = _format(match, game)
    return CreateMatch(game=game, ruleset=_ruleset(match, game, fmt), players=players,
                       match_format=format_options(fmt), time_control=clock,
                       first_dealer=_first_dealer(match, len(players)),
                       provenance=Provenance("transcribed", source=match.source or "<text>",
                                             importer=importer),
                       visibility=_visibility(match))


def _players(match: WrittenMatch) -> tuple[str, ...]:
    text, pos = _tag(match, "Players")
    names = tuple(name.strip() for name in (text or "").split(","))
    if text is None or len(names) not in (2, 4) or not all(names):
        raise TagError(pos, "Players", say("Players {players!r}: 2 or 4 names separated by "
                                           "commas", players=text))
    return names


def _format(match: WrittenMatch, game: str) -> MatchFormat:
    text, pos = _tag(match, "Format")
    words = (text or DEFAULT_FORMATS[game]).split()
    flags = [w.replace("-", "_") for w in words[1:]]
    unknown = [f for f in flags if f not in FORMAT_FLAGS]
    if not words or unknown:
        raise TagError(pos, "Format", say("Format {format!r}: a format (21pt, 3smazzate, "
                                          "punti) then flags among {flags}", format=text,
                                          flags=", ".join(FORMAT_FLAGS)))
    try:
        return MatchFormat.parse(words[0], game, **{f: True for f in flags})
    except MatchFormatError as error:
        raise TagError(pos, "Format", said_of(error) or say("{error}", error=str(error))
                       ) from None


def _ruleset(match: WrittenMatch, game: str, fmt: MatchFormat) -> Mapping[str, str]:
    text, pos = _tag(match, "Ruleset")
    notation = game_named(game).notation
    assert notation is not None   # GAMES holds only games written in the notation
    try:
        return notation.ruleset((text or "").split(), fmt)
    except ValueError as error:
        raise TagError(pos, "Ruleset", said_of(error) or say("{error}", error=str(error))
                       ) from None


def _visibility(match: WrittenMatch) -> TableVisibility:
    text, pos = _tag(match, "Visibility")
    flags = (text or "").split()
    unknown = [f for f in flags if f not in VISIBILITY_FLAGS]
    if unknown:
        raise TagError(pos, "Visibility", say("Visibility {flags!r}: flags among {known}",
                                              flags=text, known=", ".join(VISIBILITY_FLAGS)))
    return TableVisibility(carte_viste="carte_viste" in flags,
                           carte_scoperte="carte_scoperte" in flags)


def _first_dealer(match: WrittenMatch, seats: int) -> int:
    text, pos = _tag(match, "FirstDealer")
    if text is None:
        dealer = match.smazzate[0].dealer if match.smazzate else None
        return 0 if dealer is None else dealer
    if not text.strip().isdigit() or not 1 <= int(text) <= seats:
        raise TagError(pos, "FirstDealer", say("FirstDealer {dealer!r}: a seat from 1 to "
                                               "{seats}", dealer=text, seats=seats))
    return int(text) - 1


def start_of(match: WrittenMatch) -> datetime:
    """Midnight UTC of the Date tag (YYYY.MM.DD); an unknown or partial date: 2000-01-01."""
    text, _ = _tag(match, "Date")
    found = _DATE.fullmatch((text or "").strip())
    if found is None:
        return UNKNOWN_DATE
    try:
        year, month, day = (int(part) for part in found.groups())
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return UNKNOWN_DATE


def arbiter_of(match: WrittenMatch) -> str:
    """Who notes the record's irregularities: the Arbiter tag, else the scorer."""
    text, _ = _tag(match, "Arbiter")
    return text.strip() if text and text.strip() else DEFAULT_ARBITER


def result_of(match: WrittenMatch) -> tuple[tuple[int, int] | None, Pos]:
    """The Result tag as (side 1, side 2), None when absent or not `A-B`."""
    text, pos = _tag(match, "Result")
    found = _RESULT.fullmatch(text or "")
    if found is None:
        return None, pos
    return (int(found.group(1)), int(found.group(2))), pos


def result_problems(match: WrittenMatch, result: MatchEnded | None) -> list[tuple[Pos, Said]]:
    """The Result tag against the computed result: the final scores or the points (the MP
    basis) may be written."""
    written = match.tag("Result")
    claimed, pos = result_of(match)
    if written is not None and claimed is None and written.strip() not in ("", "*"):
        return [(pos, say("Result {result!r} is not A-B", result=written))]
    if claimed is None:
        return []
    text = f"{claimed[0]}-{claimed[1]}"
    if result is None:
        return [(pos, say("Result {claimed} cannot be checked: the record ends before the "
                          "match is over", claimed=text))]
    points = (result.settlement.points,) if result.settlement is not None else ()
    if claimed in (result.scores, *points):
        return []
    return [(pos, say("Result {claimed}, but the rules give {computed}", claimed=text,
                      computed=f"{result.scores[0]}-{result.scores[1]}"))]


def incidents(match: WrittenMatch) -> list[WrittenIncident]:
    moves = [m for s in match.smazzate for m in s.moves]
    return [m for m in (*moves, *match.after) if isinstance(m, WrittenIncident)]


def time_control(match: WrittenMatch) -> TimeControl:
    """The clock that makes the written Timeout and Abandon lines justified (see the module)."""
    written = incidents(match)
    timeouts = [i.elapsed_ms for i in written if i.kind == "timeout"]
    absences = [i.elapsed_ms for i in written
                if i.kind == "abandon" and i.reason == "assenza"]
    per_move = _shortest(timeouts, DEFAULT_TIMEOUT_S) if timeouts else None
    return TimeControl(per_move=per_move, bank=None,
                       abandon_after=_shortest(absences, DEFAULT_ABANDON_S))


def _shortest(elapsed: list[int | None], default: int) -> int:
    known = [ms for ms in elapsed if ms is not None]
    return max(1, min(known) // 1000) if known else default


def elapsed_of(incident: WrittenIncident, clock: TimeControl) -> timedelta:
    """How far the clock moves for a Timeout or an Abandon: its written seconds, else the
    limit that justifies it."""
    if incident.elapsed_ms is not None:
        return timedelta(milliseconds=incident.elapsed_ms)
    if incident.kind == "timeout":
        return timedelta(seconds=clock.per_move or DEFAULT_TIMEOUT_S)
    if incident.reason == "assenza":
        return timedelta(seconds=clock.abandon_after)
    return timedelta(seconds=1)   # a withdrawal needs no wait


def tag_pairs(match: WrittenMatch) -> tuple[tuple[str, str], ...]:
    return tuple((tag.name, tag.value) for tag in match.tags)
