"""Issue 8, point 1: a timeout or abandon costs what the sources say at every phase of the match,
through the record (commands in, events out).

000: "si assegnano tutti i punti ancora non aggiudicati all'avversario con l'aggiunta di una
scopa, fermo restando che la penalità massima è pari a 6 punti" (C12).
004: "si assegnano tutti o punti ancora non aggiudicati all'avversario fino a un massimo di 20
punti" (B2: "before the deal all 120 are open").
Between smazzate (COMMIT, DEAL, REVEAL) the points of the whole next smazzata are open, as just
after a deal; no seat is to move, so only an abandon applies there (docs/rules-interpretations.md,
"C12 and B2 between smazzate").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from domain.briscola.scoring import unawarded_points as briscola_unawarded
from domain.cirulla.forfeit import awarded_points, unawarded_points
from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import BOTS, NAMES, DemoMatch, demo_set, reseeded, seeded_match
from domain.match_format import MatchFormat, MatchKind, SmazzataResult, match_status
from domain.record.catalog import CATALOG
from domain.record.commands import RecordAbandon, RecordTimeout
from domain.record.decide import decide
from domain.record.events import Abandoned, MatchEnded, SeedRevealed, TimeoutRecorded
from domain.record.match import MatchEvent, MatchState, Phase
from domain.record.refusal import RecordRefused
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed

START = datetime(2026, 11, 24, 22, 0, tzinfo=UTC)
CAP = {"cirulla": 6, "briscola": 20}


@dataclass(frozen=True)
class Action:
    events: tuple[MatchEvent, ...]
    before: MatchState
    after: MatchState
    at: datetime


def record(demo: DemoMatch, trouble: Incidents) -> list[Action]:
    """Every action of the match as the record decided it, with the states around it."""
    actions: list[Action] = []
    before: MatchState | None = None
    table = Table(demo.match_seed, BOTS[demo.setup.game], trouble)
    for events, at, after in play_locally(CATALOG, demo.setup, table, START):
        if before is not None:
            actions.append(Action(events, before, after, at))
        before = after
    return actions


def forfeit_action(actions: list[Action]) -> Action | None:
    found = [a for a in actions if isinstance(a.events[0], TimeoutRecorded | Abandoned)]
    assert len(found) <= 1
    return found[0] if found else None


def match(game: str, fmt: MatchFormat, players: int, seed: Seed) -> DemoMatch:
    return seeded_match(game, fmt, STANDARD if game == "cirulla" else None, NAMES[:players], seed)


def regular_points(fmt: MatchFormat, results: list[SmazzataResult]) -> tuple[int, int]:
    """Game or card points of the regular smazzate: a result is regular when no spareggio was
    due before it (match_status of the results before it)."""
    points = [0, 0]
    for index, result in enumerate(results):
        if match_status(fmt, results[:index]).next_tiebreak == 0:
            points[0] += result.points[0]
            points[1] += result.points[1]
    return (points[0], points[1])


def expected_award(state: MatchState, guilty_side: int) -> int:
    """The documented reading at the phase of `state`: during play, the open points of the
    smazzata in progress; between smazzate, those of a whole fresh smazzata."""
    game = state.rules.name
    if state.phase is not Phase.PLAY:
        return CAP[game]  # 15 + 1 scopa capped at 6; 120 capped at 20
    if game == "cirulla":
        return min(unawarded_points(state.game, guilty_side) + 1, 6)
    return min(briscola_unawarded(state.game), 20)


def check_forfeit(action: Action) -> None:
    """The forfeit's events follow the documented reading at the phase it happened."""
    state = action.before
    assert state.seating is not None and state.setup is not None
    fact, *rest = action.events
    assert isinstance(fact, TimeoutRecorded | Abandoned)
    guilty = state.seating.side_of(fact.seat)
    award = expected_award(state, guilty)
    assert fact.awarded == ((0, award) if guilty == 0 else (award, 0))
    ended = rest[-1]
    assert isinstance(ended, MatchEnded) and ended.settlement is not None
    reveals = [e for e in rest if isinstance(e, SeedRevealed)]
    assert reveals == ([SeedRevealed(smazzata=state.smazzata, seed=reveals[0].seed)]
                       if state.commitment is not None else [])
    assert ended.winner == 1 - guilty and ended.reason == ("abandon" if isinstance(
        fact, Abandoned) else "timeout")
    fmt: MatchFormat = state.setup.match_format
    results = list(state.counted())
    points = list(regular_points(fmt, results))
    in_spareggio = match_status(fmt, results).next_tiebreak > 0
    if state.phase is Phase.PLAY and not in_spareggio:
        made = (awarded_points(state.game) if fmt.game == "cirulla" else state.game.points)
        points = [points[0] + made[0], points[1] + made[1]]
    points[1 - guilty] += award
    assert ended.settlement.points == (points[0], points[1])
    winner = 1 - guilty
    assert ended.settlement.mp == max(0, points[winner] - points[guilty])
    if fmt.game == "briscola" and fmt.kind is MatchKind.SMAZZATE:
        assert ended.settlement.unit == "smazzate"
        assert ended.scores == match_status(fmt, results).totals
    else:
        assert ended.settlement.unit == "punti"
        assert ended.scores == ended.settlement.points


FORMATS = {"cirulla": MatchFormat.parse("21pt", "cirulla"),
           "briscola": MatchFormat.parse("3smazzate", "briscola")}
