"""Who may see what (domain/viewing.py and each engine's `observe`): the "Regole opzionali" of
000 and 004 on "carte viste" and "carte scoperte", and the no-leak property of docs/style.md.

The rules tests read one smazzata played through an engine: the view after event i is the
engine's `observe` of the state after it, with the smazzata's plays so far. The no-leak property
runs over the timeline of random live matches (domain/record/timeline.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.briscola.engine import ENGINE as BRISCOLA
from domain.briscola.state import BriscolaState
from domain.cards import UNKNOWN, Card
from domain.cirulla.decide import ENGINE as CIRULLA
from domain.cirulla.ruleset import STANDARD, Accuso
from domain.cirulla.state import CirullaState
from domain.events import CardPlayed, CardsDrawn, HandDealt, PlayEvent, SmazzataDealt
from domain.game import DeclareAccuso
from domain.record.catalog import CATALOG
from domain.record.match import MatchEvent
from domain.record.timeline import timeline
from domain.seating import Seating, SeatingError
from domain.shuffle import Seed
from domain.viewing import (
    ARBITER,
    NO_OPTIONS,
    PUBLIC,
    Observation,
    ObservationError,
    Viewer,
    Visibility,
)
from tests.domain.briscola import helpers as briscola
from tests.domain.cirulla import helpers as cirulla
from tests.domain.record.live import LiveMatch, live_matches
from tests.replacing import replace

OPTIONS = (Visibility(), Visibility(carte_viste=True), Visibility(carte_scoperte=True),
           Visibility(carte_viste=True, carte_scoperte=True))
options = st.sampled_from(OPTIONS)
games = st.sampled_from(("cirulla", "briscola"))
State = CirullaState | BriscolaState


@dataclass(frozen=True, slots=True)
class Smazzata:
    """One smazzata played through an engine: its events and the state after each event."""

    game: str
    events: tuple[PlayEvent, ...]
    states: tuple[State, ...]
    seating: Seating

    def view(self, end: int, viewer: Viewer,
             visibility: Visibility = NO_OPTIONS) -> Observation:
        """The view after the first `end` events."""
        plays = tuple(e for e in self.events[:end] if isinstance(e, CardPlayed))
        state = self.states[end - 1]
        if isinstance(state, CirullaState):
            return CIRULLA.observe(state, viewer, visibility, plays)
        return BRISCOLA.observe(state, viewer, visibility, plays)

    def hands(self, end: int) -> tuple[tuple[Card, ...], ...]:
        return self.states[end - 1].hands


def played(game: str, seed: Seed, players: int, rng: random.Random) -> Smazzata:
    """A random smazzata and the engine state after each event."""
    if game == "cirulla":
        c = cirulla.random_smazzata(STANDARD, players, seed, rng)
        return Smazzata(game, c.events, c.states, Seating(players, STANDARD.direction))
    b = briscola.random_smazzata(seed, players, rng)
    return Smazzata(game, b.events, b.states, Seating(players))


def viewers(seating: Seating) -> tuple[Viewer, ...]:
    return (*seating.seats, PUBLIC)


def after_play(events: Sequence[PlayEvent], nth_play: int) -> int:
    """The length of the prefix that ends with the nth CardPlayed (and what follows by itself)."""
    plays = [i for i, e in enumerate(events) if isinstance(e, CardPlayed)]
    end = plays[nth_play] + 1
    while end < len(events) and not isinstance(events[end], CardPlayed):
        end += 1
    return end


def dealt(s: Smazzata, end: int) -> bool:
    """Cards are out after `end` events: not right after an annulled deal (Cirulla C1), whose
    cards are collected for the next attempt though the engine's state keeps them until it."""
    state = s.states[end - 1]
    return state.dealt if isinstance(state, CirullaState) else state.setup.dealt


# ---- base visibility ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_senza_opzioni_ogni_giocatore_vede_solo_la_sua_mano(game: str) -> None:
    """rules-notes "Visibility": "Without options a seat sees its own hand, the table ...";
    "An arbiter sees everything; a spectator sees only what is public"."""
    s = played(game, Seed(b"v" * 16), 4, random.Random(1))
    prefix = after_play(s.events, 5)
    hands = s.hands(prefix)
    for seat in s.seating.seats:
        obs = s.view(prefix, seat)
        assert obs.hands == tuple(h if i == seat else None for i, h in enumerate(hands))
        assert obs.stock is None and obs.seen == ()
    assert s.view(prefix, PUBLIC).hands == (None,) * 4
    arbiter = s.view(prefix, ARBITER)
    assert arbiter.hands == hands and arbiter.stock is not None
    assert arbiter.stock_size == len(arbiter.stock)


