"""Read hand records in the verbale notation (docs/notation.md) into `WrittenMatch`es.

The grammar (grammar.lark) is parsed by lark's LALR parser with the contextual lexer, built once
at import, with the transformer of reader_build.py embedded so that no parse tree is built; a
line of plays is one token whose plays are read by one regex each (speed). reader_check.py then
checks each match against its tags and assembles it. Only `NotationError` leaves `read` and
`read_bytes`, whatever the input.

Strict (the default): the first error is raised. Bytes that are not UTF-8 and control characters
come first; then the first syntax error; then the first error found by the checks of each match
(tags, smazzata numbers, seats, markers, claimed categories, order of the lines), in the order of
the text.

Lenient: every error is collected. When the text does not parse, each match (from a line
starting with `[Game`) is parsed on its own; a syntax error blanks its line (the line is replaced
by spaces, so every other position stays true) and the match is parsed again. Undecodable bytes
and control characters blank their lines the same way. A match with any error on one of its
lines (from its first tag to the line before the next match) is left out of `Parsed.matches`, so
that what is returned was read in full; its errors are all in `Parsed.errors`, sorted by line
and column. A blanked line can cause further errors of its own (a blanked `Smazzata 2` line makes
`Smazzata 3` out of order): they are reported too, at their true positions.

An empty text (or only comments) has no match and no error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TextIO

from lark import Lark, Token
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from domain.cards import CardParseError
from domain.text import excerpt, say
from importers.notation import reader_build
from importers.notation.collector import collector_paused
from importers.notation.errors import NotationError
from importers.notation.exact import exact
from importers.notation.model import WrittenMatch
from importers.notation.reader_build import Problem, RawMatch, ToRaw, or_list
from importers.notation.reader_check import build_match
from importers.notation.reader_fast import LineReader

_PARSER = Lark(Path(__file__).with_name("grammar.lark").read_text(encoding="utf-8"),
               parser="lalr", lexer="contextual", transformer=ToRaw(),
               maybe_placeholders=False)
reader_build.PLAY_RE = reader_build.play_regex(_PARSER.get_terminal("CARD").pattern.to_regexp())
_FAST = LineReader(_PARSER)  # the fast route for well-formed text (reader_fast.py)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
_CONTROL_OR_CR = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\r]")   # _CONTROL's, any CR
_CONTROL_EXPECTED = say("text without control characters (only tab, CR and LF)")
_UTF8 = say("UTF-8 text")
BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Parsed:
    """The matches read in full, and the errors (empty when strict, or when all went well)."""

    matches: tuple[WrittenMatch, ...]
    errors: tuple[NotationError, ...]


def read(text: str | TextIO, source: str = "<text>", lenient: bool = False) -> Parsed:
    """Read every match of a text (or an open text file)."""
    if not isinstance(text, str):
        try:
            text = text.read()
        except UnicodeDecodeError as error:  # the file object decoded it: no position known
            raise NotationError(source, 1, 1, _byte(error.object, error.start),
                                _UTF8) from None
    return _read(text, source, lenient, [])


def read_bytes(data: bytes, source: str = "<bytes>", lenient: bool = False) -> Parsed:
    """Read every match of UTF-8 bytes (a BOM is skipped)."""
    try:
        whole = data.decode("utf-8")
    except UnicodeDecodeError:
        whole = None  # line by line below, to tell where
    if whole is not None:
        return _read(whole, source, lenient, [])
    problems: list[Problem] = []
    lines = data.split(b"\n")
    decoded: list[str] = []
    for number_, raw in enumerate(lines, start=1):
        try:
            decoded.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            problems.extend(_undecodable(raw, number_))
            decoded.append("")
            if not lenient:
                break
    text = "\n".join(decoded)
    if problems and not lenient:
        raise _error(source, problems[0])
    return _read(text, source, lenient, problems)


def _undecodable(raw: bytes, line: int) -> list[Problem]:
    """One problem per undecodable byte sequence of a line, at its (character) column."""
    problems: list[Problem] = []
    offset = 3 if line == 1 and raw.startswith(b"\xef\xbb\xbf") else 0
    while True:
        try:
            raw[offset:].decode("utf-8")
            return problems
        except UnicodeDecodeError as error:
            start = offset + error.start
            head = raw[3 if line == 1 and raw.startswith(b"\xef\xbb\xbf") else 0:start]
            column = len(head.decode("utf-8", errors="replace")) + 1
            problems.append(Problem(line, column, _byte(raw, start), _UTF8))
            offset += error.end


def _byte(data: bytes, index: int) -> str:
    if index < len(data):
        return say("byte {byte}", byte=f"0x{data[index]:02X}")
    return say("an incomplete character")


def _read(text: str, source: str, lenient: bool, problems: list[Problem]) -> Parsed:
    try:
        return _read_checked(text, source, lenient, problems)
    except (LarkError, CardParseError, RecursionError) as error:  # a bug of ours: still an error
        raise NotationError(source, 1, 1, excerpt(text), say("a record the reader can read"),
                            ) from error


def _read_checked(text: str, source: str, lenient: bool, problems: list[Problem]) -> Parsed:
    with collector_paused():
        return _read_unpaused(text, source, lenient, problems)


def _read_unpaused(text: str, source: str, lenient: bool, problems: list[Problem]) -> Parsed:
    if text.startswith(BOM):
        text = text[1:]
    text = _blank_controls(text, problems, lenient, source)
    raws = _parse(text + "\n", problems, lenient, source)
    matches = []
    for index, raw in enumerate(raws):
        first = len(problems)
        built = build_match(raw, problems, source)
        if not lenient and len(problems) > first:
            raise _error(source, min(problems[first:], key=lambda p: (p.line, p.column)))
        last = raws[index + 1].tags[0].pos.line - 1 if index + 1 < len(raws) else None
        start = raw.tags[0].pos.line
        if built is not None and not any(start <= p.line and (last is None or p.line <= last)
                                         for p in problems):
            matches.append(built)
    errors = sorted(problems, key=lambda p: (p.line, p.column))
    return Parsed(tuple(matches), tuple(_error(source, p) for p in errors))


def _error(source: str, problem: Problem) -> NotationError:
    return NotationError(source, problem.line, problem.column, problem.found, problem.expected)


def _blank_controls(text: str, problems: list[Problem], lenient: bool, source: str) -> str:
    """Control characters other than tab, CR and LF: errors, and their lines blanked."""
    if _CONTROL_OR_CR.search(text) is None:   # one character class: a third of the time
        return text
    found = list(_CONTROL.finditer(text))
    if not found:
        return text
    lines: set[int] = set()
    for match in found:
        line = text.count("\n", 0, match.start()) + 1
        column = match.start() - text.rfind("\n", 0, match.start())
        code = f"U+{ord(match.group()[0]):04X}"
        problem = Problem(line, column, say("character {code}", code=code), _CONTROL_EXPECTED)
        if not lenient:
            raise _error(source, problem)
        problems.append(problem)
        lines.add(line)
    return _blank_lines(text, lines)


def _blank_lines(text: str, lines: set[int]) -> str:
    rows = text.split("\n")
    for line in lines:
        rows[line - 1] = " " * len(rows[line - 1])
    return "\n".join(rows)


def _parse(text: str, problems: list[Problem], lenient: bool, source: str) -> list[RawMatch]:
    """Parse the whole text (line by line when it can: reader_fast.py, which gives up at the
    first thing it is not sure of; never with VERBALE_EXACT=1, exact.py); when lenient and it
    fails, parse each match on its own."""
    fast = None if exact() else _FAST.read(text)
    if fast is not None:
        return fast
    try:
        raws: list[RawMatch] = _PARSER.parse(text)  # type: ignore[assignment]
        return raws
    except UnexpectedInput as error:
        first = _syntax_problem(error, text)
        if not lenient:
            raise _error(source, first) from None
    # Each match apart, so that a line blanked after an error costs a parse of its match only;
    # the lines before a match are kept as empty lines, so that positions stay true.
    starts = [0] + [m.start() for m in _MATCH_START.finditer(text) if m.start()] + [len(text)]
    raws, before = [], len(problems)
    for start, end in pairwise(starts):
        raws.extend(_parse_blanking("\n" * text.count("\n", 0, start) + text[start:end],
                                    problems))
    # The strict reader's error is always among the lenient ones: cutting the text at a
    # "[Game" inside a comment in braces that spans lines can move where the errors are found.
    if all((p.line, p.column) != (first.line, first.column) for p in problems[before:]):
        problems.insert(before, first)
    return raws


_MATCH_START = re.compile(r"^[ \t]*\[[ \t]*Game\b", re.MULTILINE)


def _parse_blanking(text: str, problems: list[Problem]) -> list[RawMatch]:
    """Parse, blanking each line with a syntax error and parsing again."""
    for _ in range(text.count("\n") + 1):
        try:
            raws: list[RawMatch] = _PARSER.parse(text)  # type: ignore[assignment]
            return raws
        except UnexpectedInput as error:
            problem = _syntax_problem(error, text)
            problems.append(problem)
            line = _line_to_blank(text, problem.line)
            if line is None:
                return []
            text = _stand_in(text, line)
    return []


_DEAL_LINE = re.compile(r"[ \t]*(?P<word>table|tavola|briscola)(?![\w-])", re.IGNORECASE)
_STAND_INS = {"table": "Table ?? ?? ?? ??", "tavola": "Table ?? ?? ?? ??",
              "briscola": "Briscola ??"}


def _stand_in(text: str, line: int) -> str:
    """The text with `line` blanked; a deal line (Table, Briscola) is replaced by one of unknown
    cards instead, so that its smazzata keeps its shape and the one error is the only one.
    Only that line changes, so every other position stays true."""
    rows = text.split("\n")
    deal = _DEAL_LINE.match(rows[line - 1])
    rows[line - 1] = (_STAND_INS[deal["word"].lower()] if deal
                      else " " * len(rows[line - 1]))
    return "\n".join(rows)


def _line_to_blank(text: str, line: int) -> int | None:
    """The error's line, or the last line with text when that one is blank already."""
    rows = text.split("\n")
    candidates = [line] + list(range(len(rows), 0, -1))
    return next((n for n in candidates if n <= len(rows) and rows[n - 1].strip()), None)


