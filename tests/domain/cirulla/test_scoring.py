"""The score of a smazzata (source 000, "Punteggi"), C4, C5, C9 and C10."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK, Rank, Suit, card
from domain.cirulla.engine import evolve
from domain.cirulla.ruleset import STANDARD, Primiera, Ruleset
from domain.cirulla.scoring import (
    CATEGORIES,
    PRIMIERA_VALUE,
    _score,
    piccola_points,
    primiera_sum,
    primiera_winner,
    score,
)
from domain.events import AccusoDeclared, CardPlayed, SmazzataEnded
from tests.domain.cirulla.helpers import cards, play, position
from tests.replacing import replace

CONTEGGIO = replace(STANDARD, primiera=Primiera.CONTEGGIO)
FINO_AL_7 = replace(STANDARD, piccola_fino_al=7)


def split(mine: str, ruleset: Ruleset = STANDARD, scope: tuple[int, int] = (0, 0),
          accusi: tuple[int, int] = (0, 0)) -> dict[str, tuple[int, int]]:
    """Score side 0 holding `mine` and side 1 the rest of the deck."""
    pile = cards(mine)
    rest = tuple(c for c in DECK if c not in pile)
    breakdown = score((pile, rest), scope, accusi, ruleset)
    return {name: (a, b) for name, a, b in breakdown.rows}


def test_the_breakdown_has_every_category_of_000() -> None:
    """000: "Al termine di ogni smazzata si esaminano le carte prese da ciascun giocatore o
    coppia e le scope girate e si calcolano i punteggi"."""
    assert CATEGORIES == ("scope", "settebello", "primiera", "denari", "carte", "grande",
                          "piccola", "accusi")
    assert tuple(split("Ad")) == CATEGORIES


def test_scopa_ogni_scopa_vale_1_punto() -> None:
    """000: "Scopa ogni scopa vale 1 punto"."""
    assert split("Ad", scope=(3, 1))["scope"] == (3, 1)


def test_sette_bello_vale_1_punto() -> None:
    """000: "Sette bello il sette di denari (o di quadri) vale un 1 punto"."""
    assert split("7d")["settebello"] == (1, 0)
    assert split("7c 7b 7s")["settebello"] == (0, 1)


def test_denari_6_o_piu_carte_di_denari_valgono_1_punto() -> None:
    """000: "Denari 6 o più carte di denari (o quadri) valgono 1 punto"."""
    assert split("Ad 2d 3d 4d 5d 6d")["denari"] == (1, 0)
    assert split("Ad 2d 3d 4d")["denari"] == (0, 1)


def test_c10_denari_5_a_5_nessuno() -> None:
    """C10: "6 o più carte di denari": at 5-5 neither side has 6, nobody scores."""
    assert split("Ad 2d 3d 4d 5d")["denari"] == (0, 0)


def test_carte_21_o_piu_carte_valgono_1_punto() -> None:
    """000: "Carte 21 o più carte valgono 1 punto"."""
    assert split(" ".join(c.code for c in DECK[:21]))["carte"] == (1, 0)
    assert split(" ".join(c.code for c in DECK[:19]))["carte"] == (0, 1)


def test_c10_carte_20_a_20_nessuno() -> None:
    """C10: 20-20, neither has "21 o più carte": nobody scores."""
    assert split(" ".join(c.code for c in DECK[:20]))["carte"] == (0, 0)


def test_grande_fante_cavallo_e_re_di_denari_valgono_5_punti() -> None:
    """000: "Grande fante, cavallo e re di denari (o quadri) valgono 5 punti"."""
    assert split("Fd Cd Rd")["grande"] == (5, 0)
    assert split("Fd Cd")["grande"] == (0, 0)


def test_piccola_asso_due_e_tre_di_denari_3_punti_piu_1_per_ogni_successiva_fino_al_6() -> None:
    """000: "Piccola asso, due e tre di denari (o quadri) valgono 3 punti + 1 punto per ogni
    ulteriore carta di denari (o quadri) successiva, fino al 6 (ad esempio asso,2,3,4,5 di
    denari (o quadri) vale 5 punti)"."""
    assert split("Ad 2d 3d")["piccola"] == (3, 0)
    assert split("Ad 2d 3d 4d 5d")["piccola"] == (5, 0)           # the text's example
    assert split("Ad 2d 3d 4d 5d 6d")["piccola"] == (6, 0)
    assert split("Ad 2d 3d 4d 5d 6d 7d")["piccola"] == (6, 0)     # "fino al 6"
    assert split("Ad 2d 3d 5d")["piccola"] == (3, 0)              # the run stops at the 4
    assert split("Ad 2d 4d")["piccola"] == (0, 0)
    assert split("Ad 2d")["piccola"] == (0, 0)


