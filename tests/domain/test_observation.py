"""Who may see what (domain/observation.py): the "Regole opzionali" of 000 and 004 on
"carte viste" and "carte scoperte", and the no-leak property of docs/style.md."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.briscola.state import BriscolaState
from domain.cards import Card
from domain.cirulla.ruleset import STANDARD, Accuso
from domain.cirulla.state import CirullaState
from domain.events import (
    CardPlayed,
    CardsDrawn,
    DealAnnulled,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
)
from domain.game import DeclareAccuso
from domain.observation import (
    ARBITER,
    PUBLIC,
    Observation,
    ObservationError,
    Viewer,
    Visibility,
    observe,
)
from domain.seating import Seating, SeatingError
from domain.shuffle import Seed
from tests.domain.briscola import helpers as briscola
from tests.domain.cirulla import helpers as cirulla

OPTIONS = (Visibility(), Visibility(carte_viste=True), Visibility(carte_scoperte=True),
           Visibility(carte_viste=True, carte_scoperte=True))
options = st.sampled_from(OPTIONS)
games = st.sampled_from(("cirulla", "briscola"))


def played(game: str, seed: Seed, players: int,
           rng: random.Random) -> tuple[tuple[PlayEvent, ...], tuple[object, ...], Seating]:
    """A random smazzata: its events and the engine state after each event."""
    if game == "cirulla":
        c = cirulla.random_smazzata(STANDARD, players, seed, rng)
        return c.events, c.states, Seating(players, STANDARD.direction)
    b = briscola.random_smazzata(seed, players, rng)
    return b.events, b.states, Seating(players)


def engine_hands(state: object) -> tuple[tuple[Card, ...], ...]:
    assert isinstance(state, CirullaState | BriscolaState)
    return state.hands


def viewers(seating: Seating) -> tuple[Viewer, ...]:
    return (*seating.seats, PUBLIC)


def after_play(events: Sequence[PlayEvent], nth_play: int) -> int:
    """The length of the prefix that ends with the nth CardPlayed (and what follows by itself)."""
    plays = [i for i, e in enumerate(events) if isinstance(e, CardPlayed)]
    end = plays[nth_play] + 1
    while end < len(events) and not isinstance(events[end], CardPlayed):
        end += 1
    return end


# ---- base visibility ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_senza_opzioni_ogni_giocatore_vede_solo_la_sua_mano(game: str) -> None:
    """rules-notes "Visibility": "Without options a seat sees its own hand, the table ...";
    "An arbiter sees everything; a spectator sees only what is public"."""
    events, states, seating = played(game, Seed(b"v" * 16), 4, random.Random(1))
    prefix = after_play(events, 5)
    hands = engine_hands(states[prefix - 1])
    for seat in seating.seats:
        obs = observe(game, events[:prefix], seating, seat)
        assert obs.hands == tuple(h if s == seat else None for s, h in enumerate(hands))
        assert obs.stock is None and obs.seen == ()
    assert observe(game, events[:prefix], seating, PUBLIC).hands == (None,) * 4
    arbiter = observe(game, events[:prefix], seating, ARBITER)
    assert arbiter.hands == hands and arbiter.stock is not None
    assert arbiter.stock_size == len(arbiter.stock)


# ---- carte viste --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["cirulla", "briscola"])
@pytest.mark.parametrize("players", [2, 4])
def test_saranno_mostrate_le_carte_viste_nelle_precedenti_mani_della_smazzata(
        game: str, players: int) -> None:
    """000/004: "Saranno mostrate: le carte viste nelle precedenti mani della smazzata"; a mano is
    one play by every seat (000 "mano"), a trick in Briscola."""
    events, _, seating = played(game, Seed(b"w" * 16), players, random.Random(2))
    plays = [e for e in events if isinstance(e, CardPlayed)]
    for nth in (0, players - 1, players, 2 * players + 1):
        prefix = events[:after_play(events, nth)]
        done = (nth + 1) - (nth + 1) % players
        viste = observe(game, prefix, seating, 0, Visibility(carte_viste=True))
        assert viste.seen == tuple(plays[:done])
        assert viste.mano == tuple(plays[done:nth + 1])
        plain = observe(game, prefix, seating, 0)
        assert plain.seen == () and plain.mano == viste.mano


def _cirulla_accuso_position() -> tuple[list[PlayEvent], Seating]:
    ruleset = replace(STANDARD, accuso=Accuso.FACOLTATIVO)
    state = cirulla.position(["Ad 2c 3b", "5s 6s 7s", "4d 6d Rc", "Fb Cb Rb"], "5d Fc Rs Cs",
                             ruleset)
    dealt = SmazzataDealt(number=0, dealer=3, attempt=0, seed_commitment="",
                          hands=state.hands, table=(*cirulla.cards("5d Fc Rs Cs"),),
                          stock=state.stock)
    state, declared = cirulla.run(state, DeclareAccuso(0, "cirulla"))
    state, first = cirulla.play(state, "3b")
    return [dealt, *declared, *first], state.seating


def test_le_carte_in_mano_agli_altri_giocatori_in_base_alle_dichiarazioni_effettuate() -> None:
    """000: "nelle partite con dichiarazione, le carte in mano agli altri giocatori in base alle
    dichiarazioni effettuate"; the cirulla is declared "scoprendo le sue carte"."""
    events, seating = _cirulla_accuso_position()
    declared = observe("cirulla", events[:2], seating, 1, Visibility(carte_viste=True))
    assert declared.shown[0] == cirulla.cards("Ad 2c 3b") and declared.hands[0] is None
    assert declared.points == (3, 0)
    after = observe("cirulla", events, seating, PUBLIC, Visibility(carte_viste=True))
    assert after.shown[0] == cirulla.cards("Ad 2c") and after.shown[1:] == ((), (), ())