def _syntax_problem(error: UnexpectedInput, text: str) -> Problem:
    if isinstance(error, UnexpectedCharacters):
        at = error.pos_in_stream or 0
        word = re.match(r"\S{1,41}", text[at:])
        found = excerpt(word.group()) if word else repr(text[at])
        expected = _UNCLOSED.get(text[at]) or expected_words(
            error.allowed, _first_word(text, error.line))
        if "PLAYS_LINE" in error.allowed and _PLAY_START.match(text, at):
            return _play_problem(text, at, error.line, error.column)
        return Problem(error.line, error.column, found, expected)
    assert isinstance(error, UnexpectedToken)
    token: Token = error.token
    if token.type == "$END":
        line = text.count("\n", 0, len(text.rstrip())) + 1
        return Problem(line, len(text.rstrip().rsplit("\n", 1)[-1]) + 1, _TEXT_END,
                       expected_words(error.expected, ""))
    at = token.start_pos or 0
    if "PLAYS_LINE" in error.expected and _PLAY_START.match(text, at):
        return _play_problem(text, at, token.line or 1, token.column or 1)
    found = _LINE_END_WORDS if token.type == "_NL" else excerpt(str(token))
    return Problem(token.line or 1, token.column or 1, found,
                   expected_words(error.expected, _first_word(text, token.line or 1)))


