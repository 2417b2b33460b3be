"""Match formats shared by every game, and when a match ends.

A match is a sequence of smazzate; `match_status` folds their results into the standing. What
differs from game to game (the formats it accepts, its options, how a smazzata counts, its VP
columns) is the game's `FormatRules` (domain/cirulla/formats.py, domain/briscola/formats.py,
...), found through the game registry (domain/games.py) by the format's `game`. The readings of
the sources taken here (what "superato" means, when a Briscola match to a number of smazzate
stops, what "vinco subito" ends) are listed in docs/rules-interpretations.md, section "Match
formats, penalties and VP tables"; each non-standard reading is a field of MatchFormat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Protocol

from domain.text import Said, say

CIRULLA_TARGETS = (7, 11, 21, 31, 41, 51)
CIRULLA_MAX_SMAZZATE = 6
BRISCOLA_CARD_POINTS = 120
BRISCOLA_SOGLIA = 61  # "totalizzando 61 punti si ha la certezza di ... vincere la smazzata"
SPAREGGI = 3


class MatchFormatError(ValueError):
    """A match format, or a sequence of smazzata results, that the rules do not allow."""


class MatchKind(Enum):
    TARGET = "target"  # cumulative points to a target (Cirulla 7/11/21/31/41/51)
    SMAZZATE = "smazzate"  # fixed number of smazzate (Cirulla 1–6; Briscola odd, majority)
    POINTS = "points"  # Briscola 'partita a punti': over 60 card points wins


TARGET_RE = re.compile(r"(\d+)\s*(?:pt|punti)")
SMAZZATE_RE = re.compile(r"(\d+)\s*(?:smazzate|smazzata|smazz\.?|sm)")


def points_or_smazzate(cleaned: str) -> tuple[MatchKind, int] | None:
    """A format text of a game played to points or to a number of smazzate ('21pt', '3sm'):
    its kind and length; None: neither."""
    for pattern, kind in ((TARGET_RE, MatchKind.TARGET), (SMAZZATE_RE, MatchKind.SMAZZATE)):
        found = pattern.fullmatch(cleaned)
        if found:
            return kind, int(found.group(1))
    return None
POINTS_WORDS = ("punti", "points", "a punti")


class FormatRules(Protocol):
    """What one game's match formats add to the shared ones: its game's part of parsing,
    checking, counting and VP columns (each game's `formats.py`, found by `format_rules`)."""

    cappotto: bool
    """The game knows cappotto (all ten denari: Cirulla's C11)."""

    def accepted(self) -> Said:
        """The formats the game accepts, for a refusal."""
        ...

    def parse_kind(self, cleaned: str) -> tuple[MatchKind, int] | None:
        """The kind and length of a format text (lower case, single spaces); None: not one."""
        ...

    def length_allowed(self, fmt: MatchFormat) -> bool: ...

    def refused_option(self, fmt: MatchFormat) -> Said | None:
        """Why an option of `fmt` is not one of this game's, naming the format (`format_name`);
        None: they all are."""
        ...

    def allows_smazzate_pari(self, fmt: MatchFormat) -> bool: ...

    def missing_vp_column(self, fmt: MatchFormat) -> Said | None:
        """Why `fmt` has no column in the game's VP table, or None when it has one."""
        ...

    def vp_column(self, fmt: MatchFormat) -> int:
        """The column of `fmt` (which has one) in the game's VP table."""
        ...

    def max_mp(self, fmt: MatchFormat) -> int | None:
        """The largest MP a match can have; None: no bound."""
        ...

    def add_totals(self, fmt: MatchFormat, totals: tuple[int, int],
                   result: SmazzataResult) -> tuple[int, int]:
        """The match totals after a regular smazzata (points, or smazzate won)."""
        ...

    def decided_early(self, fmt: MatchFormat, totals: tuple[int, int], remaining: int) -> bool:
        """A match of smazzate won before its last one (Briscola: "maggioranza certa")."""
        ...

    def check_result(self, fmt: MatchFormat, result: SmazzataResult, index: int) -> None:
        """The game's part of `check_result`: MatchFormatError for a result it cannot make."""
        ...

    def unit(self, fmt: MatchFormat) -> str:
        """The unit of the match's scores: "punti", or "smazzate" won."""
        ...


def format_rules(game: str) -> FormatRules:
    """The match-format rules of `game`, from the game registry (domain/games.py);
    MatchFormatError for a game it does not hold."""
    if not _REGISTRY:
        from domain import games  # the games import this module
        _REGISTRY.append(games)
    registry = _REGISTRY[0]
    try:
        rules: FormatRules = registry.game_named(game).formats
        return rules
    except registry.UnknownGame as unknown:
        raise MatchFormatError(unknown.said) from None


_REGISTRY: list[Any] = []
"""domain/games.py, imported on the first call of `format_rules` (an import statement in it
ran on each of the thousands of calls of a verify)."""


def game_names() -> tuple[str, ...]:
    """Every registered game's name (domain/games.py)."""
    from domain.games import games  # the games import this module

    return tuple(g.name for g in games())


@dataclass(frozen=True, slots=True)
class MatchFormat:
    game: str
    kind: MatchKind
    length: int
    ko: bool = False
    cappotto_ends: bool = False
    vinco_subito: bool = False
    # Options selecting the other reading of a source sentence (docs/rules-interpretations.md).
    target_strict: bool = False  # C15: "superato" read as strictly more than the target
    vinco_subito_ends_smazzata_only: bool = False  # B1: vinco subito ends only the smazzata
    cappotto_waits_end: bool = False  # C11: a cappotto ends the match when its smazzata ends
    # Briscola: an even number of smazzate, against "deve sempre essere dispari" (004 prints a
    # "2 smazzate" VP column); a level count of smazzate won is then a parità.
    smazzate_pari: bool = False
    vp: bool = False  # scored by VP (a tournament): the format must have a column in the table

    def __post_init__(self) -> None:
        _check_format(self)

    @classmethod
    def parse(cls, text: str, game: str, *, ko: bool = False, cappotto_ends: bool = False,
              vinco_subito: bool = False, target_strict: bool = False,
              vinco_subito_ends_smazzata_only: bool = False, smazzate_pari: bool = False,
              vp: bool = False, cappotto_waits_end: bool = False) -> MatchFormat:
        """'21pt', '3smazzate', '1smazzata', '3sm', 'punti'/'points' (Briscola)."""
        if game not in game_names():
            raise MatchFormatError(say("game {game}: expected one of {games}", game=repr(game),
                                       games=", ".join(game_names())))
        kind, length = _parse_kind(text, game)
        return cls(game, kind, length, ko=ko, cappotto_ends=cappotto_ends,
                   vinco_subito=vinco_subito, target_strict=target_strict,
                   vinco_subito_ends_smazzata_only=vinco_subito_ends_smazzata_only,
                   smazzate_pari=smazzate_pari, vp=vp, cappotto_waits_end=cappotto_waits_end)

    @property
    def cappotto_ends_at_once(self) -> bool:
        """C11, 000 "effettua un cappotto e la partita termina immediatamente": the play that
        puts the tenth denaro in a side's pile ends the smazzata and the match there."""
        return self.cappotto_ends and not self.cappotto_waits_end

    @property
    def text(self) -> str:
        """The canonical text that `parse` reads back into this format's kind and length."""
        if self.kind is MatchKind.TARGET:
            return f"{self.length}pt"
        if self.kind is MatchKind.SMAZZATE:
            return f"{self.length}smazzat{'a' if self.length == 1 else 'e'}"
        return "punti"

    def describe(self) -> Said:
        """The format for people, e.g. "cirulla 21pt: the first side past the target wins"."""
        options = [name for flag, name in (
            (self.ko, say("KO (3 spareggi)")),
            (self.cappotto_ends, say("a cappotto ends the match")),
            (self.vinco_subito, say("vinco subito")),
            (self.target_strict, say("the target must be strictly exceeded")),
            (self.vinco_subito_ends_smazzata_only, say("vinco subito ends only the smazzata")),
            (self.cappotto_waits_end, say("a cappotto ends the match when its smazzata ends")),
            (self.smazzate_pari, say("an even number of smazzate")),
            (self.vp, say("scored by VP")),
            (missing_vp_column(self) is not None, say("no VP: the table has no column for it")),
        ) if flag]
        if not options:
            return say("{game} {format}: {kind}", game=self.game, format=self.text,
                       kind=_KIND_WORDS[self.kind])
        return say("{game} {format}: {kind} [{options}]", game=self.game, format=self.text,
                   kind=_KIND_WORDS[self.kind], options=listed(options))

    @property
    def vp_column(self) -> int:
        """Index of this format's column in its game's VP table (000 and 004)."""
        missing = missing_vp_column(self)
        if missing is not None:
            raise MatchFormatError(say("{format}: {reason}", format=self.describe(),
                                       reason=missing))
        return format_rules(self.game).vp_column(self)


BRISCOLA_VP_SMAZZATE = (1, 2, 3)  # 004, "Tabella dei Victory Points": 1, 2 and 3 smazzate


def listed(items: Sequence[Said]) -> Said:
    """Messages listed one after the other, separated by commas (each translated alone)."""
    if len(items) == 1:
        return items[0]
    return say("{first}, {rest}", first=items[0], rest=listed(items[1:]))


def missing_vp_column(fmt: MatchFormat) -> Said | None:
    """Why `fmt` has no column in its game's VP table (000, 004), or None when it has one."""
    return format_rules(fmt.game).missing_vp_column(fmt)


_KIND_WORDS = {
    MatchKind.TARGET: say("the side past the target with more points wins"),
    MatchKind.SMAZZATE: say("a fixed number of smazzate"),
    MatchKind.POINTS: say("a match to points: more than 60 wins"),
}


_KIND_NAMES = {
    MatchKind.TARGET: say("target"),
    MatchKind.SMAZZATE: say("smazzate"),
    MatchKind.POINTS: say("points"),
}


def _parse_kind(text: str, game: str) -> tuple[MatchKind, int]:
    cleaned = " ".join(text.strip().lower().split())
    rules = format_rules(game)
    found = rules.parse_kind(cleaned)
    if found is not None:
        return found
    raise MatchFormatError(say("match format {text} for {game}: not understood; accepted: "
                               "{accepted}", text=repr(text), game=game,
                               accepted=rules.accepted()))


def _check_format(fmt: MatchFormat) -> None:
    # The format's name is built only to refuse it: every match created or folded checks one.
    if fmt.game not in game_names():
        raise MatchFormatError(say("{where}: game must be one of {games}", where=format_name(fmt),
                                   games=", ".join(game_names())))
    rules = format_rules(fmt.game)
    if not isinstance(fmt.length, int) or isinstance(fmt.length, bool):
        raise MatchFormatError(say("{where}: length must be an int", where=format_name(fmt)))
    if not rules.length_allowed(fmt):
        raise MatchFormatError(say("{where}: not allowed; accepted: {accepted}",
                                   where=format_name(fmt), accepted=rules.accepted()))
    refused = rules.refused_option(fmt)
    if refused is not None:
        raise MatchFormatError(refused)
    if fmt.cappotto_waits_end and not fmt.cappotto_ends:
        raise MatchFormatError(say("{where}: cappotto_waits_end needs cappotto_ends",
                                   where=format_name(fmt)))
    if fmt.vinco_subito_ends_smazzata_only and not fmt.vinco_subito:
        raise MatchFormatError(say("{where}: vinco_subito_ends_smazzata_only needs vinco_subito",
                                   where=format_name(fmt)))
    _check_even_and_vp(fmt)


def format_name(fmt: MatchFormat) -> Said:
    return say("match format {game} {kind} {length}", game=fmt.game,
               kind=_KIND_NAMES[fmt.kind], length=fmt.length)


def _check_even_and_vp(fmt: MatchFormat) -> None:
    if fmt.smazzate_pari and not format_rules(fmt.game).allows_smazzate_pari(fmt):
        raise MatchFormatError(say("{where}: smazzate_pari is the Briscola option for an even "
                                   "number of smazzate (2, 4, ...)", where=format_name(fmt)))
    missing = missing_vp_column(fmt) if fmt.vp else None
    if missing is not None:
        raise MatchFormatError(say("{where}: {reason}; a match scored by VP cannot use this "
                                   "format", where=format_name(fmt), reason=missing))


@dataclass(frozen=True, slots=True)
class SmazzataResult:
    points: tuple[int, int]
    last_capture_side: int | None
    cappotto_side: int | None = None
    vinco_subito_side: int | None = None


@dataclass(frozen=True, slots=True)
class MatchStatus:
    over: bool
    winner: int | None
    drawn: bool
    totals: tuple[int, int]
    next_tiebreak: int
    reason: str


IN_CORSO = "in corso"


@dataclass(frozen=True, slots=True)
class _Progress:
    status: MatchStatus
    regular: int  # regular smazzate played (spareggi excluded)
    card_points: tuple[int, int]  # the points of the regular smazzate (the MP basis)


def match_status(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> MatchStatus:
    """The standing after `results`; a result after the match is over is an error."""
    return _progress(fmt, results).status


def match_points(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> int:
    """MP: the winner's points minus the loser's over the regular smazzate, never below 0.

    Cirulla counts game points, Briscola card points: the smazzate's points either way; a drawn
    match has MP 0. Spareggi only name the winner, so they do not add to MP.
    """
    progress = _progress(fmt, results)
    status = progress.status
    if not status.over:
        raise MatchFormatError(say("{format}: MP asked before the match is over",
                                   format=fmt.describe()))
    if status.winner is None:
        return 0
    basis = progress.card_points
    return max(0, basis[status.winner] - basis[1 - status.winner])


def standing_parts(fmt: MatchFormat,
                   results: Sequence[SmazzataResult]) -> tuple[MatchStatus, tuple[int, int], int]:
    """`match_status`, `regular_points` and, once the match is over, `match_points` (0 before),
    from one pass over `results`: what a match's standing asks after every smazzata."""
    progress = _progress(fmt, results)
    status, basis = progress.status, progress.card_points
    if not status.over or status.winner is None:
        return status, basis, 0
    return status, basis, max(0, basis[status.winner] - basis[1 - status.winner])


def regular_points(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> tuple[int, int]:
    """The points of the regular smazzate of `results`, per side: the MP basis (spareggi add
    nothing, "Parità" in docs/rules-interpretations.md)."""
    return _progress(fmt, results).card_points


def _progress(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> _Progress:
    progress = _Progress(MatchStatus(False, None, False, (0, 0), 0, IN_CORSO), 0, (0, 0))
    for index, result in enumerate(results, start=1):
        if progress.status.over:
            raise MatchFormatError(say(
                "{format}: smazzata {number} comes after the match was over ({reason})",
                format=fmt.describe(), number=index, reason=progress.status.reason))
        check_result(fmt, result, index)
        progress = _step(fmt, progress, result)
    return progress


def _step(fmt: MatchFormat, progress: _Progress, result: SmazzataResult) -> _Progress:
    spareggio = progress.status.next_tiebreak
    if spareggio:
        return replace(progress, status=_after_spareggio(fmt, progress.status, result, spareggio))
    totals = format_rules(fmt.game).add_totals(fmt, progress.status.totals, result)
    regular = progress.regular + 1
    cards = progress.card_points
    cards = (cards[0] + result.points[0], cards[1] + result.points[1])
    ended = _ended_at_once(fmt, result)
    if ended is not None:
        status = MatchStatus(True, ended[0], False, totals, 0, ended[1])
    else:
        status = _after_regular(fmt, totals, regular)
    return _Progress(status, regular, cards)


def _ended_at_once(fmt: MatchFormat, result: SmazzataResult) -> tuple[int, str] | None:
    """Cappotto (000, if the format says so) and vinco subito (004) end the match at once.

    With `cappotto_ends` the smazzata of a cappotto is the last one, whether the record cut it
    at the play that completed the cappotto (the standard reading) or played it to its end
    (`cappotto_waits_end`); either way it counts, and the cappotto side wins.
    """
    if fmt.cappotto_ends and result.cappotto_side is not None:
        return result.cappotto_side, "cappotto"
    if result.vinco_subito_side is not None and not fmt.vinco_subito_ends_smazzata_only:
        return result.vinco_subito_side, "vinco subito"
    return None


def added_points(totals: tuple[int, int], result: SmazzataResult) -> tuple[int, int]:
    """`totals` with the smazzata's points added (a match counted in points)."""
    return totals[0] + result.points[0], totals[1] + result.points[1]


def smazzata_winner(fmt: MatchFormat, result: SmazzataResult) -> int | None:
    """The side a regular smazzata counts as won (None: nobody): the side it adds a smazzata
    to in a match counted in smazzate won, else the side with more points."""
    rules = format_rules(fmt.game)
    if rules.unit(fmt) == "smazzate":
        return _leader(rules.add_totals(fmt, (0, 0), result))
    return _leader(result.points)


def briscola_smazzata_winner(result: SmazzataResult) -> int | None:
    """004: "vince la singola smazzata ... chi ha totalizzato ... almeno pari a 61 punti"."""
    for side in (0, 1):
        if result.points[side] >= BRISCOLA_SOGLIA:
            return side
    return None


def _after_regular(fmt: MatchFormat, totals: tuple[int, int], regular: int) -> MatchStatus:
    decided = _decide_regular(fmt, totals, regular)
    if decided is None:
        return MatchStatus(False, None, False, totals, 0, IN_CORSO)
    winner, reason = decided
    if winner is not None:
        return MatchStatus(True, winner, False, totals, 0, reason)
    if fmt.ko:
        return MatchStatus(False, None, False, totals, 1, IN_CORSO)
    if fmt.kind is MatchKind.TARGET:  # C15: equal above the target, play another smazzata
        return MatchStatus(False, None, False, totals, 0, IN_CORSO)
    return MatchStatus(True, None, True, totals, 0, "parità")


def _decide_regular(fmt: MatchFormat, totals: tuple[int, int],
                    regular: int) -> tuple[int | None, str] | None:
    """None: play on; (side, reason): won; (None, reason): level at the end (parità)."""
    leader = _leader(totals)
    if fmt.kind is MatchKind.TARGET:
        passed = [_passed(fmt, t) for t in totals]
        return (leader, "target") if any(passed) else None
    if fmt.kind is MatchKind.POINTS:
        return leader, "punti"
    remaining = fmt.length - regular
    if format_rules(fmt.game).decided_early(fmt, totals, remaining):
        return leader, "smazzate" if remaining == 0 else "maggioranza certa"
    return (leader, "smazzate") if remaining == 0 else None


def _passed(fmt: MatchFormat, total: int) -> bool:
    """000 "avendo superato il punteggio previsto": reached (standard) or exceeded (option)."""
    return total > fmt.length if fmt.target_strict else total >= fmt.length


def _leader(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def _after_spareggio(fmt: MatchFormat, before: MatchStatus, result: SmazzataResult,
                     spareggio: int) -> MatchStatus:
    """000/004 "Parità": more points in the spareggio wins; after the 3rd, last capture loses."""
    ended = _ended_at_once(fmt, result)
    if ended is not None:
        return MatchStatus(True, ended[0], False, before.totals, 0, ended[1])
    leader = _leader(result.points)
    if leader is not None:
        return MatchStatus(True, leader, False, before.totals, 0, f"spareggio {spareggio}")
    if spareggio < SPAREGGI:
        return MatchStatus(False, None, False, before.totals, spareggio + 1, IN_CORSO)
    if result.last_capture_side is None:
        raise MatchFormatError(say(
            "{format}: the 3rd spareggio ended level but names no last capture; 'perde il "
            "giocatore che ha fatto l'ultima presa nel 3° spareggio' needs it",
            format=fmt.describe()))
    return MatchStatus(True, 1 - result.last_capture_side, False, before.totals, 0,
                       "ultima presa nel 3° spareggio")


def check_result(fmt: MatchFormat, result: SmazzataResult, index: int = 0) -> None:
    """A result the format cannot produce is refused, naming the smazzata and the field."""
    # `where` (the format described, every option a message) is built only to refuse: a
    # standing checks every result of the match, at every smazzata's end.
    points = result.points
    if (len(points) != 2 or any(not isinstance(p, int) or isinstance(p, bool) or p < 0
                                for p in points)):
        raise MatchFormatError(say("{where}: points must be two non-negative ints, not "
                                   "{points}", where=result_place(fmt, index), points=repr(points)))
    for name in ("last_capture_side", "cappotto_side", "vinco_subito_side"):
        side = getattr(result, name)
        if side is not None and side not in (0, 1):
            raise MatchFormatError(say("{where}: {field} must be 0, 1 or None, not {value}",
                                       where=result_place(fmt, index), field=name,
                                       value=repr(side)))
    format_rules(fmt.game).check_result(fmt, result, index)


def result_place(fmt: MatchFormat, index: int) -> Said:
    """The format and the smazzata (from 1; 0: none) a refused result is named by."""
    return (say("{format}, smazzata {number}", format=fmt.describe(), number=index) if index
            else fmt.describe())
