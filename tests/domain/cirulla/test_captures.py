"""The captures of source 000, "Il gioco della carta", and the options C3 and C16."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK, MATTA, Card, Rank, parse_cards
from domain.cirulla.captures import legal_plays, legal_plays_on
from domain.cirulla.reference import reference_legal_plays
from domain.cirulla.ruleset import STANDARD, AssoSuAsso, PresaObbligata, Ruleset
from domain.cirulla.state import notation, taken
from tests.domain.cirulla.helpers import position, rulesets
from tests.replacing import replace

LIBERO = replace(STANDARD, asso_su_asso=AssoSuAsso.LIBERO)
MANO = replace(STANDARD, presa_obbligata=PresaObbligata.MANO)


def plays_on(table: str, hand: str, ruleset: Ruleset = STANDARD,
             matta_value: int | None = None) -> set[str]:
    """The legal plays in the notation of `verbale legal` (`4d x 4c 7b`; `4d` a discard)."""
    found = legal_plays_on(parse_cards(table), parse_cards(hand), ruleset, matta_value)
    notations = [notation(p) for p in found]
    assert len(notations) == len(set(notations)), "a play is listed twice"
    return set(notations)


# ---- the two worked examples of 000 -------------------------------------------------------------

def test_esempio_in_tavola_4_7_2_con_un_4_in_mano() -> None:
    """000: "Esempio: in tavola ci sono un 4, un 7 e un 2. Se tra le carte in mano si ha un 4 è
    possibile effettuare due prese: 1) il 4 e il 7 (somma 15) 2) il 4 da solo"."""
    assert plays_on("4c 7b 2s", "4d") == {"4d x 4c", "4d x 4c 7b"}


def test_esempio_in_tavola_5_5_3_2_giocando_un_10() -> None:
    """000: "se in tavola fossero presenti 5, 5, 3, 2, giocando un 10 e posizionandosi su un 2,
    il sistema non può sapere quali dei due 5 si desidera prendere". A 10 takes 5+5, 5+3+2
    with either 5 (sum 10), or a 5 or 3+2 (15 with the 10)."""
    found = plays_on("5c 5b 3s 2d", "Rd")
    assert found == {"Rd x 5c 5b", "Rd x 2d 5c 3s", "Rd x 2d 5b 3s", "Rd x 5c", "Rd x 5b",
                     "Rd x 2d 3s"}
    with_the_2 = {p for p in found if "2d" in p}
    assert any("5c" in p for p in with_the_2) and any("5b" in p for p in with_the_2)


# ---- rules a) to d) -----------------------------------------------------------------------------

def test_il_valore_delle_carte() -> None:
    """000, "Il valore delle carte": "Re (K) 10, Cavallo (Q) 9, Fante (J) 8, 7 7, 6 6, 5 5, 4 4,
    3 3, 2 2, Asso 1". Each value is checked by the capture it makes: the card of value 15-v
    (rule c) where one exists, else the card of the same value (rule a)."""
    listed = {Rank.RE: 10, Rank.CAVALLO: 9, Rank.FANTE: 8, Rank.SETTE: 7, Rank.SEI: 6,
              Rank.CINQUE: 5, Rank.QUATTRO: 4, Rank.TRE: 3, Rank.DUE: 2, Rank.ASSO: 1}
    by_value = {int(r): r for r in Rank}
    for rank, value in listed.items():
        played = DECK[int(rank) - 1]                        # the denari of that rank
        if value == 1:
            continue                                        # the ace has its own rule d)
        other = 15 - value if 15 - value <= 10 else value
        taken = DECK[10 + int(by_value[other]) - 1]         # the coppe of the other value
        assert plays_on(taken.code, played.code) == {f"{played.code} x {taken.code}"}
    assert plays_on("", "Ad") == {"Ad"}


def test_a_prende_la_carta_dello_stesso_valore() -> None:
    """000 a): "può prendere la carta in tavola che ha lo stesso valore della carta da lui
    giocata"."""
    assert plays_on("6b Rs", "6d") == {"6d x 6b"}


def test_b_prende_le_carte_la_cui_somma_e_uguale_al_valore() -> None:
    """000 b): "può prendere le carte in tavola la cui somma è uguale al valore della carta da
    lui giocata"."""
    assert plays_on("2c 3b 4s", "5d") == {"5d x 2c 3b"}


def test_c_prende_le_carte_la_cui_somma_inclusa_la_giocata_e_15() -> None:
    """000 c): "può prendere le carte in tavola la cui somma, inclusa la carta da lui giocata, è
    uguale a 15"; 002's example: "there's a king (10) and a two down, you got a three. Playing
    it, you can pick up those two cards"."""
    assert plays_on("Rb 2c", "3d") == {"3d x 2c Rb"}


def test_in_presenza_di_piu_alternative_il_giocatore_sceglie() -> None:
    """000: "in presenza di più alternative, il giocatore ha sempre facoltà di scegliere quale
    attuare (a differenza della scopa dove è costretto a prendere la carta dello stesso
    valore)": the same-value capture is one choice among others."""
    assert plays_on("5b 2c 3s", "5d") == {"5d x 5b", "5d x 2c 3s", "5d x 2c 5b 3s"}


def test_d_se_in_tavola_c_e_un_asso_prende_l_asso() -> None:
    """000 d): "se gioca un asso: se in tavola c'è un asso prende l'asso" and "ad eccezione del
    caso di giocata di un asso": no other choice, not even the 15 (5+4+5 = 14, plus the ace)."""
    assert plays_on("Ab 5c 4s 5s", "Ad") == {"Ad x Ab"}
    assert plays_on("Ab As 5c", "Ad") == {"Ad x Ab", "Ad x As"}


