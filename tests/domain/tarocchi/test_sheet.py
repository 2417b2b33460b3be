"""003 allegato: the arithmetic of the Scheda Punteggio Giocatore, over random valid smazzate."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.tarocchi.checks import findings
from domain.tarocchi.sheet import Role, Roles, SheetError, check_games, diff, molt, parz
from tests.domain.tarocchi.builders import Hand, drawn, hands, placed, write

TABLE = drawn(4)
SEATS = TABLE.turns[0].tables[0]


def test_moltiplicatore_per_ruolo() -> None:
    """Allegato, MOLT: "x 1 se in quella mano ha giocato con un compagno contro gli altri due
    avversari (mano standard) o con due compagni contro un Solista, dichiarato con 15 carte. x 2
    se ... avversario di un Solista di 5 carte ... x 3 se ... Solista ... (solità normale
    dichiarata con 15 carte) ... x 6 se ... Solista di 5 carte"."""
    assert molt(Role.CHIAMANTE, None) == molt(Role.COMPAGNO, None) == 1
    assert molt(Role.AVVERSARIO, None) == 1
    assert molt(Role.AVVERSARIO, 15) == 1 and molt(Role.SOLISTA, 15) == 3
    assert molt(Role.AVVERSARIO, 5) == 2 and molt(Role.SOLISTA, 5) == 6
    with pytest.raises(SheetError):
        molt(Role.SOLISTA, None)


def test_parz_mano_diff_per_molt_meno_penalita() -> None:
    """Allegato: "PARZ. MANO = DIFF +/- x MOLT. - e si indicano a sottrarre eventuali penalità
    ricevute"; DIFF: "la differenza tra i due numeri precedenti (col suo segno)"."""
    plus, minus = (("RIM", 1), ("RE", 2)), (("VAN", 1),)
    assert diff(plus, minus) == 2
    assert parz(diff(plus, minus), 3, 1) == 5
    assert diff(minus, plus) == -2


def test_kinds_of_game_are_those_of_the_legend() -> None:
    with pytest.raises(SheetError, match="kind of game 'XY'"):
        check_games((("XY", 1),))
    with pytest.raises(SheetError, match="1 or more"):
        check_games((("RE", 0),))


@given(hands(), st.integers(1, 4))
def test_a_valid_smazzata_adds_up_and_sums_to_zero(hand: Hand, smazzata: int) -> None:
    """Any smazzata written as the allegato says gives no finding on its lines, and the four
    PARZ before penalties cancel out (the multipliers balance: 3 = 1+1+1, 6 = 2+2+2)."""
    state = TABLE
    for number in range(1, 5):
        chosen = hand if number == smazzata else None
        state = write(state, 1, SEATS, number, placed(chosen, SEATS, number))
    players = [state.player_lines[(p, 1, smazzata)] for p in SEATS.players]
    assert sum(p.diff * p.molt for p in players) == 0
    assert findings(state) == ()


@given(hands())
def test_tot_is_the_running_sum_of_parz(hand: Hand) -> None:
    """Allegato, TOT: "la somma del valore appena riportato nella casella PARZ.MANO con il
    TOT. riportato nella riga ... precedente"."""
    state = TABLE
    for smazzata in range(1, 5):
        state = write(state, 1, SEATS, smazzata, placed(hand, SEATS, smazzata))
    for player in SEATS.players:
        sheet = [state.player_lines[(player, 1, s)] for s in range(1, 5)]
        assert sheet[-1].tot == sum(line.parz for line in sheet)
    assert findings(state) == ()


def test_roles_that_cannot_be() -> None:
    assert Roles(1, 1).problem((1, 2, 3, 4)) is not None
    assert Roles(1, 2, 3, 15).problem((1, 2, 3, 4)) is not None
    assert Roles(solista=1, solista_cards=10).problem((1, 2, 3, 4)) is not None
    assert Roles(1, 9).problem((1, 2, 3, 4)) is not None
    assert Roles(1, 2).problem((1, 2, 3, 4)) is None