@given(seed=cirulla.seeds, rng_seed=st.integers(0, 2**16))
def test_una_nuova_mano_non_e_piu_mostrata(seed: Seed, rng_seed: int) -> None:
    """000: the shown cards are those "in mano ... in base alle dichiarazioni": a new hand from
    the stock has been shown by nobody until its own accuso."""
    events, _, seating = played("cirulla", seed, 2, random.Random(rng_seed))
    for end, event in enumerate(events, start=1):
        obs = observe("cirulla", events[:end], seating, PUBLIC)
        if isinstance(event, HandDealt):
            assert obs.shown == ((), ())
        for seat, shown in enumerate(obs.shown):
            hand = observe("cirulla", events[:end], seating, ARBITER).hands[seat]
            assert hand is not None and set(shown) <= set(hand)


def _last_hand_start(game: str, events: Sequence[PlayEvent]) -> int:
    """The prefix length at which the stock is empty: the last deal (Cirulla) or draw."""
    kind = HandDealt if game == "cirulla" else CardsDrawn
    return max(i for i, e in enumerate(events) if isinstance(e, kind)) + 1


@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_nelle_partite_testa_a_testa_a_carte_viste_l_ultima_mano_si_gioca_a_carte_scoperte(
        game: str) -> None:
    """000/004: "Nelle partite testa a testa "a carte viste", l'ultima mano si gioca a carte
    scoperte"; 004: "l'ultima mano ... è giocoforza costituita da tre prese che avvengono senza
    pescare altre carte". Spectators see what the table shows."""
    events, states, seating = played(game, Seed(b"x" * 16), 2, random.Random(3))
    start = _last_hand_start(game, events)
    viste = Visibility(carte_viste=True)
    before = observe(game, events[:start - 1], seating, 0, viste)
    assert before.hands[1] is None and before.stock_size > 0
    for viewer in (0, 1, PUBLIC):
        last = observe(game, events[:start], seating, viewer, viste)
        assert last.last_hand_face_up and last.stock_size == 0
        assert last.hands == engine_hands(states[start - 1])
        assert all(len(h) == 3 for h in engine_hands(states[start - 1]))
        assert observe(game, events[:start], seating, viewer).hands[1 - (viewer == 1)] is None
    four, _, seating4 = played(game, Seed(b"x" * 16), 4, random.Random(3))
    end4 = _last_hand_start(game, four)
    assert observe(game, four[:end4], seating4, 0, viste).hands[1:] == (None,) * 3


