"""The three events of a play that completes a mano, each folded to its own state (issue 23,
point 6): the trick on the table, then taken, then the draws; and a record that has them out of
that order is refused, naming the rule."""

from __future__ import annotations

import random

import pytest

from domain.briscola.engine import ENGINE
from domain.briscola.state import BriscolaState, is_over, play
from domain.events import CardPlayed, CardsDrawn, PlayEvent, TrickTaken
from domain.game import RuleViolation
from domain.shuffle import Seed
from tests.domain.briscola.helpers import Played, random_smazzata

SEED = Seed.from_hex("5eed0000000000000000000000000023")


def first_trick(played: Played) -> tuple[BriscolaState, int]:
    """The state before the first trick's completing play, and that play's index."""
    at = next(i for i, e in enumerate(played.events) if isinstance(e, TrickTaken)) - 1
    return played.states[at - 1], at


@pytest.mark.parametrize("players", [2, 4])
def test_la_mano_completa_resta_sul_tavolo_fino_alla_presa_e_si_pesca_dopo(players: int) -> None:
    played = random_smazzata(SEED, players, random.Random(3))
    before, at = first_trick(played)
    card_played, taken, drawn = played.events[at:at + 3]
    assert isinstance(card_played, CardPlayed) and isinstance(drawn, CardsDrawn)
    on_table = ENGINE.evolve(before, card_played)
    assert on_table.table == (*before.table, card_played.card)
    assert len(on_table.table) == players and on_table.stock == before.stock
    assert sum(map(len, on_table.hands)) == 2 * players
    assert ENGINE.to_move(on_table) is None and not is_over(on_table)
    assert ENGINE.legal_commands(on_table) == ()
    after_taken = ENGINE.evolve(on_table, taken)
    assert after_taken.table == () and after_taken.hands == on_table.hands
    assert after_taken.stock == before.stock and after_taken.points == play(before,
                                                                            card_played.card).points
    assert ENGINE.to_move(after_taken) is None and not is_over(after_taken)
    after_draw = ENGINE.evolve(after_taken, drawn)
    assert after_draw == play(before, card_played.card) == played.states[at + 2]
    for seat, card in drawn.draws:
        assert card not in on_table.hands[seat] and card not in after_taken.hands[seat]
        assert after_draw.hands[seat][-1] is card


def test_l_ultima_mano_senza_mazzo_e_presa_senza_pesca() -> None:
    played = random_smazzata(SEED, 2, random.Random(5))
    last = max(i for i, e in enumerate(played.events) if isinstance(e, CardPlayed))
    before, final = played.states[last - 1], played.events[last]
    assert isinstance(final, CardPlayed)
    on_table = ENGINE.evolve(before, final)
    assert not on_table.stock and len(on_table.table) == 2 and not is_over(on_table)
    done = ENGINE.evolve(on_table, played.events[last + 1])
    assert done == play(before, final.card) and is_over(done)


def refused(state: BriscolaState, event: PlayEvent) -> str:
    with pytest.raises(RuleViolation) as refusal:
        ENGINE.evolve(state, event)
    return refusal.value.rule


def test_gli_eventi_fuori_ordine_sono_rifiutati_nominando_la_regola() -> None:
    played = random_smazzata(SEED, 2, random.Random(3))
    before, at = first_trick(played)
    card_played, taken, drawn = played.events[at:at + 3]
    on_table = ENGINE.evolve(before, card_played)
    after_taken = ENGINE.evolve(on_table, taken)
    next_play = next(e for e in played.events[at + 3:] if isinstance(e, CardPlayed))
    assert refused(on_table, next_play) == "presa"        # a play before the trick is taken
    assert refused(on_table, drawn) == "pesca"            # the draws before the trick is taken
    assert refused(after_taken, taken) == "presa"         # the trick taken twice
    assert refused(after_taken, next_play) == "presa"     # a play before the draws
    assert refused(before, taken) == "presa"              # no trick complete
    assert refused(ENGINE.evolve(after_taken, drawn), drawn) == "pesca"   # drawn twice
