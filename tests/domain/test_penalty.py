"""Timeout and abandon: 000 and 004, "Penalità in caso di tempo scaduto o abbandono"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.penalty import PenaltyError, forfeit, penalty_awarded, penalty_rules

games = st.sampled_from(("cirulla", "briscola"))
totals = st.tuples(st.integers(0, 200), st.integers(0, 200))


def test_cirulla_punti_non_aggiudicati_all_avversario_con_l_aggiunta_di_una_scopa() -> None:
    """000: "si assegnano tutti i punti ancora non aggiudicati all'avversario con l'aggiunta di
    una scopa"."""
    settled = forfeit("cirulla", (10, 12), guilty_side=1, unawarded_points=3)
    assert (settled.winner, settled.awarded, settled.final_totals) == (0, 4, (14, 12))
    assert settled.point_difference == 2


def test_cirulla_la_penalita_massima_e_pari_a_6_punti() -> None:
    """000: "fermo restando che la penalità massima è pari a 6 punti" (the scopa included)."""
    assert [penalty_awarded("cirulla", n) for n in (0, 4, 5, 6, 15)] == [1, 5, 6, 6, 6]


def test_briscola_fino_a_un_massimo_di_20_punti() -> None:
    """004: "si assegnano tutti o punti ancora non aggiudicati all'avversario fino a un massimo
    di 20 punti": no extra scopa in Briscola."""
    assert [penalty_awarded("briscola", n) for n in (0, 12, 20, 35, 120)] == [0, 12, 20, 20, 20]


def test_punteggio_ancora_a_favore_differenza_zero_ma_partita_persa() -> None:
    """000/004: "se il punteggio è ancora a favore di chi ha fatto scadere il tempo o il timeout,
    la differenza punti è uguale a zero (ma la partita è comunque persa da chi ha fatto scadere
    il tempo)"."""
    settled = forfeit("cirulla", (20, 5), guilty_side=0, unawarded_points=2)
    assert (settled.winner, settled.final_totals, settled.point_difference) == (1, (20, 8), 0)
    level = forfeit("briscola", (40, 60), guilty_side=1, unawarded_points=20)
    assert (level.winner, level.final_totals, level.point_difference) == (0, (60, 60), 0)


@pytest.mark.parametrize(("game", "before", "guilty", "unawarded", "message"), [
    ("tressette", (0, 0), 0, 1, "game"),
    ("cirulla", (0, 0), 2, 1, "guilty_side"),
    ("cirulla", (0, -1), 0, 1, "totals_before"),
    ("cirulla", (0, 0), 0, -1, "unawarded_points"),
    ("briscola", (0, 0), 0, 121, "120"),
])
def test_bad_forfeits_are_refused(game: str, before: tuple[int, int], guilty: int,
                                  unawarded: int, message: str) -> None:
    with pytest.raises(PenaltyError, match=message):
        forfeit(game, before, guilty, unawarded)


@given(games, totals, st.sampled_from((0, 1)), st.integers(0, 120))
def test_the_guilty_side_never_wins(game: str, before: tuple[int, int], guilty: int,
                                    unawarded: int) -> None:
    """000/004: "il giocatore perde la partita" whatever the score."""
    settled = forfeit(game, before, guilty, unawarded)
    assert settled.winner == 1 - guilty
    assert settled.guilty_side == guilty
    assert settled.point_difference >= 0
    winner_total, guilty_total = settled.final_totals[settled.winner], settled.final_totals[guilty]
    assert settled.point_difference == max(0, winner_total - guilty_total)


@given(games, totals, st.sampled_from((0, 1)), st.integers(0, 120))
def test_awarded_points_are_capped_and_only_go_to_the_winner(
        game: str, before: tuple[int, int], guilty: int, unawarded: int) -> None:
    settled = forfeit(game, before, guilty, unawarded)
    assert 0 <= settled.awarded <= penalty_rules(game).cap
    assert settled.awarded <= unawarded + (1 if game == "cirulla" else 0)
    assert settled.final_totals[guilty] == before[guilty]
    assert sum(settled.final_totals) == sum(before) + settled.awarded


@given(games, st.integers(0, 119))
def test_more_unawarded_points_never_award_less(game: str, unawarded: int) -> None:
    assert penalty_awarded(game, unawarded) <= penalty_awarded(game, unawarded + 1)
