"""`verbale scores --match ID`: a match's score sheet from the read models
(projections/read_models/queries.py `match_scores`): per smazzata the dealer, the breakdown per
side in the rows the game's scoring gives (Cirulla: scope, settebello, primiera, denari, carte,
grande, piccola, accusi; Briscola: card points, tricks, cards), the accusi, cappotto, KO
spareggio, a smazzata annulled by a ruling (its recorded points beside the counted 0), the running
totals; then the rulings, the forfeit penalty, the total and the result with MP and VP.

Smazzate and seats are counted from 1 (as in every message); a pair of numbers is side 1 (the
side of seat 1) first.
"""

from __future__ import annotations

from typing import Any

import click

from projections.read_models.queries import MatchRow
from projections.read_models.scores import MatchScores, Ruling, SmazzataScore
from replay_web.cli import UsageProblem, cli, database_option
from replay_web.cli_legal import reason_text
from replay_web.cli_matches import as_record, result_words, state_words
from replay_web.i18n import _
from replay_web.read_view import open_read_models, resolve_match
from replay_web.tables import Grid, echo_json, pair, show


@cli.command("scores")
@click.option("--match", "match_text", required=True,
              help="The match: its id or the start of it that 'verbale matches' lists.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of tables.")
@database_option
def scores(match_text: str, as_json: bool, database: str | None) -> None:
    """A match's scores: each smazzata's breakdown per side, accusi, cappotto, annulled
    smazzate and the running totals; the arbiter's rulings, the penalty, the total, and the
    result with its MP and VP (and the VP table used)."""
    from projections.read_models.scores import match_scores
    from replay_web.match_ids import check_match_text

    check_match_text(match_text)
    with open_read_models(database) as engine:
        found = match_scores(engine, resolve_match(engine, match_text))
    if found is None:   # listed a moment ago: only a rebuild running meanwhile removes it
        raise UsageProblem(_("--match {text}: no such match in the read models")
                                   .format(text=match_text))
    if as_json:
        echo_json(scores_record(found))
        return
    click.echo(heading(found.match))
    click.echo(sides_line(found.match))
    click.echo("")
    if found.smazzate:
        show(smazzata_grid(found))
    else:
        click.echo(_("no smazzata ended yet"))
    if found.rulings:
        click.echo("")
        show(rulings_grid(found.rulings))
    click.echo("")
    for line in summary(found):
        click.echo(line)


def sides(match: MatchRow) -> tuple[str, str]:
    """The players of each side, in seat order."""
    names = tuple(", ".join(n for n, s in zip(match.players, match.sides, strict=True)
                            if s == side) for side in (0, 1))
    return names[0], names[1]


def heading(match: MatchRow) -> str:
    where = ""
    if match.tournament is not None:
        where = _(", {tournament}, round {round}, table {table}").format(
            tournament=match.tournament_name or match.tournament, round=match.round or "-",
            table=match.table or "-")
    return _("match {id}: {game} {format}{where}").format(
        id=match.stream, game=match.game, format=match.match_format, where=where)


def sides_line(match: MatchRow) -> str:
    first, second = sides(match)
    return _("side 1: {first}; side 2: {second}").format(first=first, second=second)


def categories(found: MatchScores) -> list[str]:
    """Every breakdown row of the match, in the order the smazzate give them."""
    return list(dict.fromkeys(c for z in found.smazzate for c, _a, _b in z.breakdown))


def smazzata_headers(rows: list[str]) -> list[str]:
    return [_("smazzata"), _("dealer"), _("side"), *rows, _("points"), _("counted"),
            _("total"), _("notes")]


def smazzata_grid(found: MatchScores) -> Grid:
    rows = categories(found)
    first = 3
    numeric = set(range(first, first + len(rows) + 3))
    lines = [line for z in found.smazzate for line in smazzata_lines(found.match, z, rows)]
    return Grid(smazzata_headers(rows), lines, numeric)



def smazzata_lines(match: MatchRow, z: SmazzataScore, rows: list[str]) -> list[list[str]]:
    """Two lines, one per side: the first names the smazzata and its dealer."""
    by_row = {c: (a, b) for c, a, b in z.breakdown}
    names = sides(match)
    lines = []
    for side in (0, 1):
        cells = [str(by_row[c][side]) if c in by_row else "" for c in rows]
        lines.append([
            str(z.number + 1) if side == 0 else "", dealer_name(match, z) if side == 0 else "",
            names[side], *cells, str(z.points[side]), str(z.counted[side]),
            str(z.running[side]), notes(match, z, side)])
    return lines


