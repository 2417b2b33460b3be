"""The outside auditor's report on a match's export: the chain, then the checks of a match
(`seeds`, `match seed`, `deals`, `draws`, `scores`, `rulings`). It does not replay the plays:
that needs a rules engine (`verbale verify`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .chain import check_chain
from .deals import check_deals, check_draws
from .match import Match, check_match_seed, check_seeds
from .reading import read_export
from .report import CHECKS, FAILED, N_, SKIPPED, Check, Line, Report, say
from .rulings import check_rulings
from .scores import check_scores

GAMES = ("cirulla", "briscola")


def audit_lines(texts: Iterable[str], source: str = "export",
                keys: Iterable[Iterable[str]] = ()) -> Report:
    return audit(read_export(texts, source), source,
                 [read_export(k, f"keys {n}") for n, k in enumerate(keys, start=1)])


def audit(lines: Sequence[Line], source: str = "export",
          keys: Sequence[Sequence[Line]] = ()) -> Report:
    """The report on a match's export; `keys`, the exports of arbiters' keys streams, let the
    `rulings` check verify each ruling's signature too."""
    chain = check_chain(lines)
    first = lines[0]
    if first.type != "MatchCreated":
        why = say(N_("line 1 is {type}, not MatchCreated: not a match"), type=first.type)
        rest = [Check(name, SKIPPED, why) for name in CHECKS[1:]]
        return Report(source, len(lines), (chain, *rest))
    match = Match(lines)
    seeds = (check_seeds(match), check_match_seed(match))
    rulings = check_rulings(lines, keys)
    if match.game not in GAMES or match.players not in (2, 4):
        why = say(N_("line 1: a {players}-player {game} match: docs/events.md describes "
                     "cirulla and briscola at 2 or 4 players"), players=match.players,
                  game=match.game)
        rest = [Check(name, FAILED, say(N_("not a game these documents describe")), (why,))
                for name in ("deals", "draws", "scores")]
        return Report(source, len(lines), (chain, *seeds, *rest, rulings))
    return Report(source, len(lines), (chain, *seeds, check_deals(match), check_draws(match),
                                       check_scores(match), rulings))
