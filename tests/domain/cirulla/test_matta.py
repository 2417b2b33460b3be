"""The matta (source 000, "Il 7 di cuori (coppe)"), C6, C14 and C18."""

from __future__ import annotations

from itertools import combinations

from domain.cards import DECK, MATTA
from domain.cirulla.accusi import CIRULLA, DECINO, QUINDICI, TRENTA, dealer_accuso
from domain.cirulla.captures import legal_plays
from domain.cirulla.ruleset import STANDARD, Accuso, MattaDurata
from domain.cirulla.state import CirullaState, notation
from domain.events import AccusoDeclared, CardPlayed
from domain.game import DeclareAccuso
from tests.domain.cirulla.helpers import cards, play, position, run
from tests.replacing import replace

FACOLTATIVO = replace(STANDARD, accuso=Accuso.FACOLTATIVO)
PER_SMAZZATA = replace(FACOLTATIVO, matta_durata=MattaDurata.SMAZZATA)


def notations(state: CirullaState) -> set[str]:
    return {notation(p) for p in legal_plays(state)}


def test_la_matta_vale_da_1_a_10_soltanto_se_consente_un_accuso() -> None:
    """000: "Il 7 di cuori (coppe) diventa una "matta", cioè può assumere qualsiasi valore da 1 a
    10 soltanto se consente di aggiudicarsi un qualsiasi accuso": without an accuso it is a 7."""
    state = position(["7c 5d Rb", "2s 3s 4s"], "Fs 6c")
    assert state.matta_value is None
    assert notations(state) >= {"7c x Fs"}          # 7 + 8 = 15: a plain 7
    assert "7c x 6c Fs" not in notations(state)


def test_in_caso_di_cirulla_il_7_di_cuori_vale_sempre_asso() -> None:
    """000: "in caso di cirulla il 7 di cuori vale sempre asso" (ai fini delle prese)."""
    state = position(["7c 2d 5b", "2s 3s 4s"], "Fs 6c", FACOLTATIVO)
    state, events = run(state, DeclareAccuso(0, CIRULLA))
    assert events == [AccusoDeclared(seat=0, kind=CIRULLA, cards=cards("7c 2d 5b"), points=3,
                                     matta_value=1)]
    assert state.value_of(MATTA) == 1
    # An ace with no ace on the table takes everything.
    assert {n for n in notations(state) if n.startswith("7c")} == {"7c x 6c Fs"}


def test_in_caso_di_decino_la_matta_assume_l_unico_valore_che_consente_l_accuso() -> None:
    """000: "in caso di decino o di 4 carte scoperte in tavola, il 7 di cuori assume l'unico
    valore che consente di effettuare l'accuso": with two 4s it is a 4."""
    state = position(["7c 4d 4b", "2s 3s 5s"], "4c Rs", FACOLTATIVO)
    state, events = run(state, DeclareAccuso(0, DECINO))
    assert isinstance(events[0], AccusoDeclared) and events[0].matta_value == 4
    assert {n for n in notations(state) if n.startswith("7c")} == {"7c x 4c"}


def test_c14_the_dealer_s_matta_takes_the_only_value_that_makes_15_or_30() -> None:
    """000: "in caso di ... 4 carte scoperte in tavola, il 7 di cuori assume l'unico valore che
    consente di effettuare l'accuso"."""
    option = dealer_accuso(cards("7c Ad 2c 3b"))
    assert option is not None and (option.kind, option.matta_value) == (QUINDICI, 9)
    option = dealer_accuso(cards("7c Rd Rb Cs"))
    assert option is not None and (option.kind, option.matta_value) == (TRENTA, 1)
    assert dealer_accuso(cards("7c Rd Rb Rs")) is None