# ---- carte scoperte -----------------------------------------------------------------------------

@given(game=games, seed=cirulla.seeds, rng_seed=st.integers(0, 2**16), cut=st.integers(0, 200))
def test_i_compagni_senza_essere_visti_dagli_avversari_giocano_a_carte_scoperte(
        game: str, seed: Seed, rng_seed: int, cut: int) -> None:
    """000/004: "i compagni, senza essere visti dagli avversari, giocano a carte scoperte"."""
    events, states, seating = played(game, seed, 4, random.Random(rng_seed))
    end = 1 + cut % len(events)
    while not settled(events, end):
        end += 1
    hands = engine_hands(states[end - 1])
    scoperte = Visibility(carte_scoperte=True)
    for seat in seating.seats:
        partner = seating.partner_of(seat)
        obs = observe(game, events[:end], seating, seat, scoperte)
        assert obs.hands == tuple(h if s in (seat, partner) else None for s, h in enumerate(hands))
    assert observe(game, events[:end], seating, PUBLIC, scoperte).hands == (None,) * 4
    two, _, seating2 = played(game, seed, 2, random.Random(rng_seed))
    assert observe(game, two[:2], seating2, 0, scoperte).hands[1] is None


def test_la_carta_di_briscola_pescata_resta_scoperta() -> None:
    """004: the briscola card is turned face up at the deal; who draws it is seen by all."""
    events, _, seating = played("briscola", Seed(b"y" * 16), 2, random.Random(4))
    start = _last_hand_start("briscola", events)
    last = events[start - 1]
    assert isinstance(last, CardsDrawn)
    obs = observe("briscola", events[:start], seating, PUBLIC)
    drawer = next(seat for seat, card in last.draws if card is obs.briscola)
    assert obs.shown[drawer] == (obs.briscola,) and obs.hands == (None, None)


# ---- the arbiter, and no leak -------------------------------------------------------------------

def settled(events: Sequence[PlayEvent], end: int) -> bool:
    """A prefix the engine's state can be compared with: Briscola's engine resolves the trick
    with its last card (the events after it follow), and an annulled deal's hands are gone
    (collected for the next attempt) though Cirulla's state keeps them until it."""
    if isinstance(events[end - 1], DealAnnulled):
        return False
    return end == len(events) or isinstance(events[end], CardPlayed | HandDealt | SmazzataDealt)


@given(game=games, players=st.sampled_from((2, 4)), seed=cirulla.seeds,
       rng_seed=st.integers(0, 2**16))
@settings(max_examples=20)
def test_l_arbitro_vede_ogni_mano_come_lo_stato_del_motore(game: str, players: int, seed: Seed,
                                                             rng_seed: int) -> None:
    """rules-notes: "An arbiter sees everything": every hand and the stock, in order."""
    events, states, seating = played(game, seed, players, random.Random(rng_seed))
    for end in range(1, len(events) + 1):
        if not settled(events, end):
            continue
        state = states[end - 1]
        assert isinstance(state, CirullaState | BriscolaState)
        obs = observe(game, events[:end], seating, ARBITER)
        assert obs.hands == state.hands and obs.stock == state.stock
        assert sorted(obs.table) == sorted(state.table)
        piles = state.taken if isinstance(state, BriscolaState) else state.captured
        assert obs.captured_sizes == (len(piles[0]), len(piles[1]))
        if isinstance(state, BriscolaState):
            assert obs.points == state.points
        else:
            assert obs.scope == state.scope


