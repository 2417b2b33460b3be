"""Helpers of the Tarocchi tests: a tournament drawn from fixed seeds, and whole smazzate written
on the sheets as a careful scorer would write them (every figure right)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from domain.shuffle import Seed
from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    TarocchiCommand,
    WritePlayerLine,
    WriteTableLine,
)
from domain.tarocchi.decide import decide
from domain.tarocchi.entrants import Entrant
from domain.tarocchi.events import (
    PlayerLineWritten,
    TableLineWritten,
    TarocchiTournamentCreated,
)
from domain.tarocchi.seats import POSITIONS, Position, TableSeating
from domain.tarocchi.sheet import KINDS, Games, Roles, diff, line_number
from domain.tarocchi.state import TarocchiState, fold
from tests.replacing import replace

SEATING_SEED = Seed.from_hex("000102030405060708090a0b0c0d0e0f")
SORTEGGIO_SEED = Seed.from_hex("5eed0000000000000000000000000003")


def run(state: TarocchiState, *commands: TarocchiCommand) -> TarocchiState:
    for command in commands:
        state = fold(decide(state, command), state)
    return state


def entrants(count: int, teams: int = 0) -> tuple[Entrant, ...]:
    """`count` places, the first `teams` of them teams of two."""
    made = [Entrant(f"Squadra {k}", (f"Socio {k}a", f"Socio {k}b")) for k in range(1, teams + 1)]
    made += [Entrant(f"Giocatore {k}") for k in range(teams + 1, count + 1)]
    return tuple(made)


def drawn(count: int, recomposition: str = "precostituito", final: str = "fasce",
          teams: int = 0) -> TarocchiState:
    return run(TarocchiState(), CreateTarocchiTournament(TarocchiTournamentCreated(
        "Torneo di prova", entrants(count, teams), recomposition, final,
        SEATING_SEED.commitment(), SORTEGGIO_SEED.commitment())), DrawSeating(SEATING_SEED))


@dataclass(frozen=True, slots=True)
class Hand:
    """One smazzata as it ended: the roles, and the games each side realized (side 0: the
    Chiamante and Compagno, or the Solista)."""

    roles: Roles
    won: Games
    lost: Games


def tot_before(state: TarocchiState, player: int, turn: int, smazzata: int) -> int:
    number = line_number(turn, smazzata) - 1
    if number == 0:
        return 0
    before_turn, before_smazzata = divmod(number - 1, 4)
    return state.player_lines[(player, before_turn + 1, before_smazzata + 1)].tot


def lines(state: TarocchiState, turn: int, table: TableSeating, smazzata: int,
          hand: Hand) -> tuple[tuple[PlayerLineWritten, ...], TableLineWritten]:
    """The four player lines and the table line of a smazzata, all correct."""
    roles = hand.roles
    written = []
    for player in table.players:
        side = roles.side_of(player)
        plus, minus = (hand.won, hand.lost) if side == 0 else (hand.lost, hand.won)
        molt = roles.molt_of(player)
        penalty = sum(p.points for p in state.ruled(player, turn, smazzata))
        parz = diff(plus, minus) * molt - penalty
        tot = tot_before(state, player, turn, smazzata) + parz
        validator = min(roles.opponents(player, table.players))
        written.append(PlayerLineWritten(player, turn, smazzata, plus, minus,
                                         diff(plus, minus), molt, penalty, parz, tot,
                                         roles.role_of(player).value, validator))
    compiler = table.at(Position.NORD)
    table_line = TableLineWritten(turn, table.letter, smazzata, table.dealer(smazzata),
                                  roles.caller, roles.partner, roles.solista, roles.solista_cards,
                                  tuple((w.player, w.tot) for w in written), compiler,
                                  min(roles.opponents(compiler, table.players)))
    return tuple(written), table_line


def write(state: TarocchiState, turn: int, table: TableSeating, smazzata: int,
          hand: Hand) -> TarocchiState:
    players, table_line = lines(state, turn, table, smazzata, hand)
    return run(state, *(WritePlayerLine(p) for p in players), WriteTableLine(table_line))


def play_turn(state: TarocchiState, turn: int,
              hands: Sequence[Hand] | None = None) -> TarocchiState:
    """Every table of `turn` plays its 4 smazzate: `hands` (cycled) or a plain call won 2-1."""
    k = 0
    for table in state.turns[turn - 1].tables:
        for smazzata in range(1, 5):
            hand = hands[k % len(hands)] if hands else None
            k += 1
            state = write(state, turn, table, smazzata, placed(hand, table, smazzata))
    return state


def placed(hand: Hand | None, table: TableSeating, smazzata: int) -> Hand:
    """`hand` with its roles moved onto `table` (roles given as positions 1-4 of the table), or
    a call by the dealer with his left-hand neighbour, won 2-1."""
    if hand is None:
        caller = table.dealer(smazzata)
        partner = table.players[(table.players.index(caller) + 1) % 4]
        return Hand(Roles(caller, partner), (("RIM", 1), ("VAN", 1)), (("RE", 1),))
    r = hand.roles

    def at(index: int | None) -> int | None:
        return None if index is None else table.players[index - 1]

    return replace(hand, roles=Roles(at(r.caller), at(r.partner), at(r.solista),
                                     r.solista_cards))


def games() -> st.SearchStrategy[Games]:
    return st.lists(st.tuples(st.sampled_from(sorted(KINDS)), st.integers(1, 3)),
                    max_size=4).map(tuple)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """A random valid smazzata, its roles given as positions 1-4 (see `placed`)."""
    kind = draw(st.sampled_from(("chiamata", "solo15", "solo5")))
    if kind == "chiamata":
        caller, partner = draw(st.permutations([1, 2, 3, 4]))[:2]
        roles = Roles(caller, partner)
    else:
        roles = Roles(solista=draw(st.integers(1, 4)),
                      solista_cards=15 if kind == "solo15" else 5)
    return Hand(roles, draw(games()), draw(games()))


__all__ = ["POSITIONS", "SEATING_SEED", "SORTEGGIO_SEED", "Hand", "drawn", "entrants",
           "games", "hands", "lines", "placed", "play_turn", "run", "write"]