def test_c4_piccola_fino_al_7_by_option() -> None:
    """C4, option piccola_fino_al=7 (002): "at least ace, two and three of coins, worth three
    points plus one for every other coin card in a sequence, up to seven"."""
    assert split("Ad 2d 3d 4d 5d 6d 7d", FINO_AL_7)["piccola"] == (7, 0)
    assert split("Ad 2d 3d 4d 5d 6d", FINO_AL_7)["piccola"] == (6, 0)
    assert piccola_points(cards("Ad 2d 3d 4d 5d 6d 7d"), 7) == 7


def test_primiera_valori() -> None:
    """000: "7 = 21 punti, 6 = 18 punti, Asso = 16 punti, 5,4,3,2 sono uguali rispettivamente a
    15,14,13,12 punti, Re, cavallo e fante =10 punti"."""
    listed = {Rank.SETTE: 21, Rank.SEI: 18, Rank.ASSO: 16, Rank.CINQUE: 15, Rank.QUATTRO: 14,
              Rank.TRE: 13, Rank.DUE: 12, Rank.RE: 10, Rank.CAVALLO: 10, Rank.FANTE: 10}
    assert listed == PRIMIERA_VALUE
    for rank, value in listed.items():
        four = [card(suit, rank) for suit in Suit]
        assert primiera_sum(four) == 4 * value


def test_primiera_best_card_of_each_suit() -> None:
    """000: "la cui somma di valori è maggiore": the best card of each suit counts."""
    assert primiera_sum(cards("7d 2d 6c Ab Rb 5s 4s")) == 21 + 18 + 16 + 15


def test_vince_la_primiera_chi_mostra_le_4_carte_con_somma_maggiore() -> None:
    """000: "vince la primiera il giocatore o coppia che mostra le 4 carte, una per ogni seme, la
    cui somma di valori è maggiore"."""
    assert primiera_winner((cards("7d 7c 7b 6s"), cards("6d 6c 6b 7s")), Primiera.SOMMA) == 0
    assert primiera_winner((cards("2d 2c 2b 2s"), cards("3d 3c 3b 3s")), Primiera.SOMMA) == 1


def test_c10_primiera_equal_sums_nobody() -> None:
    """C10: equal sums, neither "la cui somma di valori è maggiore": nobody scores."""
    assert primiera_winner((cards("7d 6c Ab 5s"), cards("6d 7c 5b As")), Primiera.SOMMA) is None


def test_c10_primiera_needs_the_four_suits() -> None:
    """C10: "mostra le 4 carte, una per ogni seme": a side without four suits cannot win it, so
    the other wins with any sum; neither with four suits, nobody."""
    assert primiera_winner((cards("7d 7c 7b"), cards("2d 2c 2b 2s")), Primiera.SOMMA) == 1
    assert primiera_winner((cards("7d 7c 7b"), cards("7s 6s")), Primiera.SOMMA) is None


def test_c5_primiera_conteggio_by_option() -> None:
    """C5, option primiera=conteggio (002): ""Primiera" most sevens taken. If tied, most sixes.
    If still tied, most aces"."""
    piles = (cards("7d 7c Rb"), cards("7b 7s 6d"))
    assert primiera_winner(piles, Primiera.CONTEGGIO) == 1            # sevens 2-2, sixes 0-1
    assert primiera_winner(piles, Primiera.SOMMA) is None              # neither has 4 suits
    assert primiera_winner((cards("7d 6c Ab"), cards("7b 6s 2d")), Primiera.CONTEGGIO) == 0
    assert primiera_winner((cards("7d Ad"), cards("6b 6s 6d")), Primiera.CONTEGGIO) == 0
    assert primiera_winner((cards("7d 6c"), cards("7b 6s")), Primiera.CONTEGGIO) is None
    assert split("7d 7c 7b Rs", CONTEGGIO)["primiera"] == (1, 0)


def test_cappotto_tutte_le_carte_di_denari() -> None:
    """000: "Se un giocatore riesce a prendere tutte le carte di denari (quadri) effettua un
    cappotto" (whether it ends the match is the match format's C11)."""
    every_denari = " ".join(c.code for c in DECK[:10])
    pile = cards(every_denari)
    rest = tuple(c for c in DECK if c not in pile)
    assert score((pile, rest), (0, 0), (0, 0), STANDARD).cappotto_side == 0
    assert score((rest, pile), (0, 0), (0, 0), STANDARD).cappotto_side == 1
    assert score((pile[1:], (*rest, pile[0])), (0, 0), (0, 0), STANDARD).cappotto_side is None