def test_c14_the_matta_s_value_is_always_unique() -> None:
    """C14: with the matta among the four table cards, at most one value 1..10 makes an accuso
    (15 - s and 30 - s cannot both lie in 1..10), checked over every table."""
    others = [c for c in DECK if c is not MATTA]
    for three in combinations(others, 3):
        rest = sum(c.value for c in three)
        working = [(t, v) for v in range(1, 11) for t in (15, 30) if rest + v == t]
        assert len(working) <= 1
        option = dealer_accuso((MATTA, *three))
        if working:
            assert option is not None
            assert (option.points, option.matta_value) == (working[0][0] // 15, working[0][1])
        else:
            assert option is None


def test_c18_calata_sul_tavolo_alla_mano_successiva_torna_a_valere_7() -> None:
    """000: "Se il 7 di cuori non viene utilizzato per fare una presa ma viene calata sul tavolo,
    alla mano successiva torna a valere 7"; a mano is "la fase di una smazzata in cui tutti i
    giocatori al tavolo effettuano una giocata" (C18): the value lasts to the end of the mano
    in which the matta was dropped."""
    state = position(["7c 4d 4b", "6s 2s 3s"], "Rb Cs", FACOLTATIVO)
    state, _ = run(state, DeclareAccuso(0, DECINO))          # the matta is a 4
    state, _ = play(state, "7c")                              # nothing to take: dropped
    assert state.table_values[state.table.index(MATTA)] == 4
    assert "2s x 7c Cs" in notations(state)                  # same mano: 4 + 9 + 2 = 15
    state, _ = play(state, "6s", "Cs")                        # the mano ends
    assert state.mano == 1 and state.matta_value is None
    assert state.table_values[state.table.index(MATTA)] == 7
    assert notations(state) == {"4d", "4b"}                   # a 7 cannot be taken by a 4


def test_c6_matta_durata_smazzata_keeps_the_value() -> None:
    """C6, option matta_durata=smazzata (002): "Once played, keeps the value it had for the whole
    game"."""
    state = position(["7c 4d 4b", "6s 2s 3s"], "Rb Cs", PER_SMAZZATA)
    state, _ = run(state, DeclareAccuso(0, DECINO))
    state, _ = play(state, "7c")
    state, _ = play(state, "6s", "Cs")
    assert state.mano == 1 and state.value_of(MATTA) == 4
    assert notations(state) == {"4d x 7c", "4b x 7c"}


def test_c18_with_four_players_the_mano_is_four_plays() -> None:
    """C18 with 4 players: "mano" is one play by each of the four seats; the matta dropped at
    the second play keeps its value for the third and fourth, and is a 7 from the fifth."""
    state = position(["Fd Fc 2b", "7c 3d 3b", "2s 4s 6s", "2c Rc 5s"], "Rb Cs", FACOLTATIVO)
    state, _ = play(state, "Fd")                            # nothing to take: dropped
    state, _ = run(state, DeclareAccuso(1, DECINO))          # the matta is a 3
    state, _ = play(state, "7c")                            # nothing to take: dropped
    assert "2s x 7c Rb" in notations(state)                 # 3 + 10 + 2 = 15
    state, _ = play(state, "6s", "Cs")
    assert "2c x 7c Rb" in notations(state)                 # fourth play, still mano 0
    state, _ = play(state, "Rc", "Rb")
    assert state.mano == 1 and state.table_values[state.table.index(MATTA)] == 7
    assert "Fc x 7c" in notations(state)                    # 8 + 7 = 15: a 7 again


def test_a_matta_in_hand_keeps_its_accuso_value_until_played() -> None:
    """C18 speaks of the matta "calata sul tavolo"; in the hand it keeps the value of its accuso
    ("ai fini delle prese") through the manos of that hand."""
    state = position(["7c 2d 5b", "Rs Rc Rd"], "Cb", FACOLTATIVO)
    state, _ = run(state, DeclareAccuso(0, CIRULLA))
    state, _ = play(state, "2d")                  # nothing to take: dropped
    state, _ = play(state, "Rs")                  # 10 + 2 ... nothing: dropped
    assert state.mano == 1 and state.value_of(MATTA) == 1
    assert {n for n in notations(state) if n.startswith("7c")} == {"7c x 2d Cb Rs"}
    state, events = play(state, "7c", "2d Cb Rs")
    played = [e for e in events if isinstance(e, CardPlayed)]
    assert played[0].matta_value == 1 and played[0].scopa