SEED = Seed(b"\x5e" * 16)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", ["cirulla", "briscola"])
@pytest.mark.parametrize("when", [(0, "commit"), (0, "reveal"), (1, "commit"), (1, "deal")])
def test_an_abandon_between_smazzate_gives_all_the_points_of_a_fresh_smazzata(
        game: str, players: int, when: tuple[int, str]) -> None:
    """C12 "tutti i punti ancora non aggiudicati ... con l'aggiunta di una scopa ... massima 6";
    B2 "fino a un massimo di 20 punti", "before the deal all 120 are open": between smazzate a
    whole smazzata is open, so Cirulla awards 6 and Briscola 20, at COMMIT, DEAL and REVEAL."""
    demo = match(game, FORMATS[game], players, SEED)
    actions = record(demo, Incidents(abandon_between=(*when, 1)))
    action = forfeit_action(actions)
    assert action is not None and action.before.phase.value == when[1]
    assert action.before.smazzata == when[0]
    check_forfeit(action)
    kinds = [type(e).__name__ for e in action.events]
    reveal = ["SeedRevealed"] if when[1] in ("deal", "reveal") else []
    assert kinds == ["Abandoned", *reveal, "MatchEnded"]
    fact = action.events[0]
    assert isinstance(fact, Abandoned) and fact.awarded == (CAP[game], 0)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_between_smazzate_costs_what_just_after_the_deal_costs(game: str, players: int) -> None:
    """The same "punti ancora non aggiudicati" before the deal and right after it (no card
    played yet): Cirulla 6 (15 open + the scopa, capped), Briscola 20 (120 open, capped)."""
    demo = match(game, FORMATS[game], players, SEED)
    dealt = forfeit_action(record(demo, Incidents(abandon_at=0)))
    before = forfeit_action(record(demo, Incidents(abandon_between=(0, "deal", 1))))
    assert dealt is not None and before is not None
    assert dealt.before.phase is Phase.PLAY and before.before.phase is Phase.DEAL
    first = dealt.events[0]
    second = before.events[0]
    assert isinstance(first, Abandoned) and isinstance(second, Abandoned)
    assert dealt.before.seating is not None
    side = dealt.before.seating.side_of(first.seat)
    assert first.awarded == ((0, CAP[game]) if side == 0 else (CAP[game], 0))
    assert second.awarded == (CAP[game], 0)


@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_a_timeout_between_smazzate_is_refused_no_seat_is_to_move(game: str) -> None:
    """"Se il giocatore fa scadere il tempo ... o il timeout": time runs on a seat's move; between
    smazzate the commitment, the deal and the reveal are the table's, so only an abandon applies
    there (the refusal names the rule "phase")."""
    demo = match(game, FORMATS[game], 2, SEED)
    seen: set[Phase] = set()
    for action in record(demo, Incidents()):
        state = action.after
        if state.phase in (Phase.COMMIT, Phase.DEAL, Phase.REVEAL) and state.phase not in seen:
            seen.add(state.phase)
            for seat in (0, 1):
                with pytest.raises(RecordRefused) as refused:
                    decide(state, RecordTimeout(seat=seat), action.at + timedelta(hours=1))
                assert refused.value.rule == "phase"
    assert seen == {Phase.COMMIT, Phase.DEAL, Phase.REVEAL}


@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_no_abandon_once_the_last_smazzata_decided_the_match(game: str) -> None:
    """The smazzata that decides the match leaves only its seed reveal: "la partita ha termine"
    already, so an abandon there is refused and the match ends as the format says."""
    fmt = MatchFormat.parse("1smazzate", game)
    demo = match(game, fmt, 2, SEED)
    actions = record(demo, Incidents(abandon_between=(0, "reveal", 0)))
    assert forfeit_action(actions) is None
    last_reveal = next(a.after for a in actions if a.after.phase is Phase.REVEAL)
    with pytest.raises(RecordRefused) as refused:
        decide(last_reveal, RecordAbandon(seat=0, reason="ritiro"), START + timedelta(days=1))
    assert refused.value.rule == "abandon"
    ended = [e for a in actions for e in a.events if isinstance(e, MatchEnded)]
    assert ended and ended[0].reason != "abandon"


DEMOS = demo_set(Seed(b"\x0d" * 16))
PHASES = ("commit", "deal", "reveal")


@st.composite
def troubles(draw: st.DrawFn, players: int) -> Incidents:
    kind = draw(st.sampled_from(["timeout", "abandon", "between"]))
    if kind == "timeout":
        return Incidents(timeout_at=draw(st.integers(0, 90)))
    if kind == "abandon":
        return Incidents(abandon_at=draw(st.integers(0, 90)))
    return Incidents(abandon_between=(draw(st.integers(0, 3)), draw(st.sampled_from(PHASES)),
                                      draw(st.integers(0, players - 1))))


@given(st.data())
def test_a_forfeit_at_any_phase_awards_what_the_reading_of_that_phase_says(
        data: st.DataObject) -> None:
    """Property (issue 8): random recorded matches, both games, 2 and 4 players, every format,
    with a timeout or abandon injected at a random play or between smazzate: the awarded points,
    the final points and the scores follow the documented reading at that phase."""
    index = data.draw(st.integers(0, len(DEMOS) - 1))
    demo = reseeded(DEMOS[index], Seed(bytes([data.draw(st.integers(0, 255)), 0x71]) * 8))
    trouble = data.draw(troubles(len(demo.setup.players)))
    actions = record(demo, trouble)
    action = forfeit_action(actions)
    if action is None:   # the match was over before the incident, or it was at a deciding reveal
        assert actions[-1].after.phase is Phase.ENDED
        return
    event(f"forfeit at phase {action.before.phase.value}")
    check_forfeit(action)
    assert actions[-1].after.phase is Phase.ENDED
