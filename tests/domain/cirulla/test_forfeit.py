"""Timeout or abandon in a Cirulla smazzata (000, "Penalità ..."), C12 case by case."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from domain.cirulla.engine import smazzata_score
from domain.cirulla.forfeit import awarded_points, unawarded_points
from domain.cirulla.ruleset import STANDARD, Ruleset
from domain.cirulla.state import AccusoRecord, CirullaState
from domain.penalty import forfeit
from domain.shuffle import Seed
from tests.domain.cirulla.helpers import cards, players, position, random_smazzata, rulesets, seeds
from tests.replacing import replace

FINO_AL_7 = replace(STANDARD, piccola_fino_al=7)


def at(winner_pile: str, guilty_pile: str, ruleset: Ruleset = STANDARD) -> CirullaState:
    """A smazzata in progress: side 0 (the winner) and side 1 (guilty) hold these piles."""
    state = position(["", ""], "", ruleset)
    return state._replace(captured=(cards(winner_pile), cards(guilty_pile)))


def _codes(start: int, stop: int) -> str:
    return " ".join(c.code for c in DECK[start:stop])


# (winner's pile, guilty's pile, ruleset, awarded (side 0, side 1), unawarded to side 0)
CASES = {
    "nothing taken: everything is open": ("", "", STANDARD, (0, 0), 1 + 1 + 1 + 1 + 5 + 6),
    "nothing taken, piccola to the 7": ("", "", FINO_AL_7, (0, 0), 1 + 1 + 1 + 1 + 5 + 7),
    "settebello taken by the winner": ("7d", "", STANDARD, (1, 0), 15 - 1),
    "settebello taken by the guilty": ("", "7d", STANDARD, (0, 1), 15 - 1),
    "denari and piccola (A-6) decided for the winner":
        ("Ad 2d 3d 4d 5d 6d", "", STANDARD, (1 + 6, 0), 1 + 1 + 1 + 5),
    "denari decided, piccola A-6 still open to the 7":
        ("Ad 2d 3d 4d 5d 6d", "", FINO_AL_7, (1, 0), 1 + 1 + 1 + 5 + 7),
    "denari and piccola decided for the guilty":
        ("", "Ad 2d 3d 4d 5d 6d", STANDARD, (0, 1 + 6), 1 + 1 + 1 + 5),
    "denari out of the winner's reach, grande and piccola broken":
        ("", "Ad 2d 4d Fd Cd", STANDARD, (0, 0), 1 + 1 + 1),
    "carte decided for the winner": (_codes(10, 31), "", STANDARD, (1, 0), 1 + 1 + 1 + 5 + 6),
    # The guilty side holds every card but the denari: carte out of the winner's reach, and so is
    # primiera, since the winner cannot show four suits.
    "carte out of the winner's reach": ("", _codes(10, 30), STANDARD, (0, 0), 1 + 1 + 5 + 6),
    # All four sevens with the guilty side: 84, beyond any sum the winner could still make.
    "primiera out of the winner's reach":
        ("", "7d 7c 7b 7s", STANDARD, (0, 1), 1 + 1 + 5 + 6),
    "grande made by the winner": ("Fd Cd Rd", "", STANDARD, (5, 0), 1 + 1 + 1 + 1 + 6),
    "grande still open": ("Fd Cd", "", STANDARD, (0, 0), 15),
    "grande broken by the guilty": ("", "Rd", STANDARD, (0, 0), 15 - 5),
    "piccola closed by the guilty's 4": ("Ad 2d 3d", "4d", STANDARD, (3, 0), 1 + 1 + 1 + 1 + 5),
    "piccola of the winner still growing": ("Ad 2d 3d", "", STANDARD, (0, 0), 15),
    "piccola the winner can reach to the 3 only":
        ("", "4d", STANDARD, (0, 0), 1 + 1 + 1 + 1 + 5 + 3),
    "piccola of the guilty still open": ("", "Ad 2d 3d", STANDARD, (0, 0), 1 + 1 + 1 + 1 + 5),
}


@pytest.mark.parametrize("case", list(CASES))
def test_c12_punti_ancora_non_aggiudicati_case_by_case(case: str) -> None:
    """C12, 000: "si assegnano tutti i punti ancora non aggiudicati all'avversario": each
    category is either decided (its points stay with who made them) or open (the opponent of
    the guilty side gets it if he could still win it)."""
    winner_pile, guilty_pile, ruleset, awarded, unawarded = CASES[case]
    state = at(winner_pile, guilty_pile, ruleset)
    assert awarded_points(state) == awarded
    assert unawarded_points(state, guilty_side=1) == unawarded
    swapped = state._replace(captured=(state.captured[1], state.captured[0]))
    assert unawarded_points(swapped, guilty_side=0) == unawarded
    assert awarded_points(swapped) == (awarded[1], awarded[0])


def test_c12_scope_and_accusi_are_awarded_as_made() -> None:
    """Scope and accusi are points already "aggiudicati" the moment they are made."""
    state = at("", "")._replace(scope=(2, 1), accusi=(
        AccusoRecord(0, "cirulla", cards("Ad 2c 3b"), 3, None),
        AccusoRecord(1, "decino", cards("4d 4c 4b"), 10, None)))
    assert awarded_points(state) == (2 + 3, 1 + 10)
    assert unawarded_points(state, guilty_side=1) == 15


def test_c12_la_penalita_massima_e_pari_a_6_punti() -> None:
    """000: "con l'aggiunta di una scopa, fermo restando che la penalità massima è pari a 6
    punti": 15 open points + 1 scopa are capped at 6; 3 + 1 are not."""
    start = at("", "")
    settled = forfeit("cirulla", (10, 3), 1, unawarded_points(start, 1))
    assert (settled.awarded, settled.final_totals, settled.point_difference) == (6, (16, 3), 13)
    late = at("", "Ad 2d 4d Fd Cd")
    settled = forfeit("cirulla", (10, 3), 1, unawarded_points(late, 1))
    assert (settled.awarded, settled.final_totals) == (4, (14, 3))