_PLAY_START = re.compile(r"[0-9]+[.:]|\?\?|[1-7ajqkfcr]\S", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"[0-9]+\.")
_GAP = re.compile(r"(?:[ \t]|\{[^}]*\})*")
_LINE_END = re.compile(r"[ \t]*(?:;[^\n]*)?\r?(?:\n|$)")
_PLAY_EXPECTED = say("a play such as 7d, 2: 7d, 7c x 3c+4b =5 # or 7d !fuori-turno")
_LINE_END_WORDS = say("the end of the line")
_TEXT_END = say("the end of the text")
_AFTER_PLAY = {"x": say("a card such as 7d or ?? after x"),
               "+": say("a card such as 7d or ?? after +"),
               "=": say("the matta's value such as =5"),
               "!": say("a marker such as !fuori-turno"),
               ":": say("a card such as 7d or ?? after the seat")}


def _play_problem(text: str, at: int, line: int, column: int) -> Problem:
    """Where a line of plays stops being one: the first thing that is not a play."""
    move = _MOVE_NUMBER.match(text, at)
    index = move.end() if move else at
    while True:
        index = _GAP.match(text, index).end()  # type: ignore[union-attr]
        if _LINE_END.match(text, index) and text[index:index + 1] in ("", "\n", "\r", ";"):
            break
        play = reader_build.PLAY_RE.match(text, index)
        if play is None:
            break
        index = play.end()
        if not _GAP.match(text, index).end() and not _LINE_END.match(text, index):  # type: ignore[union-attr]
            break
    word = re.match(r"\S{1,41}", text[index:])
    found = excerpt(word.group()) if word else _LINE_END_WORDS
    expected = or_list([_PLAY_EXPECTED, _LINE_END_WORDS])
    symbol = re.match(r"[ \t]*([x+=!:])", text[index:])
    if symbol and index > at:
        expected = _AFTER_PLAY[symbol.group(1)]
        index = index + symbol.end()
        index = _GAP.match(text, index).end()  # type: ignore[union-attr]
        word = re.match(r"\S{1,41}", text[index:])
        found = excerpt(word.group()) if word else _LINE_END_WORDS
    if "\n" in text[at:index]:  # a comment over several lines came before
        return Problem(line + text.count("\n", at, index), index - text.rfind("\n", 0, index),
                       found, expected)
    return Problem(line, column + index - at, found, expected)