# ---- carte viste --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["cirulla", "briscola"])
@pytest.mark.parametrize("players", [2, 4])
def test_saranno_mostrate_le_carte_viste_nelle_precedenti_mani_della_smazzata(
        game: str, players: int) -> None:
    """000/004: "Saranno mostrate: le carte viste nelle precedenti mani della smazzata"; a mano is
    one play by every seat (000 "mano"), a trick in Briscola."""
    s = played(game, Seed(b"w" * 16), players, random.Random(2))
    plays = [e for e in s.events if isinstance(e, CardPlayed)]
    for nth in (0, players - 1, players, 2 * players + 1):
        end = after_play(s.events, nth)
        done = (nth + 1) - (nth + 1) % players
        viste = s.view(end, 0, Visibility(carte_viste=True))
        assert viste.seen == tuple(plays[:done])
        assert viste.mano == tuple(plays[done:nth + 1])
        plain = s.view(end, 0)
        assert plain.seen == () and plain.mano == viste.mano


def _cirulla_accuso_position() -> Smazzata:
    ruleset = replace(STANDARD, accuso=Accuso.FACOLTATIVO)
    state = cirulla.position(["Ad 2c 3b", "5s 6s 7s", "4d 6d Rc", "Fb Cb Rb"], "5d Fc Rs Cs",
                             ruleset)
    deal = SmazzataDealt(number=0, dealer=3, attempt=0, seed_commitment="",
                         hands=state.hands, table=(*cirulla.cards("5d Fc Rs Cs"),),
                         stock=state.stock)
    events: list[PlayEvent] = [deal]
    states: list[State] = [state]
    declared = cirulla.run(state, DeclareAccuso(0, "cirulla"))
    first = cirulla.play(declared[0], "3b")
    for after, new in (declared, first):
        events.extend(new)
        states.extend([after] * len(new))  # the state after the last event of each step
    return Smazzata("cirulla", tuple(events), tuple(states), state.seating)


def test_le_carte_in_mano_agli_altri_giocatori_in_base_alle_dichiarazioni_effettuate() -> None:
    """000: "nelle partite con dichiarazione, le carte in mano agli altri giocatori in base alle
    dichiarazioni effettuate"; the cirulla is declared "scoprendo le sue carte"."""
    s = _cirulla_accuso_position()
    declared = s.view(2, 1, Visibility(carte_viste=True))
    assert declared.shown[0] == cirulla.cards("Ad 2c 3b") and declared.hands[0] is None
    assert declared.points == (3, 0)
    after = s.view(len(s.events), PUBLIC, Visibility(carte_viste=True))
    assert after.shown[0] == cirulla.cards("Ad 2c") and after.shown[1:] == ((), (), ())


@given(seed=cirulla.seeds, rng_seed=st.integers(0, 2**16))
def test_una_nuova_mano_non_e_piu_mostrata(seed: Seed, rng_seed: int) -> None:
    """000: the shown cards are those "in mano ... in base alle dichiarazioni": a new hand from
    the stock has been shown by nobody until its own accuso."""
    s = played("cirulla", seed, 2, random.Random(rng_seed))
    for end, event in enumerate(s.events, start=1):
        obs = s.view(end, PUBLIC)
        if isinstance(event, HandDealt):
            assert obs.shown == ((), ())
        for seat, shown in enumerate(obs.shown):
            hand = s.view(end, ARBITER).hands[seat]
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
    s = played(game, Seed(b"x" * 16), 2, random.Random(3))
    start = _last_hand_start(game, s.events)
    viste = Visibility(carte_viste=True)
    # Before the play that leads to the last hand (Briscola's engine draws with that card).
    before = max(i for i, e in enumerate(s.events[:start - 1]) if isinstance(e, CardPlayed))
    early = s.view(before, 0, viste)
    assert early.hands[1] is None and early.stock_size > 0
    for viewer in (0, 1, PUBLIC):
        last = s.view(start, viewer, viste)
        assert last.last_hand_face_up and last.stock_size == 0
        assert last.hands == s.hands(start)
        assert all(len(h) == 3 for h in s.hands(start))
        assert s.view(start, viewer).hands[1 - (viewer == 1)] is None
    four = played(game, Seed(b"x" * 16), 4, random.Random(3))
    end4 = _last_hand_start(game, four.events)
    assert four.view(end4, 0, viste).hands[1:] == (None,) * 3


