"""003 art. 7-8: the catalogue of penalties, their points and the smazzata's fate."""

from __future__ import annotations

import pytest

from domain.tarocchi.commands import ImposePenalty
from domain.tarocchi.decide import TarocchiRefused, decide
from domain.tarocchi.events import PenaltyImposed
from domain.tarocchi.penalties import CATALOGUE, Fate, PenaltyError, fate_of, penalty_points
from domain.tarocchi.sheet import Roles
from tests.domain.tarocchi.builders import Hand, drawn, placed, write

STATE = drawn(4)
TABLE = STATE.turns[0].tables[0]


def test_errato_numero_carte() -> None:
    """8.a: "il giocatore è punito con una penalità di 1 punto partita più eventuali punti
    partita già maturati in negativo"."""
    assert penalty_points("numero-carte") == 1
    assert penalty_points("numero-carte", extra=2) == 3
    assert set(CATALOGUE["numero-carte"].fates) == {Fate.CONTEGGIATA, Fate.RIPETUTA}


def test_scarto_errato() -> None:
    """8.b: "il giocatore è punito con una penalità di 2 punti partita; la smazzata viene quindi
    annullata e ripetuta"."""
    assert penalty_points("scarto-errato") == 2
    assert fate_of("scarto-errato", "ripetuta") is Fate.RIPETUTA
    with pytest.raises(PenaltyError, match="ripetuta, not prosegue"):
        fate_of("scarto-errato", "prosegue")


def test_esposizione_carte_solo_re_arie_picciotti_e_mai_il_solista() -> None:
    """8.c: "Nel caso il giocatore non sia Solista, se la carta esposta è un Re, un'Aria o i
    Picciotti, egli viene penalizzato di 1 punto partita"."""
    assert penalty_points("carta-esposta") == 1
    assert penalty_points("carta-esposta", important_card=False) == 0
    assert penalty_points("carta-esposta", solista=True) == 0


def test_comunicazioni_vietate_come_8c() -> None:
    """8.d: "viene penalizzato, esponendo la carta, e seguendo regole e penalità come da punto
    8.c."."""
    assert penalty_points("comunicazione") == 1
    assert penalty_points("comunicazione", solista=True) == 0


def test_dichiarazione_di_associazione() -> None:
    """8.e: "detta occorrenza è punita con una penalità di 2 punti gioco"."""
    assert penalty_points("associazione") == 2


def test_renonce() -> None:
    """8.f: "se la parte del giocatore che ha commesso la renonce vince la smazzata, essa è
    annullata; se ... perde, allora la smazzata è contabilizzata regolarmente. In entrambi i casi
    il giocatore che ha commesso la renonce viene penalizzato di 3 punti partita"."""
    assert penalty_points("renonce") == 3
    assert {f.value for f in CATALOGUE["renonce"].fates} == {"annullata", "conteggiata"}


def test_errori_di_distribuzione_costano_una_nuova_distribuzione() -> None:
    """Art. 7: "La distribuzione deve essere rieseguita se ..."; no points."""
    assert penalty_points("distribuzione") == penalty_points("carta-girata") == 0


def test_every_kind_names_its_article_and_source_sentence() -> None:
    for kind in CATALOGUE.values():
        assert kind.article[0] in "78" and kind.source and kind.fates


def test_an_arbiter_imposes_it_against_a_player_and_a_smazzata() -> None:
    solo = write(STATE, 1, TABLE, 1, placed(Hand(Roles(solista=1, solista_cards=15), (), ()),
                                            TABLE, 1))
    exposed = decide(solo, ImposePenalty(1, 1, 1, "carta-esposta", "prosegue", "Arbitro",
                                         "re di coppe esposto"))
    assert exposed == (PenaltyImposed(1, 1, 1, "carta-esposta", 0, "prosegue", "Arbitro",
                                      "re di coppe esposto"),)   # the Solista pays nothing
    other = decide(solo, ImposePenalty(2, 1, 1, "carta-esposta", "prosegue", "Arbitro", "re"))
    assert [e.points for e in other if isinstance(e, PenaltyImposed)] == [1]
    with pytest.raises(TarocchiRefused, match="arbiter and its reason"):
        decide(solo, ImposePenalty(2, 1, 1, "renonce", "annullata", " ", "x"))
    with pytest.raises(TarocchiRefused, match="expected one of"):
        decide(solo, ImposePenalty(2, 1, 1, "tosse", "prosegue", "Arbitro", "x"))
    with pytest.raises(TarocchiRefused, match="no extra points"):
        decide(solo, ImposePenalty(2, 1, 1, "renonce", "annullata", "Arbitro", "x", extra=1))