def test_c12_se_il_punteggio_e_ancora_a_favore_del_colpevole_differenza_zero() -> None:
    """000: "se il punteggio è ancora a favore di chi ha fatto scadere il tempo o il timeout, la
    differenza punti è uguale a zero (ma la partita è comunque persa da chi ha fatto scadere il
    tempo)"."""
    late = at("Ad 2d 4d Fd Cd", "")
    settled = forfeit("cirulla", (20, 5), 0, unawarded_points(late, 0))
    assert settled.winner == 1 and settled.final_totals == (20, 9)
    assert settled.point_difference == 0


@given(rulesets, players, seeds, st.randoms(use_true_random=False), st.sampled_from((0, 1)))
def test_awarded_points_only_grow_and_end_as_the_score_without_primiera(
        ruleset: Ruleset, table: int, seed: Seed, rng: random.Random, guilty: int) -> None:
    """Points once "aggiudicati" stay so: awarded points never fall during a smazzata, never
    exceed the final score, and at the end are the whole score but the primiera (open to the
    last card). The penalty never exceeds 6 and always goes to the other side."""
    played = random_smazzata(ruleset, table, seed, rng)
    final = smazzata_score(played.final).totals
    before = (0, 0)
    for state in played.states:
        now = awarded_points(state)
        assert before[0] <= now[0] <= final[0] and before[1] <= now[1] <= final[1]
        before = now
        settled = forfeit("cirulla", now, guilty, unawarded_points(state, guilty))
        assert settled.winner == 1 - guilty and 1 <= settled.awarded <= 6
    primiera = smazzata_score(played.final).row("primiera")
    assert awarded_points(played.final) == (final[0] - primiera[0], final[1] - primiera[1])