def _first_word(text: str, line: int) -> str:
    rows = text.split("\n", line)
    words = rows[line - 1].split() if line <= len(rows) else []
    return words[0].lower() if words else ""


# ---- lark's expected terminals in words ------------------------------------------------------

_UNCLOSED = {"{": say("a comment closed by }}"),
             '"': say('a quoted text closed by " on the same line (escapes: \\" and \\\\)')}
_KEYWORDS = {"SMAZZATA": "Smazzata", "DEALER": "Dealer", "SEED": "Seed", "TABLE": "Table",
             "BRISCOLA": "Briscola", "HAND": "Hand", "STOCK": "Stock", "ACCUSO": "Accuso",
             "CLAIMED": "Claimed", "TIMEOUT": "Timeout", "ABANDON": "Abandon",
             "RULING": "Ruling", "END": "End", "MATTA": "matta", "ADJUST": "adjust",
             "REFERS": "refers"}
_WORDS: dict[str, str] = {
    "TAG_OPEN": say('a tag such as [Game "cirulla"]'),
    "TAG_NAME": say("a tag name such as Game"),
    "STRING": say('a quoted text such as "Anna"'), "RSQB": "]",
    "PLAYS_LINE": say("a play such as 7d"), "CARD": say("a card such as 7d or ??"),
    "HEX": say("a hexadecimal seed"), "NAME": say("a word such as cirulla or scope"),
    "EVENT_TYPE": say("an event type such as CardPlayed"),
    "SCORE": say("a score such as 3-1"), "SECONDS": say("a time such as 12.5s"),
    "_NL": _LINE_END_WORDS, "$END": _TEXT_END}
_SEAT_LINES = ("dealer", "mazziere", "hand", "mano", "accuso", "timeout", "abandon",
               "abbandono")


def expected_words(terminals: set[str] | frozenset[str], first_word: str) -> str:
    """lark's expected terminals as words: "a card such as 7d or ??, or the end of the line"."""
    words = [_int_words(first_word) if name == "INT" else _WORDS[name]
             for name in sorted(terminals, key=_rank) if name in _WORDS or name == "INT"]
    keywords = [_KEYWORDS[name] for name in sorted(terminals, key=_rank)
                if name in _KEYWORDS]
    if len(keywords) == 1:
        words.append(keywords[0])
    elif keywords:
        words.append(say("a line starting with {keywords}", keywords=or_list(keywords)))
    return or_list(words) if words else say("something else")


def _rank(name: str) -> int:
    return _ORDER.get(name, len(_ORDER))


def _int_words(first_word: str) -> str:
    if first_word in ("smazzata", "deal"):
        return say("the smazzata number such as 1")
    return say("a seat such as 1") if first_word in _SEAT_LINES else say("a number")


_ORDER = {name: index for index, name in enumerate(
    ["TAG_OPEN", "TAG_NAME", "STRING", "RSQB", "PLAYS_LINE", "CARD", "INT", "HEX", "NAME",
     "EVENT_TYPE", "SCORE", "SECONDS", *_KEYWORDS, "_NL", "$END"])}
