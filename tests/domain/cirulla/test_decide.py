"""`decide`: every refusal is a RuleViolation naming the rule it breaks; C8 and C17."""

from __future__ import annotations

import pytest

from domain.cards import MATTA, parse_card
from domain.cirulla.accusi import CIRULLA, DECINO
from domain.cirulla.captures import legal_plays
from domain.cirulla.decide import ENGINE, decide
from domain.cirulla.ruleset import STANDARD, Accuso
from domain.cirulla.state import CirullaState, empty_state, notation, taken
from domain.events import AccusoDeclared, CardPlayed, HandDealt
from domain.game import DeclareAccuso, PlayCard, RuleViolation
from domain.seating import Direction, Seating
from domain.shuffle import Seed
from tests.domain.cirulla.helpers import cards, play, position, run
from tests.replacing import replace

FACOLTATIVO = replace(STANDARD, accuso=Accuso.FACOLTATIVO)
OBBLIGATORIO = replace(STANDARD, accuso=Accuso.OBBLIGATORIO)


def refused(state: CirullaState, command: PlayCard | DeclareAccuso) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command)
    return caught.value


def card_play(seat: int, card: str, capture: str = "") -> PlayCard:
    return PlayCard(seat, parse_card(card), cards(capture))


def test_dopo_la_giocata_la_mano_passa_al_successivo_in_senso_antiorario() -> None:
    """000: "Dopo che ogni giocatore ha effettuato la giocata, la mano passa al giocatore
    successivo in senso antiorario"; playing out of turn is refused."""
    state = position(["Fd 2c 3c", "Fs 2b 3b", "Fb 2s 4s", "Fc 6c 4c"], "Rd", FACOLTATIVO)
    for seat in (0, 1, 2, 3):
        assert state.to_move == seat
        wrong = (seat + 1) % 4
        violation = refused(state, card_play(wrong, state.hands[wrong][0].code))
        assert violation.rule == "turn order" and f"seat {wrong}" in violation.message
        first = legal_plays(state)[0]
        state, _ = run(state, PlayCard(seat, first[0], first[1]))
    assert state.to_move == 0


def test_c2_clockwise_by_option_turn_goes_to_the_left() -> None:
    """C2, option direction=clockwise (002: "you give one to each of the players, clockwise")."""
    ruleset = replace(FACOLTATIVO, direction=Direction.CLOCKWISE)
    state = position(["Fd 2c 3c", "Fs 2b 3b", "Fb 2s 4s", "Fc 6c 4c"], "Rd", ruleset)
    state, _ = play(state, "Fd")
    assert state.to_move == 3


def test_a_card_not_in_hand_is_refused() -> None:
    """"Ogni giocatore di mano deve giocare una carta": one of his own."""
    state = position(["5d Fs Rb", "5c 2b 3b"], "5b 4c")
    violation = refused(state, card_play(0, "5c", "5b"))
    assert violation.rule == "hand" and "5c is not in the hand of seat 0" in violation.message


def test_an_illegal_capture_is_refused_naming_rules_a_to_c() -> None:
    """000 a)-c): a 5 cannot take a 4 (neither the same value, nor a sum of 5, nor 15)."""
    state = position(["5d Fs Rb", "5c 2b 3b"], "5b 4c")
    violation = refused(state, card_play(0, "5d", "4c"))
    assert violation.rule == "prese (regole a-c)"
    assert "5d x 5b" in violation.message


def test_an_ace_taking_other_than_the_ace_is_refused_naming_rule_d() -> None:
    """000 d): "se in tavola c'è un asso prende l'asso"."""
    state = position(["Ad Fs Rb", "5c 2b 3b"], "Ab 5b 4c")
    violation = refused(state, card_play(0, "Ad", "Ab 5b 4c"))
    assert violation.rule == "asso (regola d)"


def test_a_forbidden_discard_is_refused_naming_c16() -> None:
    """000: "Se il giocatore può fare almeno un tipo di presa è costretto a prendere e non può
    quindi scartare la carta"; "Se la carta selezionata col doppio clic consentisse possibili
    prese apparirà un messaggio di errore"."""
    state = position(["5d Fs Rb", "5c 2b 3b"], "5b Cc")
    violation = refused(state, card_play(0, "5d"))
    assert violation.rule == "C16 presa obbligata"
    _, events = run(state, card_play(0, "Fs"))             # the Fante cannot take: allowed
    assert events == [CardPlayed(seat=0, card=parse_card("Fs"))]


def test_an_accuso_without_the_hand_is_refused() -> None:
    """000: "cirulla: se la somma delle tre carte è uguale o inferiore a 9"."""
    state = position(["5d Fs Rb", "5c 2b 3b"], "5b 4c", FACOLTATIVO)
    violation = refused(state, DeclareAccuso(0, CIRULLA))
    assert violation.rule == "accusi" and "it makes: none" in violation.message
    violation = refused(state, DeclareAccuso(0, DECINO))
    assert violation.rule == "accusi"


def test_c17_accuso_only_when_di_mano_before_the_play_and_once() -> None:
    """000: "il giocatore di mano può accusare ... scoprendo le sue carte prima di aver
    effettuato la sua giocata"; "il giocatore può effettuarlo, quando è di mano e prima di
    effettuare la giocata" (C17)."""
    state = position(["Ad 2c 3b", "Ac 2b 3s"], "Rd Rc", FACOLTATIVO)
    assert refused(state, DeclareAccuso(1, CIRULLA)).rule == "turn order"
    declared, events = run(state, DeclareAccuso(0, CIRULLA))
    assert events == [AccusoDeclared(seat=0, kind=CIRULLA, cards=cards("Ad 2c 3b"), points=3)]
    assert refused(declared, DeclareAccuso(0, CIRULLA)).rule == "C17 accuso"
    after, _ = play(state, "2c")                              # seat 0 did not declare
    after, _ = play(after, "2b", "2c")
    assert refused(after, DeclareAccuso(0, CIRULLA)).rule == "C17 accuso"


