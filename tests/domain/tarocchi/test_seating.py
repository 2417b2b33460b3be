"""003 art. 2: entrants, teams, the seating draw and turn I; art. 3: the dealer's rotation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.shuffle import Seed
from domain.tarocchi.commands import CreateTarocchiTournament, DrawSeating
from domain.tarocchi.decide import TarocchiRefused, decide
from domain.tarocchi.draw import seating_draw, sorteggio
from domain.tarocchi.entrants import Entrant, EntrantError, check_entrants
from domain.tarocchi.events import TarocchiTournamentCreated
from domain.tarocchi.seats import DEALERS, Position, table_index, table_letter
from domain.tarocchi.state import TarocchiState
from tests.domain.tarocchi.builders import SEATING_SEED, SORTEGGIO_SEED, drawn, entrants, run

seeds = st.binary(min_size=16, max_size=32).map(Seed)


def test_un_torneo_con_numero_di_giocatori_multiplo_di_4() -> None:
    """Art. 2: "In funzione del numero di tavoli si prevede un torneo con numero di giocatori
    multiplo di 4 giocatori"."""
    with pytest.raises(EntrantError, match=r"13 places.*1 fewer places.*3 more players"):
        check_entrants(entrants(13))
    assert len(check_entrants(entrants(12))) == 12


def test_alcuni_giocatori_potranno_associarsi_in_squadra() -> None:
    """Art. 2: "alcuni giocatori potranno anche associarsi in squadra e decidere di partecipare
    come unico giocatore": 13 players make 12 places with one team of two."""
    places = entrants(12, teams=1)
    people = [m for e in places for m in (e.members or (e.name,))]
    assert len(places) == 12 and len(people) == 13
    with pytest.raises(EntrantError, match="plays in two places"):
        check_entrants((*entrants(11), Entrant("Squadra X", ("Giocatore 2", "Nuovo"))))
    with pytest.raises(EntrantError, match="two or more different members"):
        check_entrants((*entrants(11), Entrant("Squadra X", ("Solo", "Solo"))))


def test_tavoli_denominati_con_lettere_maiuscole() -> None:
    """Art. 2: "I tavoli saranno denominati con lettere maiuscole A, B, C, ecc."."""
    assert [table_letter(k) for k in (0, 1, 2, 25, 26, 27)] == ["A", "B", "C", "Z", "AA", "AB"]
    assert all(table_index(table_letter(k)) == k for k in range(800))


@given(seeds, st.integers(1, 10))
def test_i_4_trionfi_piu_alti_al_tavolo_a_dal_piu_alto_nord_al_piu_basso_est(
        seed: Seed, tables: int) -> None:
    """Art. 2: "i 4 trionfi più alti si siederanno al tavolo A in senso antiorario a partire dal
    più alto (Nord), fino al più basso (Est) che sarà il primo mazziere; gli altri 4 siederanno
    al tavolo B con criterio identico, e così via"."""
    places = tables * 4
    draw = seating_draw(seed, places)
    assert sorted(draw.trumps) == list(range(1, places + 1))
    assert sorted(draw.numbers) == list(range(1, places + 1))
    by_number = sorted(range(places), key=lambda k: draw.numbers[k])
    trumps = [draw.trumps[k] for k in by_number]
    assert trumps == sorted(trumps, reverse=True)   # number 1 drew the highest trump


def test_the_draw_is_committed_and_verifiable() -> None:
    """The draw follows from the seed whose commitment was recorded at creation: the same seed
    gives the same numbers, and a seed that does not match is refused."""
    state = drawn(8)
    assert state.draw is not None
    again = seating_draw(Seed.from_hex(state.draw.seed), 8)
    assert (again.trumps, again.numbers) == (state.draw.trumps, state.draw.numbers)
    created = run(TarocchiState(), CreateTarocchiTournament(TarocchiTournamentCreated(
        "T", entrants(8), "precostituito", "fasce", SEATING_SEED.commitment(),
        SORTEGGIO_SEED.commitment())))
    with pytest.raises(TarocchiRefused, match="does not match commitment"):
        decide(created, DrawSeating(SORTEGGIO_SEED))


def test_turn_one_seats_the_numbers_four_by_four() -> None:
    state = drawn(12)
    tables = state.turns[0].tables
    assert [t.letter for t in tables] == ["A", "B", "C"]
    assert tables[0].players == (1, 2, 3, 4)
    assert tables[0].at(Position.NORD) == 1 and tables[0].at(Position.EST) == 4
    assert tables[2].players == (9, 10, 11, 12)


def test_ogni_giocatore_sia_mazziere_una_volta_in_ogni_turno() -> None:
    """Art. 3: "Ogni Turno sarà costituito da 4 smazzate in modo che ogni giocatore sia
    mazziere una volta in ogni Turno"; art. 2: Est "sarà il primo mazziere"."""
    table = drawn(4).turns[0].tables[0]
    dealers = [table.dealer(s) for s in range(1, 5)]
    assert dealers[0] == table.at(Position.EST)
    assert sorted(dealers) == sorted(table.players)
    assert DEALERS == (Position.EST, Position.NORD, Position.OVEST, Position.SUD)


@given(seeds, st.integers(1, 4), st.integers(4, 40))
def test_the_tie_break_draw_is_a_permutation_fixed_by_seed_and_turn(
        seed: Seed, turn: int, places: int) -> None:
    lots = sorteggio(seed, turn, places)
    assert sorted(lots) == list(range(places))
    assert lots == sorteggio(seed, turn, places)
