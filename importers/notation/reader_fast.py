"""The reader's fast route: well-formed records read line by line, as python-chess reads PGN.

A speed-only route beside its reference, lark's parse (reader.py): it is never taken with
VERBALE_EXACT=1 (exact.py), and tests/importers/notation/test_reader_fast*.py hold it to lark's
result over generated, example and stored records.

lark spends most of the reading on its per-token work (a Stock line is some thirty tokens). Here
each line is told by its first word and read by one regex, built from the grammar's own
terminals (grammar.lark) in the order of its rule, with the tokens one space apart; the tokens
are made as lark's lexer makes them (type, text, position) and handed to the callbacks of the
embedded transformer (`ToRaw`, reader_build.py), so the result is exactly what lark's parse
returns. At the first thing it is not sure of (a line it has no regex for, two spaces, a brace
comment, a line in the wrong place, any syntax error) it gives up and returns None: reader.py
then parses with lark, so every error and every position of a text that does not read stays
lark's. A line of plays is the grammar's PLAYS_LINE token, matched with its own regex.

What it reads: tag lines `[Name "value"]`, the keyword lines of the grammar with one space
between tokens, lines of plays; after a tag or keyword line, trailing spaces, a `;` comment and
blank or comment lines (the grammar's _NL); blank and comment lines before the first tag.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Lark, Token

from importers.notation.reader_build import Line, RawMatch, ToRaw

# Each line by its first terminal: a regex template whose words in capitals stand for the
# grammar's terminals (as in grammar.lark's rule), and the token types of each of its groups; a
# group typed "A B..." holds space-separated tokens whose types go A, B, A, B...; a group typed
# "CARDS" (a space, then cards one space apart) is handed on as the text of its cards, as
# `ToRaw._cards_line` turns lark's CARD tokens into it.
_SHAPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "TAG_OPEN": ("(TAG_OPEN)(TAG_NAME) (STRING)RSQB", ("TAG_OPEN", "TAG_NAME", "STRING")),
    "SMAZZATA": ("(SMAZZATA) (INT)", ("SMAZZATA", "INT")),
    "END": ("(END)", ("END",)),
    "DEALER": ("(DEALER) (INT)", ("DEALER", "INT")),
    "SEED": ("(SEED) (HEX)", ("SEED", "HEX")),
    "TABLE": ("(TABLE)((?: CARD)+)", ("TABLE", "CARDS")),
    "BRISCOLA": ("(BRISCOLA)( CARD)", ("BRISCOLA", "CARDS")),
    "HAND": ("(HAND) (INT)((?: CARD)*)", ("HAND", "INT", "CARDS")),
    "STOCK": ("(STOCK)((?: CARD)*)", ("STOCK", "CARDS")),
    "ACCUSO": ("(ACCUSO) (INT) (NAME)((?: CARD)+)((?: MATTA INT)?)",
               ("ACCUSO", "INT", "NAME", "CARD...", "MATTA INT...")),
    "CLAIMED": ("(CLAIMED)((?: NAME SCORE)+)", ("CLAIMED", "NAME SCORE...")),
    "TIMEOUT": ("(TIMEOUT) (INT)((?: SECONDS)?)", ("TIMEOUT", "INT", "SECONDS...")),
    "ABANDON": ("(ABANDON) (INT) (STRING)((?: SECONDS)?)",
                ("ABANDON", "INT", "STRING", "SECONDS...")),
    "RULING": ("(RULING) (STRING) (NAME)((?: SMAZZATA INT)?)((?: ADJUST SCORE)?)"
               "((?: REFERS EVENT_TYPE INT)?) (STRING)",
               ("RULING", "STRING", "NAME", "SMAZZATA INT...", "ADJUST SCORE...",
                "REFERS EVENT_TYPE INT...", "STRING")),
}
_TERMINAL_NAME = re.compile(r"\b[A-Z][A-Z_]+\b")

# Where a line may come (the grammar's `start`, `match`, `smazzata` and `end`): before the first
# tag, after a tag, inside a smazzata (and lines of plays), after `End`.
_START, _TAGS, _SMAZZATA, _END = range(4)
_INCIDENTS = frozenset({"TIMEOUT", "ABANDON", "RULING"})
_ALLOWED = (frozenset({"TAG_OPEN"}), frozenset({"TAG_OPEN", "SMAZZATA", "END"}),
            frozenset(_SHAPES), frozenset({"TAG_OPEN"}) | _INCIDENTS)


# A group of a line's regex: its number, the types of its tokens, what it holds (_ONE token, a
# list of _MANY, or _CARDS: the text of its cards).
_Group = tuple[int, tuple[str, ...], int]
_ONE, _MANY, _CARDS = range(3)


def _groups(types: tuple[str, ...], first: int) -> tuple[_Group, ...]:
    return tuple((first + index, tuple(t.removesuffix("...").split()),
                  _CARDS if t == "CARDS" else _MANY if t.endswith("...") else _ONE)
                 for index, t in enumerate(types))


_new_str = str.__new__


def _tokens(groups: tuple[_Group, ...], found: re.Match[str], line: int,
            start: int) -> list[Token | str]:
    """The tokens of a line, as lark's lexer makes them (`_token`), a run of cards as its text.
    `start` is where the line starts (its column 1)."""
    tokens: list[Token | str] = []
    append = tokens.append
    for index, types, holds in groups:
        value = found.group(index)
        if holds == _ONE:
            append(_token(types[0], value, found.start(index), line, start))
        elif holds == _CARDS:
            append(value[1:])
        elif value:
            at = found.start(index) + 1  # after the space before
            cycle = len(types)
            for count, word in enumerate(value[1:].split(" ")):
                append(_token(types[count % cycle], word, at, line, start))
                at += len(word) + 1
    return tokens


def _token(kind: str, word: str, at: int, line: int, start: int) -> Token:
    """`Token(kind, word, at, line, column, line, column + len(word), at + len(word))`, here
    without lark's checks of its arguments (a third of the time)."""
    made: Token = _new_str(Token, word)
    column = at - start + 1
    made.type = kind
    made.value = word
    made.start_pos = at
    made.line = line
    made.column = column
    made.end_line = line
    made.end_column = column + len(word)
    made.end_pos = at + len(word)
    return made