# ---- carte scoperte -----------------------------------------------------------------------------

@given(game=games, seed=cirulla.seeds, rng_seed=st.integers(0, 2**16), cut=st.integers(0, 200))
def test_i_compagni_senza_essere_visti_dagli_avversari_giocano_a_carte_scoperte(
        game: str, seed: Seed, rng_seed: int, cut: int) -> None:
    """000/004: "i compagni, senza essere visti dagli avversari, giocano a carte scoperte"."""
    s = played(game, seed, 4, random.Random(rng_seed))
    end = 1 + cut % len(s.events)
    while not dealt(s, end):
        end += 1
    hands = s.hands(end)
    scoperte = Visibility(carte_scoperte=True)
    for seat in s.seating.seats:
        partner = s.seating.partner_of(seat)
        obs = s.view(end, seat, scoperte)
        assert obs.hands == tuple(h if i in (seat, partner) else None for i, h in enumerate(hands))
    assert s.view(end, PUBLIC, scoperte).hands == (None,) * 4
    two = played(game, seed, 2, random.Random(rng_seed))
    assert two.view(2, 0, scoperte).hands[1] is None


def test_la_carta_di_briscola_pescata_resta_scoperta() -> None:
    """004: the briscola card is turned face up at the deal; who draws it is seen by all."""
    s = played("briscola", Seed(b"y" * 16), 2, random.Random(4))
    start = _last_hand_start("briscola", s.events)
    last = s.events[start - 1]
    assert isinstance(last, CardsDrawn)
    obs = s.view(start, PUBLIC)
    drawer = next(seat for seat, card in last.draws if card is obs.briscola)
    assert obs.shown[drawer] == (obs.briscola,) and obs.hands == (None, None)


# ---- the arbiter, the stock ---------------------------------------------------------------------

@given(game=games, players=st.sampled_from((2, 4)), seed=cirulla.seeds,
       rng_seed=st.integers(0, 2**16))
@settings(max_examples=20)
def test_l_arbitro_vede_ogni_mano_come_lo_stato_del_motore(game: str, players: int, seed: Seed,
                                                             rng_seed: int) -> None:
    """rules-notes: "An arbiter sees everything": every hand and the stock, in order."""
    s = played(game, seed, players, random.Random(rng_seed))
    for end in range(1, len(s.events) + 1):
        if not dealt(s, end):
            continue
        state = s.states[end - 1]
        obs = s.view(end, ARBITER)
        assert obs.hands == state.hands and obs.stock == state.stock
        assert sorted(obs.table) == sorted(state.table)
        piles = state.taken if isinstance(state, BriscolaState) else state.captured
        assert obs.captured_sizes == (len(piles[0]), len(piles[1]))
        if isinstance(state, BriscolaState):
            assert obs.points == state.points
        else:
            assert obs.scope == state.scope


@given(game=games, seed=cirulla.seeds, rng_seed=st.integers(0, 2**16), visibility=options)
@settings(max_examples=20)
def test_il_mazzo_non_e_mai_visto_da_un_giocatore(game: str, seed: Seed, rng_seed: int,
                                                   visibility: Visibility) -> None:
    """The stock is face down: its order is the arbiter's only (rules-notes "Visibility")."""
    s = played(game, seed, 2, random.Random(rng_seed))
    for end in range(1, len(s.events) + 1, 3):
        for viewer in viewers(s.seating):
            assert s.view(end, viewer, visibility).stock is None


# ---- no leak ------------------------------------------------------------------------------------

def swap_cards(event: MatchEvent, mapping: dict[Card, Card]) -> MatchEvent:
    """The event with every card renamed by `mapping` (nested tuples included)."""
    def rename(value: object) -> object:
        if isinstance(value, Card):
            return mapping.get(value, value)
        if isinstance(value, tuple):
            return tuple(rename(v) for v in value)
        return value
    renamed: dict[str, Any] = {name: rename(getattr(event, name))
                              for name in event.__struct_fields__}
    kind: Any = type(event)
    result: MatchEvent = kind(**renamed)
    return result