def swap_cards(event: PlayEvent, mapping: dict[Card, Card]) -> PlayEvent:
    """The event with every card renamed by `mapping` (nested tuples included)."""
    def rename(value: object) -> object:
        if isinstance(value, Card):
            return mapping.get(value, value)
        if isinstance(value, tuple):
            return tuple(rename(v) for v in value)
        return value
    renamed: dict[str, Any] = {f.name: rename(getattr(event, f.name)) for f in fields(event)}
    kind: Any = type(event)
    result: PlayEvent = kind(**renamed)
    return result


def hidden_from(obs: Observation, arbiter: Observation) -> list[Card]:
    """The cards `obs`'s viewer cannot see: unseen hands (less their shown cards), the stock."""
    assert arbiter.stock is not None
    hidden = [c for c in arbiter.stock if c is not obs.briscola]
    for seat, hand in enumerate(arbiter.hands):
        if obs.hands[seat] is None and hand is not None:
            hidden.extend(c for c in hand if c not in obs.shown[seat])
    return sorted(hidden)


@given(data=st.data(), game=games, players=st.sampled_from((2, 4)), seed=cirulla.seeds,
       rng_seed=st.integers(0, 2**16), visibility=options, cut=st.integers(0, 200))
def test_no_leak_le_carte_nascoste_non_cambiano_la_vista(
        data: st.DataObject, game: str, players: int, seed: Seed, rng_seed: int,
        visibility: Visibility, cut: int) -> None:
    """docs/style.md: "Two states differing only in cards hidden from a seat give that seat the
    same view": permute the hidden cards everywhere in the events, the view does not change."""
    events, _, seating = played(game, seed, players, random.Random(rng_seed))
    prefix = events[:1 + cut % len(events)]
    arbiter = observe(game, prefix, seating, ARBITER, visibility)
    viewer = data.draw(st.sampled_from(viewers(seating)))
    obs = observe(game, prefix, seating, viewer, visibility)
    hidden = hidden_from(obs, arbiter)
    permuted = data.draw(st.permutations(hidden))
    mapping = dict(zip(hidden, permuted, strict=True))
    other = [swap_cards(e, mapping) for e in prefix]
    assert observe(game, other, seating, viewer, visibility) == obs
    if hidden != permuted:
        assert observe(game, other, seating, ARBITER, visibility) != arbiter


@given(game=games, seed=cirulla.seeds, rng_seed=st.integers(0, 2**16), visibility=options)
@settings(max_examples=20)
def test_il_mazzo_non_e_mai_visto_da_un_giocatore(game: str, seed: Seed, rng_seed: int,
                                                   visibility: Visibility) -> None:
    """The stock is face down: its order is the arbiter's only (rules-notes "Visibility")."""
    events, _, seating = played(game, seed, 2, random.Random(rng_seed))
    for end in range(1, len(events) + 1, 3):
        for viewer in viewers(seating):
            assert observe(game, events[:end], seating, viewer, visibility).stock is None


# ---- bad input ----------------------------------------------------------------------------------

def test_input_errato_nomina_evento_e_causa() -> None:
    events, _, seating = played("briscola", Seed(b"z" * 16), 2, random.Random(5))
    with pytest.raises(ObservationError, match="unknown game 'tressette'"):
        observe("tressette", events, seating, 0)
    with pytest.raises(SeatingError, match="seat 3"):
        observe("briscola", events, seating, 3)
    with pytest.raises(ObservationError, match=r"event 0 .CardPlayed.: .*not been dealt"):
        observe("briscola", events[1:], seating, 0)
    dealt = events[0]
    assert isinstance(dealt, SmazzataDealt)
    stranger = dealt.stock[0]
    with pytest.raises(ObservationError, match=rf"event 1 .CardPlayed.: .*{stranger.code}"):
        observe("briscola", [dealt, CardPlayed(seat=1, card=stranger)], seating, 0)
