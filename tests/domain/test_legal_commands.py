"""Each engine's `legal_commands(state)`: exactly the commands its `decide` accepts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.briscola.engine import ENGINE as BRISCOLA
from domain.cirulla.accusi import PLAYER_KINDS
from domain.cirulla.decide import ENGINE as CIRULLA
from domain.cirulla.reference import every_subset
from domain.cirulla.ruleset import Accuso, Ruleset
from domain.cirulla.state import CirullaState
from domain.game import Command, DeclareAccuso, PlayCard, RuleViolation
from domain.shuffle import Seed
from tests.domain.briscola import helpers as briscola
from tests.domain.cirulla import helpers as cirulla

SOME = settings(max_examples=max(10, settings().max_examples // 3))


def accepted(state: CirullaState, command: Command) -> bool:
    try:
        CIRULLA.decide(state, command)
    except RuleViolation:
        return False
    return True


def candidates(state: CirullaState) -> list[Command]:
    """Every card of the seat to move with every part of the table, and every accuso kind."""
    seat = state.to_move
    plays: list[Command] = [PlayCard(seat, card, tuple(sorted(part)))
                            for card in state.hands[seat]
                            for part in [(), *every_subset(state.table)]]
    return plays + [DeclareAccuso(seat, kind) for kind in PLAYER_KINDS]


def normal(command: Command) -> Command:
    """An accuso as the candidates name it: the matta's value is left to `decide`."""
    return DeclareAccuso(command.seat, command.kind) if isinstance(command, DeclareAccuso) \
        else command


@given(ruleset=cirulla.rulesets, players=cirulla.players, seed=cirulla.seeds,
       rng_seed=st.integers(0, 2**16))
@SOME
def test_cirulla_offers_exactly_what_decide_accepts(ruleset: Ruleset, players: int, seed: Seed,
                                                    rng_seed: int) -> None:
    """000 "Il gioco della carta" and the accusi under C8: automatico declares them itself (none
    offered), facoltativo offers them beside the plays, obbligatorio only them while one is due."""
    smazzata = cirulla.random_smazzata(ruleset, players, seed, random.Random(rng_seed))
    for state in (smazzata.initial, *smazzata.states):
        offered = CIRULLA.legal_commands(state)
        if not state.dealt or state.finished or not state.hands[state.to_move]:
            assert offered == ()
            continue
        assert all(accepted(state, c) for c in offered)
        if ruleset.accuso is Accuso.AUTOMATICO:
            assert not any(isinstance(c, DeclareAccuso) for c in offered)
        elif len(state.table) <= 4:  # every part of a larger table is too many to try
            assert {normal(c) for c in offered} == {c for c in candidates(state)
                                                    if accepted(state, c)}


@given(seed=briscola.seeds, players=briscola.table_sizes, rng_seed=st.integers(0, 2**16),
       vinco_subito=st.booleans())
@SOME
def test_briscola_offers_every_card_of_the_seat_to_move(seed: Seed, players: int, rng_seed: int,
                                                        vinco_subito: bool) -> None:
    """004: "non vi è mai l'obbligo a giocare una carta": every card in hand, nobody else's."""
    smazzata = briscola.random_smazzata(seed, players, random.Random(rng_seed),
                                        vinco_subito=vinco_subito)
    for state in smazzata.states:
        offered = BRISCOLA.legal_commands(state)
        if state.turn is None:
            assert offered == ()
            continue
        assert offered == tuple(PlayCard(state.turn, c) for c in state.hands[state.turn])
        for command in offered:
            BRISCOLA.decide(state, command)
        for seat, hand in enumerate(state.hands):
            if seat != state.turn and hand:
                try:
                    BRISCOLA.decide(state, PlayCard(state.turn, hand[0]))
                except RuleViolation:
                    continue
                raise AssertionError(f"{hand[0]} of seat {seat} accepted from {state.turn}")