def test_totals_are_the_sum_of_the_rows() -> None:
    """Each side's total is the sum of its breakdown, accusi included."""
    breakdown = score((cards("7d Ad 2d 3d Fd Cd Rd"), cards("7c 6b")), (2, 1), (3, 10), STANDARD)
    rows = {name: (a, b) for name, a, b in breakdown.rows}
    assert rows["accusi"] == (3, 10)
    assert breakdown.totals == (sum(a for a, _ in rows.values()), sum(b for _, b in rows.values()))
    assert breakdown.row("grande") == (5, 0)


def test_c9_le_carte_rimaste_vanno_a_chi_ha_fatto_l_ultima_presa_senza_scopa() -> None:
    """C9 (000 is silent): the cards left on the table at the end go to the side of the last
    capture, and that is not a scopa."""
    state = position(["5d", "Rb"], "5c 3s")._replace(stock=(), plays=34)
    state, _ = play(state, "5d", "5c")
    state, events = play(state, "Rb")
    ended = events[-1]
    assert isinstance(ended, SmazzataEnded) and ended.leftover_to == 0
    assert state.finished and state.table == () and state.scope == (0, 0)
    assert {c.code for c in state.captured[0]} == {"5d", "5c", "3s", "Rb"}
    assert dict((n, (a, b)) for n, a, b in ended.breakdown)["scope"] == (0, 0)


def test_c9_nobody_captured_nobody_takes_the_leftover() -> None:
    """C9: with no capture in the whole smazzata the cards stay where they are."""
    state = position(["Fd", "Rb"], "Cc Cs")._replace(stock=(), plays=34)
    state, _ = play(state, "Fd")
    state, events = play(state, "Rb")
    ended = events[-1]
    assert isinstance(ended, SmazzataEnded) and ended.leftover_to is None
    assert len(state.table) == 4


def test_c9_the_dealer_s_15_counts_as_the_last_capture() -> None:
    """C9 with 000's "il mazziere prende tutte le carte scoperte in tavola": a capture."""
    state = position(["5d", "Rb"], "Ad 2c 5b 7s")
    state = evolve(state, AccusoDeclared(seat=1, kind="quindici", cards=state.table, points=1))
    assert state.last_capture_side == 1 and state.table == ()


def test_scopa_tranne_nell_ultima_giocata_dell_ultima_mano() -> None:
    """000: "Se un giocatore prende tutte le carte in tavola (anche giocando un asso) "fa scopa"
    ad eccezione che ciò avvenga nell'ultima giocata dell'ultima mano di una smazzata"."""
    state = position(["Ad 2b", "Rb 3s"], "5c 3c")._replace(plays=30)
    after, _ = play(state, "Ad", "5c 3c")
    assert after.scope == (1, 0)
    last = position(["3s", "Rb"], "2c")._replace(stock=(), plays=34)
    last, _ = play(last, "3s")                                # nothing to take: dropped
    last, events = play(last, "Rb", "2c 3s")                  # takes all at the 36th play
    played = [e for e in events if isinstance(e, CardPlayed)]
    assert len(played) == 1 and not played[0].scopa and last.scope == (0, 0)
    ended = events[-1]
    assert isinstance(ended, SmazzataEnded) and ended.leftover_to is None


_piles = st.permutations(DECK).flatmap(lambda deck: st.integers(0, 40).map(
    lambda cut: (tuple(deck[:cut]), tuple(deck[cut:]))))
_pairs = st.tuples(st.integers(0, 9), st.integers(0, 9))
_scorings = st.tuples(_piles, _pairs, _pairs, st.sampled_from([STANDARD, CONTEGGIO, FINO_AL_7]))


@given(st.lists(_scorings, min_size=1, max_size=6), st.data())
def test_the_last_score_kept_is_the_score_of_the_same_piles(
        scorings: list[tuple[Any, ...]], data: st.DataObject) -> None:
    """`score` keeps its last result (a smazzata's end is scored twice on the same piles): in
    any order of calls, repeated or not, with lists that are then changed, it gives what the
    piles give."""
    for _ in range(2 * len(scorings)):
        piles, scope, accusi, ruleset = data.draw(st.sampled_from(scorings))
        assert score(piles, scope, accusi, ruleset) == _score(piles, scope, accusi, ruleset)
        as_lists = (list(piles[0]), list(piles[1]))
        assert score(as_lists, scope, accusi, ruleset) == _score(piles, scope, accusi, ruleset)
        if as_lists[1]:   # changed after scoring: what was kept must not answer for them
            as_lists[0].append(as_lists[1].pop())
        assert score(as_lists, scope, accusi, ruleset) == _score(as_lists, scope, accusi,
                                                                 ruleset)
