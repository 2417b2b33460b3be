"""The `scores` check: each `SmazzataEnded` has its game's breakdown and its `scores` follow
from it; each `ScoreClaimed` names an ended smazzata and some of its categories (a claimed score
that differs from the breakdown is a note: the paper disagrees, the record is not wrong for
it)."""

from __future__ import annotations

from collections.abc import Mapping

from .match import Match
from .report import MALFORMED, N_, Check, Findings, say

CIRULLA_CATEGORIES = ("scope", "settebello", "primiera", "denari", "carte", "grande", "piccola",
                      "accusi")
BRISCOLA_CATEGORIES = ("punti", "prese", "carte")
BRISCOLA_OPTIONAL = ("vinco subito",)


def check_scores(match: Match) -> Check:
    """The `scores` check."""
    found = Findings()
    count = 0
    ended: dict[int, tuple[int, list[tuple[str, int, int]]]] = {}
    for line in match.of_type("SmazzataEnded"):
        try:
            rows = [(str(name), int(a), int(b)) for name, a, b in line.data["breakdown"]]
            ended.setdefault(int(line.data["number"]), (line.number, rows))
            names = tuple(name for name, _, _ in rows)
            scores = [int(s) for s in line.data["scores"]]
            if match.game == "cirulla":
                wanted = [sum(r[1] for r in rows), sum(r[2] for r in rows)]
                if names != CIRULLA_CATEGORIES:
                    found.problem(N_("line {line}: categories {names}, expected "
                                     "{expected}"), line=line.number, names=names,
                                  expected=CIRULLA_CATEGORIES)
            else:
                wanted = [rows[0][1], rows[0][2]] if rows else []
                if names[:3] != BRISCOLA_CATEGORIES or not set(names[3:]) <= set(
                        BRISCOLA_OPTIONAL):
                    found.problem(N_("line {line}: categories {names}, expected "
                                     "{expected} then perhaps {optional}"),
                                  line=line.number, names=names,
                                  expected=BRISCOLA_CATEGORIES, optional=BRISCOLA_OPTIONAL)
            if scores != wanted:
                found.problem(N_("line {line}: scores {scores}, but the breakdown gives "
                                 "{expected}"), line=line.number, scores=scores,
                              expected=wanted)
            count += 1
        except MALFORMED as error:
            found.malformed(line, error)
    _claims(match, found, ended)
    if count == 0 and not found.problems:
        return found.check("scores", say(N_("no SmazzataEnded in the export")),
                           skipped=True)
    summary = (N_("{count} SmazzataEnded: scores are the sums of the breakdown")
               if match.game == "cirulla" else
               N_("{count} SmazzataEnded: scores are the card points (the `punti` row)"))
    return found.check("scores", say(summary, count=count))


def _claims(match: Match, found: Findings,
            ended: Mapping[int, tuple[int, list[tuple[str, int, int]]]]) -> None:
    """Each `ScoreClaimed` (section 4) names an ended smazzata and some of its categories,
    once each; a claimed score that differs from the breakdown is a note (the paper
    disagrees with the record, the record is not wrong for it)."""
    for line in match.of_type("ScoreClaimed"):
        try:
            number = int(line.data["smazzata"])
            where, rows = ended.get(number, (None, []))
            if where is None or where > line.number:
                found.problem(N_("line {line}: a score claimed for smazzata {smazzata}, "
                                 "which has not ended before it"), line=line.number,
                              smazzata=number + 1)
                continue
            computed = {name: (a, b) for name, a, b in rows}
            claimed = [(str(name), int(a), int(b)) for name, a, b in line.data["rows"]]
            names = [name for name, _, _ in claimed]
            if not claimed or len(set(names)) != len(names) or not set(names) <= set(
                    computed) or any(a < 0 or b < 0 for _, a, b in claimed):
                found.problem(N_("line {line}: claimed categories {names}: each once, "
                                 "among {expected}, never negative"), line=line.number,
                              names=tuple(names), expected=tuple(computed))
                continue
            for name, a, b in claimed:
                if (a, b) != computed[name]:
                    found.note(N_("line {line}: smazzata {smazzata}: claimed {category} "
                                  "{claimed}, computed {computed} (claimed by {who})"),
                               line=line.number, smazzata=number + 1, category=name,
                               claimed=f"{a}–{b}", computed="–".join(
                                   str(v) for v in computed[name]),
                               who=line.data["claimed_by"])
        except MALFORMED as error:
            found.malformed(line, error)
