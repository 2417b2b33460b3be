"""Timeout and abandon: the guilty side loses and the opponent gets the points not yet awarded.

Sources 000 and 004, "Penalità in caso di tempo scaduto o abbandono". What "not yet awarded"
means at a given moment of a smazzata is each game engine's business (it passes the number in
as `unawarded_points`); this module applies the generic part: the extra scopa (Cirulla), the
cap, the lost match and the point difference. `totals_before` is the match standing on the MP
basis: Cirulla game points, Briscola card points of the match including the current smazzata.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.text import say


@dataclass(frozen=True, slots=True)
class PenaltyRules:
    """One game's part of a forfeit: the cap on the points awarded, the extra points added to
    the unawarded ones, and the most points a smazzata can leave unawarded (None: no bound).

    000: "con l'aggiunta di una scopa, fermo restando che la penalità massima è pari a 6 punti";
    004: "all'avversario fino a un massimo di 20 punti" (of the 120 card points of a smazzata).
    """

    cap: int
    extra: int = 0
    most_unawarded: int | None = None


class PenaltyError(ValueError):
    """A forfeit asked with a game, side or score that cannot be."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    guilty_side: int
    winner: int
    totals_before: tuple[int, int]
    awarded: int
    final_totals: tuple[int, int]
    point_difference: int


def penalty_rules(game: str) -> PenaltyRules:
    """The penalty rules of `game`, from the game registry (domain/games.py)."""
    from domain.games import games  # the games import this module

    for known in games():
        if known.name == game:
            return known.penalty
    raise PenaltyError(say("forfeit: game {game} is not one of {games}", game=repr(game),
                           games=", ".join(g.name for g in games())))


def penalty_awarded(game: str, unawarded_points: int) -> int:
    """Points given to the opponent: the unawarded ones (+1 scopa in Cirulla), capped."""
    rules = penalty_rules(game)
    _check_count("unawarded_points", unawarded_points)
    if rules.most_unawarded is not None and unawarded_points > rules.most_unawarded:
        raise PenaltyError(say("forfeit: {points} unawarded card points; a smazzata has 120",
                               points=unawarded_points))
    return min(unawarded_points + rules.extra, rules.cap)


def forfeit(game: str, totals_before: tuple[int, int], guilty_side: int,
            unawarded_points: int) -> Forfeit:
    """The settlement when `guilty_side` lets the time run out or abandons.

    "il giocatore perde la partita": the guilty side loses whatever the score; "se il punteggio
    è ancora a favore di chi ha fatto scadere il tempo ... la differenza punti è uguale a zero".
    """
    if guilty_side not in (0, 1):
        raise PenaltyError(say("forfeit: guilty_side must be 0 or 1, not {value}",
                               value=repr(guilty_side)))
    if len(totals_before) != 2:
        raise PenaltyError(say("forfeit: totals_before must be two ints, not {value}",
                               value=repr(totals_before)))
    for side, total in enumerate(totals_before):
        _check_count(f"totals_before[{side}]", total)
    awarded = penalty_awarded(game, unawarded_points)
    winner = 1 - guilty_side
    final = list(totals_before)
    final[winner] += awarded
    difference = max(0, final[winner] - final[guilty_side])
    return Forfeit(guilty_side, winner, totals_before, awarded, (final[0], final[1]), difference)


def _check_count(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PenaltyError(say("forfeit: {field} must be a non-negative int, not {value}",
                               field=name, value=repr(value)))
