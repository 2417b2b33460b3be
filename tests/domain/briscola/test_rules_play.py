"""Source 004, the play of a smazzata: one test per rule sentence, quoted in its docstring."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from domain.briscola.engine import ENGINE, deal_event
from domain.briscola.state import HAND_SIZE, BriscolaRules, legal_plays, play
from domain.briscola.values import POINTS, STRENGTH, TOTAL_POINTS, TRICK_ORDER, trick_winner
from domain.cards import DECK, SUITS, Rank, Suit, card, parse_card
from domain.events import CardPlayed, CardsDrawn, SmazzataDealt, SmazzataEnded, TrickTaken
from domain.game import PlayCard, RuleViolation
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck
from tests.domain.briscola.helpers import position, random_smazzata

SEED = Seed.from_hex("5eed0000000000000000000000000004")


def test_si_gioca_con_un_mazzo_di_40_carte() -> None:
    """"Si gioca con un mazzo di 40 carte italiane tradizionali.\""""
    for players in (2, 4):
        dealt = deal_event(Seating(players), 0, 0, SEED)
        assert dealt.briscola is not None
        cards = [c for h in dealt.hands for c in h] + [*dealt.stock, dealt.briscola]
        assert sorted(cards) == list(DECK)


def test_valore_delle_carte_dall_alto_al_basso() -> None:
    """"dall'alto al basso: Asso, tre, re, cavallo, fante, 7, 6, 5, 4, 2"."""
    expected = [Rank.ASSO, Rank.TRE, Rank.RE, Rank.CAVALLO, Rank.FANTE, Rank.SETTE, Rank.SEI,
                Rank.CINQUE, Rank.QUATTRO, Rank.DUE]
    assert list(TRICK_ORDER) == expected
    for suit in SUITS:
        briscola = next(s for s in SUITS if s is not suit)
        for high, low in combinations(expected, 2):
            # Whichever of the two leads, the higher one takes the trick.
            assert trick_winner((card(suit, low), card(suit, high)), briscola) == 1
            assert trick_winner((card(suit, high), card(suit, low)), briscola) == 0
            assert STRENGTH[card(suit, high)] > STRENGTH[card(suit, low)]


def test_le_carte_del_seme_di_briscola_battono_tutti_gli_altri_semi() -> None:
    """"le carte del seme di briscola hanno valore maggiore di quelle di tutti gli altri
    semi"."""
    two_of_spade = card(Suit.SPADE, Rank.DUE)
    for other in DECK:
        if other.suit is not Suit.SPADE:
            assert trick_winner((other, two_of_spade), Suit.SPADE) == 1
            assert trick_winner((two_of_spade, other), Suit.SPADE) == 0


def test_la_carta_del_giocatore_di_mano_determina_il_seme_di_mano() -> None:
    """"La carta giocata dal giocatore di mano determina il "seme di mano"." An ace of another
    suit, not briscola, does not beat a 2 of the suit led."""
    assert trick_winner((parse_card("2c"), parse_card("Ab")), Suit.DENARI) == 0
    assert trick_winner((parse_card("Ab"), parse_card("2c")), Suit.DENARI) == 0


def test_si_aggiudica_la_mano_chi_gioca_la_briscola_piu_alta() -> None:
    """"Si aggiudica la mano chi gioca la briscola più alta o, se nessuno gioca una briscola,
    che gioca la carta più alta nel "seme di mano"." Four players."""
    def winner(cards: str) -> int:
        return trick_winner(tuple(parse_card(c) for c in cards.split()), Suit.BASTONI)
    assert winner("3c Ac 2b 7b") == 3       # two briscole: the higher one
    assert winner("3c Ac Rd As") == 1       # no briscola: highest coppe
    assert winner("7s 6d Ad 4s") == 0       # no briscola, nothing higher in spade
    assert winner("2b Ac 3c Rc") == 0       # a briscola led keeps the trick