def dealer_name(match: MatchRow, z: SmazzataScore) -> str:
    if z.dealer is None or not 0 <= z.dealer < len(match.players):
        return "-"
    return match.players[z.dealer]


def notes(match: MatchRow, z: SmazzataScore, side: int) -> str:
    """What else the smazzata says of `side`: its accusi and cappotto; on the first line its
    KO spareggio and whether a ruling annulled it."""
    said = [_("{player}: {kind} {points}").format(player=_player(match, seat), kind=kind,
                                                  points=points)
            for seat, kind, points in z.accusi if _side_of(match, seat) == side]
    if z.cappotto == side:
        said.append(_("cappotto"))
    if side == 0 and z.spareggio:
        said.append(_("spareggio {n} (KO tie-break)").format(n=z.spareggio))
    if side == 0 and z.annulled:
        said.append(_("annulled by a ruling"))
    return "; ".join(said)


def _player(match: MatchRow, seat: int) -> str:
    return match.players[seat] if 0 <= seat < len(match.players) else str(seat + 1)


def _side_of(match: MatchRow, seat: int) -> int | None:
    return match.sides[seat] if 0 <= seat < len(match.sides) else None


def rulings_grid(rulings: tuple[Ruling, ...]) -> Grid:
    headers = [_("event"), _("arbiter"), _("ruling"), _("smazzata"), _("adjustment"),
               _("reason")]
    rows = [[str(r.version), r.arbiter, r.kind,
             "-" if r.smazzata is None else str(r.smazzata + 1), pair(r.adjustment), r.reason]
            for r in rulings]
    return Grid(headers, rows, (0, 3, 4), title=_("rulings"))


def summary(found: MatchScores) -> list[str]:
    """The penalty, the points kept, the adjustments, the total and the result."""
    lines = []
    if found.penalty != (0, 0):
        lines.append(_("penalty (timeout or abandon): {points}").format(
            points=pair(found.penalty)))
    if found.kept is not None and found.kept != (0, 0):
        lines.append(_("points made in the interrupted smazzata: {points}").format(
            points=pair(found.kept)))
    if found.adjustment != (0, 0):
        lines.append(_("adjustments by rulings: {points}").format(
            points=pair(found.adjustment)))
    lines.append(_("total: {points}").format(points=pair(found.totals)))
    lines.append(result_line(found))
    return lines


def result_line(found: MatchScores) -> str:
    match = found.match
    if match.state != "ended":
        return _("result: {state}").format(state=state_words(match))
    mp = "-" if match.mp is None else str(match.mp)
    vp = _("VP {vp} ({table})").format(vp=pair(match.vp), table=found.vp_table) \
        if match.vp is not None else _("no VP (the format has no VP column)")
    return _("result: {how}, {result}; MP {mp}; {vp}").format(
        how=reason_text(match.how or ""), result=result_words(match), mp=mp, vp=vp)


def scores_record(found: MatchScores) -> dict[str, Any]:
    """`--json`: the match (as `verbale matches --json` lists it), its sides, every ended
    smazzata, the rulings, penalty, kept points, adjustment, totals and VP table."""
    match = found.match
    return {
        "match": as_record(match),
        "sides": [[n for n, s in zip(match.players, match.sides, strict=True) if s == side]
                  for side in (0, 1)],
        "smazzate": [smazzata_record(match, z) for z in found.smazzate],
        "rulings": [{"version": r.version, "arbiter": r.arbiter, "kind": r.kind,
                     "smazzata": None if r.smazzata is None else r.smazzata + 1,
                     "adjustment": list(r.adjustment), "reason": r.reason,
                     "recorded": r.recorded} for r in found.rulings],
        "penalty": list(found.penalty),
        "kept": None if found.kept is None else list(found.kept),
        "adjustment": list(found.adjustment),
        "totals": list(found.totals),
        "vp_table": found.vp_table,
    }


def smazzata_record(match: MatchRow, z: SmazzataScore) -> dict[str, Any]:
    """One smazzata: `number` and seats from 1; `cappotto` the side (0 or 1) or null."""
    return {
        "number": z.number + 1,
        "dealer": None if z.dealer is None else {"seat": z.dealer + 1,
                                                 "player": dealer_name(match, z)},
        "breakdown": [{"category": c, "points": [a, b]} for c, a, b in z.breakdown],
        "points": list(z.points), "counted": list(z.counted),
        "accusi": [{"seat": seat + 1, "player": _player(match, seat), "kind": kind,
                    "points": points} for seat, kind, points in z.accusi],
        "cappotto": z.cappotto, "spareggio": z.spareggio, "annulled": z.annulled,
        "running": list(z.running), "won": list(z.won),
    }