def test_c17_a_hand_both_cirulla_and_decino_declares_one_of_them() -> None:
    """C17: "il giocatore di mano può accusare le seguenti combinazioni": with A-A-A he chooses
    one; the other cannot be added."""
    state = position(["Ad Ac Ab", "2b 3b 4b"], "Rd Rc", FACOLTATIVO)
    state, events = run(state, DeclareAccuso(0, CIRULLA))
    assert [e.points for e in events if isinstance(e, AccusoDeclared)] == [3]
    assert refused(state, DeclareAccuso(0, DECINO)).rule == "C17 accuso"


def test_c8_accuso_automatico_is_declared_when_the_turn_begins() -> None:
    """C8 standard (000): "Per la cirulla e il decino, il sistema effettua l'accuso
    automaticamente": when the turn of a seat holding three cards begins, right after the play
    before it; with both it declares the one worth more (C17)."""
    state = position(["Fd 3c 4c", "2d 2c 2b"], "Rd Rc")
    state, events = run(state, card_play(0, "Fd"))
    assert events == [CardPlayed(seat=0, card=parse_card("Fd")),
                      AccusoDeclared(seat=1, kind=DECINO, cards=cards("2d 2c 2b"), points=10)]
    state, events = run(state, card_play(1, "2d"))
    assert not any(isinstance(e, AccusoDeclared) for e in events)


def test_c8_accuso_facoltativo_is_not_emitted() -> None:
    """C8 option accuso=facoltativo: 000 "a meno che il giocatore non lo abbia disattivato" —
    then "il giocatore può effettuarlo"; if he does not, nobody does."""
    state = position(["2d 2c 2b", "Fb 3b 4b"], "Rd Rc", FACOLTATIVO)
    events = decide(state, card_play(0, "2d"))
    assert [type(e) for e in events] == [CardPlayed]


def test_c8_accuso_obbligatorio_missing_is_refused() -> None:
    """C8 option accuso=obbligatorio (002): "if your cards total 9 or less than 9, you have to
    knock on the table at the start on the hand"."""
    state = position(["2d 2c 2b", "Fb 3b 4b"], "Rd Rc", OBBLIGATORIO)
    violation = refused(state, card_play(0, "2d"))
    assert violation.rule == "C8 accuso obbligatorio" and "decino" in violation.message
    state, _ = run(state, DeclareAccuso(0, CIRULLA), card_play(0, "2d"))
    assert state.to_move == 1


def test_c14_a_wrong_matta_value_is_refused() -> None:
    """C14: "il sistema assegna automaticamente al 7 di cuori" its value: a different value
    asked for it is refused."""
    state = position(["7c 2d 2b", "Fb 3b 4b"], "Rd Rc", FACOLTATIVO)
    assert refused(state, DeclareAccuso(0, DECINO, matta_value=5)).rule == "C14 matta"
    state, _ = run(state, DeclareAccuso(0, DECINO, matta_value=2))
    assert state.value_of(MATTA) == 2
    assert refused(state, PlayCard(0, MATTA, (), matta_value=7)).rule == "C14 matta"


def test_nothing_before_the_deal_nor_after_the_end() -> None:
    """"smazzata: la fase di gioco che inizia con la distribuzione delle carte e si conclude con
    il conteggio dei punti"."""
    empty = empty_state(STANDARD, Seating(2))
    assert refused(empty, card_play(1, "Ad")).rule == "deal"
    done = position(["Ad", "Rb"], "")._replace(finished=True)
    assert refused(done, card_play(0, "Ad")).rule == "end of smazzata"


def test_after_the_last_card_of_a_hand_the_next_hand_is_dealt() -> None:
    """Three cards each, then three more from the stock (000's deal, repeated)."""
    state = position(["Fd", "Rb"], "Cc Cs")
    state, _ = play(state, "Fd")
    state, events = play(state, "Rb")
    assert any(isinstance(e, HandDealt) for e in events)
    assert all(len(h) == 3 for h in state.hands)


def test_engine_protocol() -> None:
    """The GameEngine of domain/game.py: deal, initial, decide, evolve, is_finished, to_move."""
    seating = Seating(2)
    state = ENGINE.initial(STANDARD, seating)
    assert ENGINE.to_move(state) is None
    for event in ENGINE.deal(STANDARD, seating, 0, 0, Seed(b"\x02" * 16)):
        state = ENGINE.evolve(state, event)
    assert ENGINE.to_move(state) == 1 and not ENGINE.is_finished(state)


def test_every_legal_play_is_accepted_by_decide_under_the_automatic_accuso() -> None:
    """000: "Per la cirulla e il decino, il sistema effettua l'accuso automaticamente": the
    matta of a cirulla is an ace before its holder plays, so `legal_plays` lists the plays of an
    ace (here the whole table), and `decide` accepts each of them. (Regression: the accuso used
    to be emitted with the play, after `legal_plays` had offered the matta as a 7.)"""
    state = position(["Rd 3c 4c", "7c 2d 5b"], "Cs 6c")
    state, _ = play(state, "Rd")                           # nothing to take: dropped
    assert state.to_move == 1 and state.value_of(MATTA) == 1
    offered = {notation(p) for p in legal_plays(state)}
    assert "7c x Rd 6c Cs" in offered and "7c" not in offered
    for p in legal_plays(state):
        decide(state, PlayCard(1, p[0], taken(p)))