def hidden_from(obs: Observation, arbiter: Observation) -> list[Card]:
    """The cards `obs`'s viewer cannot see: unseen hands (less their shown cards), the stock."""
    assert arbiter.stock is not None
    hidden = [c for c in arbiter.stock if c is not obs.briscola]
    for seat, hand in enumerate(arbiter.hands):
        if obs.hands[seat] is None and hand is not None:
            hidden.extend(c for c in hand if c not in obs.shown[seat])
    return sorted(hidden)


def with_hidden_swapped(match: LiveMatch, version: int,
                        mapping: dict[Card, Card]) -> list[tuple[MatchEvent, datetime]]:
    """The match's first `version` events with the cards renamed from the current smazzata's
    deal on: before it the same cards were played in the open, in earlier smazzate."""
    recorded = list(match.recorded[:version])
    deal = max(i for i, (e, _) in enumerate(recorded) if isinstance(e, SmazzataDealt))
    return recorded[:deal] + [(swap_cards(e, mapping), at) for e, at in recorded[deal:]]


@given(data=st.data(), match=live_matches(), visibility=options)
@settings(max_examples=max(10, settings().max_examples // 2))
def test_no_leak_le_carte_nascoste_non_cambiano_la_vista(
        data: st.DataObject, match: LiveMatch, visibility: Visibility) -> None:
    """docs/style.md: "Two states differing only in cards hidden from a seat give that seat the
    same view": permute the cards hidden at a step of a live match wherever they appear in its
    record, the view at that step does not change (the arbiter's does)."""
    line = timeline(CATALOG, match.recorded)
    dealt_versions = [v for v in range(1, len(line)) if line.observe(v, ARBITER).dealt]
    version = data.draw(st.sampled_from(dealt_versions))
    seating = line.state(version).seating
    assert seating is not None
    viewer = data.draw(st.sampled_from(viewers(seating)))
    obs = line.observe(version, viewer, visibility)
    arbiter = line.observe(version, ARBITER, visibility)
    hidden = hidden_from(obs, arbiter)
    permuted = data.draw(st.permutations(hidden))
    other = timeline(CATALOG, with_hidden_swapped(match, version,
                                                  dict(zip(hidden, permuted, strict=True))))
    assert other.observe(version, viewer, visibility) == obs
    if hidden != permuted:
        assert other.observe(version, ARBITER, visibility) != arbiter


# ---- bad input, unknown cards -------------------------------------------------------------------

def test_input_errato_nomina_la_causa() -> None:
    s = played("briscola", Seed(b"z" * 16), 2, random.Random(5))
    end = after_play(s.events, 3)
    with pytest.raises(SeatingError, match="seat 3"):
        s.view(end, 3)
    state = s.states[end - 1]
    assert isinstance(state, BriscolaState)
    with pytest.raises(ObservationError, match=r"briscola: 1 plays given .* after 4 plays"):
        BRISCOLA.observe(state, 0, NO_OPTIONS,
                         [e for e in s.events[1:2] if isinstance(e, CardPlayed)])


@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_una_carta_sconosciuta_si_mostra_senza_errori(game: str) -> None:
    """A transcribed record may hold `??` (domain.cards.UNKNOWN) in hands, table or stock: the
    views pass it through without asking its value or suit."""
    s = played(game, Seed(b"u" * 16), 2, random.Random(6))
    end = after_play(s.events, 2)
    state = s.states[end - 1]
    hands = tuple((*h[:-1], UNKNOWN) for h in state.hands)
    stock = (UNKNOWN, *state.stock[1:])
    unknown: State
    if isinstance(state, CirullaState):
        unknown = state._replace(hands=hands, stock=stock, table=(*state.table, UNKNOWN))
    else:
        unknown = state._replace(hands=hands, stock=stock)
    plays = tuple(e for e in s.events[:end] if isinstance(e, CardPlayed))
    engine: Any = CIRULLA if game == "cirulla" else BRISCOLA
    for viewer in (0, 1, PUBLIC, ARBITER):
        obs = engine.observe(unknown, viewer, Visibility(carte_viste=True), plays)
        assert (obs.hands[0] == hands[0]) == (viewer in (0, ARBITER))
    assert UNKNOWN in engine.observe(unknown, ARBITER, Visibility(), plays).stock