def test_mano_tutti_i_giocatori_effettuano_una_giocata() -> None:
    """"mano: la fase di una smazzata in cui tutti i giocatori al tavolo effettuano una
    giocata": a trick is taken after exactly one card from every seat."""
    for players in (2, 4):
        played = random_smazzata(SEED, players, random.Random(1))
        since: list[int] = []
        for event in played.events:
            if isinstance(event, CardPlayed):
                since.append(event.seat)
            elif isinstance(event, TrickTaken):
                assert sorted(since) == list(range(players))
                since = []


def test_distribuzione_3_carte_una_alla_volta_dalla_destra_del_mazziere() -> None:
    """"Il sistema mescola le carte e ne da 3 ad ogni giocatore distribuendole una alla volta,
    in senso antiorario, partendo dal giocatore alla destra del mazziere.\""""
    deck = shuffled_deck(SEED, 0)
    for players in (2, 4):
        for dealer in range(players):
            dealt = deal_event(Seating(players), dealer, 0, SEED)
            for served in range(players):
                seat = (dealer + 1 + served) % players
                assert dealt.hands[seat] == deck[served:players * HAND_SIZE:players]


def test_la_briscola_e_scoperta_e_sara_l_ultima_carta_ad_essere_pescata() -> None:
    """"Quindi lascia una carta scoperta sul tavolo ... questa carta segnerà il seme di
    briscola e sarà l'ultima carta ad essere pescata.\""""
    deck = shuffled_deck(SEED, 0)
    for players in (2, 4):
        dealt = deal_event(Seating(players), 0, 0, SEED)
        assert dealt.briscola == deck[HAND_SIZE * players]
        assert dealt.stock == deck[HAND_SIZE * players + 1:]
        played = random_smazzata(SEED, players, random.Random(2))
        draws = [e for e in played.events if isinstance(e, CardsDrawn)]
        assert draws[-1].draws[-1][1] == dealt.briscola
        drawn = [c for e in draws for _, c in e.draws]
        assert drawn == [*dealt.stock, dealt.briscola]


def test_inizia_a_giocare_il_giocatore_alla_destra_del_mazziere() -> None:
    """"Inizia a giocare il primo giocatore attivo alla destra del mazziere ("giocatore di
    mano")."""
    for players in (2, 4):
        for dealer in range(players):
            seating = Seating(players)
            state = ENGINE.initial(BriscolaRules(), seating)
            state = ENGINE.evolve(state, deal_event(seating, dealer, 0, SEED))
            assert ENGINE.to_move(state) == (dealer + 1) % players


def test_nelle_mani_successive_il_giocatore_di_mano_e_chi_ha_fatto_la_presa() -> None:
    """"Nelle mani successive alla prima, il giocatore di mano è quello che ha fatto la
    presa.\""""
    for players in (2, 4):
        played = random_smazzata(SEED, players, random.Random(3))
        for state, event in zip(played.states[1:], played.events[1:], strict=True):
            if isinstance(event, TrickTaken) and state.turn is not None:
                assert state.turn == event.seat and not state.table


def test_si_gioca_in_senso_antiorario_dal_giocatore_di_mano() -> None:
    """"Ogni giocatore, partendo dal giocatore di mano e proseguendo in senso antiorario, pone
    sul tavolo una carta scoperta." Out of turn is refused."""
    state = position("Ad 2c 3s|4d 5c 6s|7d Fc Cs|Rd Ab 2b", "3b", "Ac Rc As", players=4,
                     dealer=3)
    assert state.turn == 0
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, PlayCard(1, parse_card("4d")))
    assert refused.value.rule == "turno"
    for seat, code in ((0, "Ad"), (1, "4d"), (2, "7d")):
        assert state.turn == seat
        state = play(state, parse_card(code))
    assert state.turn == 3


def test_non_vi_e_mai_l_obbligo_a_giocare_una_carta() -> None:
    """"non vi è mai l'obbligo a giocare una carta ma ... il giocatore può liberamente
    scegliere quale carta giocare tra quelle in suo possesso": any card of the hand, even off
    suit while holding the suit led; never a card not in the hand."""
    state = play(position("Ad 2c 3s|4d 5c 6s", "3b", "Ac", dealer=1), parse_card("Ad"))
    assert set(legal_plays(state)) == set(state.hands[1])
    after = play(state, parse_card("5c"))  # holds 4d, plays coppe: allowed
    assert after.leader == 0
    with pytest.raises(RuleViolation) as refused:
        play(state, parse_card("Ab"))
    assert refused.value.rule == "carta in mano"