def test_d_se_in_tavola_non_ci_sono_assi_prende_tutte_le_carte() -> None:
    """000 d): "se in tavola non ci sono assi prende tutte le carte in tavola"."""
    assert plays_on("5c 4s Rb", "Ad") == {"Ad x 5c Rb 4s"}


def test_d_se_non_ci_sono_carte_in_tavola_scarta_l_asso() -> None:
    """000 d): "se non ci sono carte in tavola scarta l'asso senza fare prese"."""
    assert plays_on("", "Ad 5c") == {"Ad", "5c"}


def test_c3_asso_su_asso_libero_takes_the_ace_or_makes_15() -> None:
    """C3, option asso_su_asso=libero (002): "An ace gets all. Without counting. Except when
    there is an ace already down, then you can pick just that, or use it for sums normally"."""
    assert plays_on("Ab 5c 4s 5s", "Ad", LIBERO) == {"Ad x Ab", "Ad x 5c 4s 5s"}
    # Without an ace on the table the ace still takes everything.
    assert plays_on("5c 4s Rb", "Ad", LIBERO) == {"Ad x 5c Rb 4s"}


# ---- forced capture (C16) ----------------------------------------------------------------------

def test_se_puo_fare_una_presa_e_costretto_a_prendere() -> None:
    """000: "Se il giocatore può fare almeno un tipo di presa è costretto a prendere e non può
    quindi scartare la carta" read with the UI sentence "Se la carta selezionata col doppio clic
    consentisse possibili prese apparirà un messaggio di errore" (C16, presa_obbligata=carta):
    the 5 that can take may not be discarded; the Fante that cannot take may."""
    assert plays_on("5b", "5d Fs") == {"5d x 5b", "Fs"}


def test_c16_presa_obbligata_mano_forbids_every_discard_while_a_capture_exists() -> None:
    """C16, option presa_obbligata=mano: "è costretto a prendere" read for the whole hand."""
    assert plays_on("5b", "5d Fs", MANO) == {"5d x 5b"}


def test_una_carta_che_non_consente_prese_si_scarta() -> None:
    """000: "Se si seleziona una carta in mano che non consente prese apparirà sul tavolo una
    carta semitrasparente, cliccatela per scartare la carta": with no capture anywhere every
    card is a discard, under both readings of C16."""
    for ruleset in (STANDARD, MANO):
        assert plays_on("Rb Cs", "Fd 3c", ruleset) == {"Fd", "3c"}


# ---- the matta in captures ---------------------------------------------------------------------

def test_matta_in_caso_di_cirulla_vale_sempre_asso() -> None:
    """000: "in caso di cirulla il 7 di cuori vale sempre asso": played with value 1 it follows
    rule d)."""
    assert plays_on("5c 4s", "7c", matta_value=1) == {"7c x 5c 4s"}
    assert plays_on("5c 4s", "7c") == {"7c"}                      # as a 7: nothing to take
    assert plays_on("Fb 4s", "7c", matta_value=1) == {"7c x Fb 4s"}
    assert plays_on("Fb 4s", "7c") == {"7c x Fb"}


def test_a_matta_worth_1_on_the_table_is_an_ace_for_rule_d() -> None:
    """000 d) "se in tavola c'è un asso prende l'asso", with a matta dropped as an ace (C18)."""
    assert plays_on("7c 5b", "Ad", matta_value=1) == {"Ad x 7c"}
    assert plays_on("7c 5b", "Ad") == {"Ad x 7c 5b"}


# ---- the engine agrees with the text enumerated by brute force -------------------------------

tables = st.lists(st.sampled_from(DECK), unique=True, max_size=14)


@given(tables, st.lists(st.sampled_from(DECK), unique=True, min_size=1, max_size=3), rulesets,
       st.one_of(st.none(), st.integers(1, 10)))
def test_legal_plays_on_equals_every_subset_filtered_by_the_text(
        table: list[Card], hand: list[Card], ruleset: Ruleset, matta_value: int | None) -> None:
    """Rules a) to d) with every option: the engine against reference.py's brute force."""
    hand = [c for c in hand if c not in table] or [c for c in DECK if c not in table][:1]
    matta = matta_value if MATTA in (*table, *hand) else None
    engine = {(p[0], taken(p)) for p in legal_plays_on(tuple(table), tuple(hand), ruleset,
                                                          matta)}
    assert engine == reference_legal_plays(table, hand, ruleset, matta)


def test_legal_plays_of_a_state_are_those_of_the_seat_to_move() -> None:
    """"Il giocatore seduto alla destra del mazziere è il giocatore di mano, cioè il primo a
    dover effettuare la giocata": only that seat's cards are offered."""
    state = position(["5d Fs Rb", "5c 2b 3b"], "5b 4c Cs 6s")
    assert {p[0] for p in legal_plays(state)} == set(parse_cards("5d Fs Rb"))
    assert legal_plays(state._replace(finished=True)) == []


@pytest.mark.parametrize("ruleset", [STANDARD, LIBERO, MANO])
def test_no_play_is_listed_twice(ruleset: Ruleset) -> None:
    found = legal_plays_on(parse_cards("Ab As 5c 5b 4s 4d 2c 3c"), parse_cards("Ad 6b Rs"),
                           ruleset)
    assert len(found) == len(set(found)) > 0