def _plays_token(text: str, start: int, line: int, below: int, end: int) -> Token:
    """`Token("PLAYS_LINE", text, start, line, 1, below, 1, end)`, made as `_tokens` makes
    its tokens, without lark's checks of the arguments."""
    made: Token = _new_str(Token, text)
    made.type, made.value, made.start_pos, made.line = "PLAYS_LINE", text, start, line
    made.column, made.end_line, made.end_column, made.end_pos = 1, below, 1, end
    return made


class LineReader:
    """The fast path over one grammar: `read(text)` is what `parser.parse(text)` returns, or
    None when it is not sure of it. `parser` is the reader's Lark parser (LALR, contextual
    lexer) with `ToRaw` embedded."""

    def __init__(self, parser: Lark) -> None:
        def terminal(name: str) -> str:
            return parser.get_terminal(name).pattern.to_regexp()

        def expanded(template: str) -> str:
            return _TERMINAL_NAME.sub(lambda m: f"(?:{terminal(m.group())})", template)

        self._blank = re.compile(terminal("_NL"))
        self._regexes: list[re.Pattern[str]] = []
        self._groups: list[dict[str, tuple[_Group, ...]]] = []
        for state, allowed in enumerate(_ALLOWED):
            names = [name for name in _SHAPES if name in allowed]
            plays = [f"(?P<PLAYS_LINE>{terminal('PLAYS_LINE')})"] if state == _SMAZZATA else []
            regex = re.compile("|".join(plays + [
                f"(?P<{name}>{expanded(_SHAPES[name][0])})(?:{terminal('_NL')})"
                for name in names]))
            self._regexes.append(regex)
            self._groups.append({name: _groups(_SHAPES[name][1], regex.groupindex[name] + 1)
                                 for name in names})
            assert regex.groups == len(plays) + sum(len(_SHAPES[n][1]) + 1 for n in names)
        self._raw = ToRaw()
        self._lines: dict[str, Callable[[list[Token | str]], Line]] = {
            name: getattr(self._raw, name.lower()) for name in _SHAPES
            if name not in ("TAG_OPEN", "SMAZZATA", "END")}

    def read(self, text: str) -> list[RawMatch] | None:
        """The raw matches of `text` (which ends with a newline), or None."""
        building = _Building(self._raw)
        blank = self._blank.match(text)
        pos = blank.end() if blank else 0
        line = 1 + text.count("\n", 0, pos)
        end, regexes, groups, lines = len(text), self._regexes, self._groups, self._lines
        while pos < end:
            found = regexes[building.state].match(text, pos)
            if found is None:
                return None
            name = found.lastgroup
            after = found.end()
            below = line + text.count("\n", pos, after)
            if name == "PLAYS_LINE":  # from column 1; its _EOL ends with a newline
                building.lines.append(_plays_token(found.group(), pos, line, below, after))
            else:
                assert name is not None
                building.line(name, _tokens(groups[building.state][name], found, line, pos),
                              lines.get(name))
            pos, line = after, below
        return building.finished()


class _Building:
    """The callbacks' results so far, as lark's LALR parser would hold them on its stack (the
    children of `start`, of the current `match`, of the current `smazzata` or `end`)."""

    __slots__ = ("children", "lines", "matches", "raw", "state")

    def __init__(self, raw: ToRaw) -> None:
        self.raw = raw
        self.state = _START
        self.matches: list[list[RawMatch]] = []
        self.children: list[Any] = []
        self.lines: list[Any] = []

    def line(self, name: str, tokens: list[Any],
             keyword_line: Callable[[list[Token | str]], Line] | None) -> None:
        if name == "TAG_OPEN":
            if self.state in (_SMAZZATA, _END):
                self._close_match()
            self.children.append(self.raw.tag(tokens))
            self.state = _TAGS
        elif name == "SMAZZATA" or name == "END":
            self._close_lines()
            self.lines = list(tokens)
            self.state = _SMAZZATA if name == "SMAZZATA" else _END
        else:
            assert keyword_line is not None
            self.lines.append(keyword_line(tokens))

    def _close_lines(self) -> None:
        if self.state == _SMAZZATA:
            self.children.append(self.raw.smazzata(self.lines))
        elif self.state == _END:
            self.children.append(self.raw.end(self.lines))

    def _close_match(self) -> None:
        self._close_lines()
        self.matches.append(self.raw.match(self.children))
        self.children = []

    def finished(self) -> list[RawMatch]:
        if self.state != _START:
            self._close_match()
        result: list[RawMatch] = self.raw.start(self.matches)
        return result