def test_chi_si_aggiudica_la_mano_prende_le_carte_e_pesca_per_primo() -> None:
    """"Il giocatore che si aggiudica la mano prende tutte le carte poste sul tavolo; in seguito
    sarà il primo a prendere la prima carta dal mazzo, seguito da tutti gli altri sempre in
    senso antiorario e sarà il primo ad aprire la mano successiva"."""
    state = position("2d 2c 2s|4d 5c 6s|7d Fc Cs|Rd Ab 2b", "3b", "Ac Ad As",
                     players=4, dealer=3)
    for code in ("2d", "4d", "7d"):
        state = play(state, parse_card(code))
    events = ENGINE.decide(state, PlayCard(3, parse_card("Rd")))
    taken = next(e for e in events if isinstance(e, TrickTaken))
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert taken.seat == 3 and taken.points == 4
    assert drawn.draws == ((3, parse_card("Ac")), (0, parse_card("Ad")), (1, parse_card("As")),
                           (2, parse_card("3b")))
    after = play(state, parse_card("Rd"))
    assert after.taken[1] == tuple(parse_card(c) for c in ("2d", "4d", "7d", "Rd"))
    assert after.turn == 3


def test_ultima_mano_tre_prese_senza_pescare() -> None:
    """"La smazzata consiste in un avvicendamento di diverse mani che si concludono con
    l'esaurimento del mazzo, all'esaurimento del quale si ha l'ultima mano la quale è
    giocoforza costituita da tre prese che avvengono senza pescare" (B3 for 4 players: 12 dealt,
    the briscola card and 27 in the stock make 7 rounds of draws, then 3 tricks)."""
    for players, tricks, draw_rounds in ((2, 20, 17), (4, 10, 7)):
        played = random_smazzata(SEED, players, random.Random(4))
        kinds = [type(e) for e in played.events if isinstance(e, TrickTaken | CardsDrawn)]
        assert kinds.count(TrickTaken) == tricks
        assert kinds.count(CardsDrawn) == draw_rounds
        # Each of the first tricks is followed by a draw, the last three by none.
        assert kinds == [TrickTaken, CardsDrawn] * draw_rounds + [TrickTaken] * 3


def test_punteggio_delle_carte_e_120_in_tutto() -> None:
    """Punteggi: "Asso (A) 11, 3 10, Re (K) 4, Cavallo / Donna (Q) 3, Fante (J) 2, 7 6 5 4 2
    0"; "i punti in totale sono ... = 120"."""
    expected = {Rank.ASSO: 11, Rank.TRE: 10, Rank.RE: 4, Rank.CAVALLO: 3, Rank.FANTE: 2}
    for c in DECK:
        assert POINTS[c] == expected.get(c.rank, 0)
    assert sum(POINTS) == TOTAL_POINTS == 120


def test_giocata_mano_smazzata_partita() -> None:
    """"giocata: la carta mostrata scoperta sul tavolo da un giocatore"; "smazzata: la fase di
    gioco che inizia con la distribuzione delle carte e si conclude con il conteggio dei punti";
    "Il mazziere è il giocatore da cui il sistema fa partire la distribuzione delle carte.\""""
    played = random_smazzata(SEED, 2, random.Random(7), dealer=1)
    first, last = played.events[0], played.events[-1]
    assert isinstance(first, SmazzataDealt) and first.dealer == 1
    assert isinstance(last, SmazzataEnded) and last.scores == played.final.points
    for before, event, after in zip(played.states, played.events[1:], played.states[1:],
                                    strict=False):
        if isinstance(event, CardPlayed) and after.table:
            # The card is on the table, face up, for everybody to see.
            assert after.table == (*before.table, event.card)
