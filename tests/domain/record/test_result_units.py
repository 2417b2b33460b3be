"""Issue 8, point 2: one unit per result, through the record (commands in, events out).

004: "Vince la partita chi si aggiudica la maggioranza delle smazzate": a Briscola match of
smazzate counts smazzate won, in every ending (normal, timeout, abandon, ruling); MatchEnded's
settlement carries that unit and the points of the MP basis (Cirulla game points, Briscola card
points of the regular smazzate).
000 and 004, "Parità": "verrà giocata un'altra smazzata ("1° spareggio") e si aggiudicherà
l'incontro chi farà più punti": a spareggio decides the winner and adds nothing to the totals or
to MP, after a forfeit too (docs/rules-interpretations.md, "Match formats").
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.cirulla.forfeit import awarded_points
from domain.events import CardPlayed, SmazzataEnded
from domain.match_format import MatchFormat, match_points, match_status
from domain.record.commands import RecordRuling
from domain.record.decide import decide
from domain.record.events import Abandoned, MatchEnded
from domain.record.match import Phase
from domain.record.simulate import Incidents
from domain.shuffle import Seed
from tests.domain.record.test_forfeit_phases import (
    Action,
    check_forfeit,
    forfeit_action,
    match,
    record,
    regular_points,
)

SEED = Seed(b"\x5e" * 16)


def _plays_in_first_smazzata(actions: list[Action]) -> int:
    plays = 0
    for action in actions:
        plays += sum(isinstance(e, CardPlayed) for e in action.events)
        if any(isinstance(e, SmazzataEnded) for e in action.events):
            return plays
    raise AssertionError("no smazzata ended")


def _final(actions: list[Action]) -> MatchEnded:
    ended = [e for a in actions for e in a.events if isinstance(e, MatchEnded)]
    assert ended
    return ended[-1]


@pytest.mark.parametrize("players", [2, 4])
def test_briscola_smazzate_match_reports_smazzate_won_in_every_ending(players: int) -> None:
    """"Vince la partita chi si aggiudica la maggioranza delle smazzate": the scores are smazzate
    won whether the match ends normally, by timeout or by abandon; the card points are in the
    settlement, and MP is their difference."""
    fmt = MatchFormat.parse("3smazzate", "briscola")
    demo = match("briscola", fmt, players, SEED)
    normal = record(demo, Incidents())
    ended = _final(normal)
    results = [a.after.results[-1] for a in normal
               if any(isinstance(e, SmazzataEnded) for e in a.events)]
    assert ended.settlement is not None and ended.settlement.unit == "smazzate"
    assert ended.scores == match_status(fmt, results).totals
    assert max(ended.scores) >= 2
    assert ended.settlement.points == regular_points(fmt, results)
    assert sum(ended.settlement.points) == 120 * len(results)
    assert ended.settlement.mp == match_points(fmt, results)
    first = _plays_in_first_smazzata(normal)
    for trouble in (Incidents(timeout_at=first + 7), Incidents(abandon_at=first + 7)):
        actions = record(demo, trouble)
        action = forfeit_action(actions)
        assert action is not None and action.before.smazzata == 1
        check_forfeit(action)
        forfeited = _final(actions)
        assert forfeited.settlement is not None and forfeited.settlement.unit == "smazzate"
        assert forfeited.scores in ((1, 0), (0, 1), (0, 0))   # smazzate won, not card points
        assert sum(forfeited.settlement.points) > 120


@pytest.mark.parametrize("players", [2, 4])
def test_cirulla_scores_are_game_points_in_every_ending(players: int) -> None:
    """000: the match counts game points ("punti"): scores and the MP basis are the same numbers
    after a normal end, a timeout and an abandon."""
    fmt = MatchFormat.parse("21pt", "cirulla")
    demo = match("cirulla", fmt, players, SEED)
    for trouble in (Incidents(), Incidents(timeout_at=40), Incidents(abandon_at=40)):
        ended = _final(record(demo, trouble))
        assert ended.settlement is not None and ended.settlement.unit == "punti"
        assert ended.scores == ended.settlement.points
        winner = ended.winner
        assert winner is not None
        assert ended.settlement.mp == max(0, ended.scores[winner] - ended.scores[1 - winner])


@pytest.mark.parametrize(("game", "fmt_text", "unit"), [("cirulla", "21pt", "punti"),
                                                        ("briscola", "3smazzate", "smazzate"),
                                                        ("briscola", "punti", "punti")])
def test_a_ruling_after_a_forfeit_keeps_the_unit(game: str, fmt_text: str, unit: str) -> None:
    """RulingRecorded "adjustment is added to the match totals" (in the format's unit): in
    points it moves the MP basis too; in smazzate won it leaves the card points as they were."""
    fmt = MatchFormat.parse(fmt_text, game)
    actions = record(match(game, fmt, 2, SEED), Incidents(abandon_at=10))
    ended = _final(actions)
    state = actions[-1].after
    assert state.phase is Phase.ENDED and ended.settlement is not None
    ruling = RecordRuling(arbiter="arbitro", reason="conteggio", kind="adjust-score",
                          adjustment=(1, 0), refers_to=state.version)
    restated = decide(state, ruling, actions[-1].at + timedelta(minutes=1))[-1]
    assert isinstance(restated, MatchEnded) and restated.settlement is not None
    assert restated.settlement.unit == unit == ended.settlement.unit
    assert restated.scores == (ended.scores[0] + 1, ended.scores[1])
    before = ended.settlement.points
    points = (before[0] + 1, before[1]) if unit == "punti" else before
    assert restated.settlement.points == points
    winner = restated.winner
    assert winner is not None
    assert restated.settlement.mp == max(0, points[winner] - points[1 - winner])


def _level_first_smazzata(game: str, players: int) -> tuple[MatchFormat, Seed, int]:
    """A KO match of one smazzata whose first smazzata ends level (a spareggio follows): the
    first of a bounded search, and the plays of that first smazzata."""
    fmt = MatchFormat.parse("1smazzate", game, ko=True)
    for n in range(2000):
        seed = Seed(n.to_bytes(16, "big"))
        actions = record(match(game, fmt, players, seed), Incidents())
        first = next(e for a in actions for e in a.events if isinstance(e, SmazzataEnded))
        if first.scores[0] == first.scores[1]:
            return fmt, seed, _plays_in_first_smazzata(actions)
    raise AssertionError("no level smazzata in 2000")


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_a_forfeit_in_a_spareggio_adds_nothing_of_the_spareggio_to_the_totals(
        game: str, players: int) -> None:
    """"Parità ... si aggiudicherà l'incontro chi farà più punti": the spareggio names the
    winner; after a timeout or abandon in it the totals and MP are the regular smazzate's points
    plus the penalty, in both games, never the spareggio's own points."""
    fmt, seed, first = _level_first_smazzata(game, players)
    demo = match(game, fmt, players, seed)
    late = first + (20 if players == 2 else 8)
    actions = record(demo, Incidents(abandon_at=late))
    action = forfeit_action(actions)
    assert action is not None
    state = action.before
    assert state.phase is Phase.PLAY and match_status(fmt, list(state.counted())).next_tiebreak
    made = awarded_points(state.game) if game == "cirulla" else state.game.points
    assert made != (0, 0)   # the spareggio has points of its own, which must not count
    check_forfeit(action)
    fact = action.events[0]
    ended = _final(actions)
    assert isinstance(fact, Abandoned) and ended.settlement is not None
    regular = regular_points(fmt, list(state.counted()))
    expected = (regular[0] + fact.awarded[0], regular[1] + fact.awarded[1])
    assert ended.settlement.points == expected
    # Cirulla counts points; this Briscola match counts smazzate won: none (60-60).
    assert ended.scores == (expected if game == "cirulla" else (0, 0))
