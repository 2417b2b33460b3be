"""Whole Cirulla matches: dealer rotation, one seed per smazzata, the end per match format."""

from __future__ import annotations

import pytest

from domain.cirulla.bot import choose
from domain.cirulla.match import iter_match, play_match
from domain.cirulla.ruleset import STANDARD, TAVERNA, Accuso, Ruleset
from domain.events import AccusoDeclared, SmazzataDealt
from domain.match_format import MatchFormat, match_status
from domain.match_seed import first_dealer, smazzata_seed
from domain.seating import Direction, Seating
from domain.shuffle import Seed, commitment
from tests.replacing import replace

SEED = Seed.from_hex("5eed0000000000000000000000000001")


@pytest.mark.parametrize("players", [2, 4])
def test_il_mazziere_gira_in_senso_antiorario(players: int) -> None:
    """000: "Ad ogni fine smazzata ... il mazziere gira in senso antiorario e cioè il prossimo
    mazziere sarà quello seduto alla destra del mazziere precedente"; "Quando il gioco ha
    inizio, il mazziere viene stabilito casualmente dal sistema" (from the match seed)."""
    seating = Seating(players)
    fmt = MatchFormat.parse("6smazzate", "cirulla")
    played = play_match(STANDARD, seating, fmt, SEED, choose)
    dealers = [s.dealer for s in played.smazzate]
    first = first_dealer(SEED, players)
    assert dealers == [(first + k) % players for k in range(6)]


def test_c2_clockwise_the_dealer_passes_to_the_left() -> None:
    """C2, option direction=clockwise (002): the turn, and so the deal, go clockwise."""
    ruleset = replace(STANDARD, direction=Direction.CLOCKWISE)
    played = play_match(ruleset, Seating(4, Direction.CLOCKWISE),
                        MatchFormat.parse("3smazzate", "cirulla"), SEED, choose)
    first = first_dealer(SEED, 4)
    assert [s.dealer for s in played.smazzate] == [(first - k) % 4 for k in range(3)]


def test_each_smazzata_has_its_own_seed_and_commitment() -> None:
    """"smazzata: la fase di gioco che inizia con la distribuzione delle carte": each deal is
    shuffled from the smazzata's own seed, derived from the match seed."""
    fmt = MatchFormat.parse("3smazzate", "cirulla")
    for number, smazzata in enumerate(iter_match(STANDARD, Seating(2), fmt, SEED, choose)):
        assert smazzata.number == number
        assert smazzata.seed == smazzata_seed(SEED, number)
        deal = smazzata.events[0]
        assert isinstance(deal, SmazzataDealt) and deal.number == number
        assert deal.seed_commitment == commitment(smazzata.seed)


@pytest.mark.parametrize("text, count", [("1smazzata", 1), ("3smazzate", 3), ("6smazzate", 6)])
def test_partita_a_numero_di_smazzate(text: str, count: int) -> None:
    """000: "partita: la fase di gioco composta da una o più smazzate"; "Se è stato stabilito il
    numero di smazzate di cui è composta la partita vince la partita chi fa più punti al termine
    delle smazzate previste"."""
    fmt = MatchFormat.parse(text, "cirulla")
    played = play_match(STANDARD, Seating(2), fmt, SEED, choose)
    assert len(played.smazzate) == count and played.status.over
    totals = played.status.totals
    assert totals == tuple(sum(s.breakdown.totals[i] for s in played.smazzate) for i in (0, 1))
    if totals[0] != totals[1]:
        assert played.status.winner == (0 if totals[0] > totals[1] else 1)


@pytest.mark.parametrize("ruleset", [STANDARD, TAVERNA], ids=["standard", "taverna"])
@pytest.mark.parametrize("players", [2, 4])
def test_partita_a_punti_vince_chi_avendo_superato_il_punteggio_ha_piu_punti(
        ruleset: Ruleset, players: int) -> None:
    """000: "vince la partita chi, avendo superato il punteggio previsto, ha più punti
    dell'avversario"; the match stops at the first smazzata that decides it."""
    fmt = MatchFormat.parse("21pt", "cirulla")
    played = play_match(ruleset, Seating(players, ruleset.direction), fmt, SEED, choose)
    status = played.status
    assert status.over and status.winner is not None
    assert status.totals[status.winner] >= 21
    assert status.totals[status.winner] > status.totals[1 - status.winner]
    results = [s.result for s in played.smazzate]
    assert not any(match_status(fmt, results[:k]).over for k in range(len(results)))


@pytest.mark.parametrize("mode", list(Accuso))
def test_every_accuso_mode_plays_to_the_end(mode: Accuso) -> None:
    """C8 under every option: the simulated player declares before playing (002 "you have to
    knock" under obbligatorio), so no smazzata stops on a refused play."""
    ruleset = replace(STANDARD, accuso=mode)
    played = play_match(ruleset, Seating(2), MatchFormat.parse("6smazzate", "cirulla"),
                        Seed.from_hex("5eed0000000000000000000000000066"), choose)
    assert len(played.smazzate) == 6
    player_accusi = [e for s in played.smazzate for e in s.events
                     if isinstance(e, AccusoDeclared) and e.kind in ("cirulla", "decino")]
    assert player_accusi, "these seeds deal at least one cirulla or decino"


def test_the_result_carries_the_cappotto_and_the_last_capture() -> None:
    """000 "Conclusione per Cappotto": the smazzata result names the cappotto side for the match
    format (C11), and the last capture for the KO tie-break."""
    fmt = MatchFormat.parse("3smazzate", "cirulla")
    for smazzata in iter_match(STANDARD, Seating(2), fmt, SEED, choose):
        result = smazzata.result
        assert result.points == smazzata.breakdown.totals
        assert result.cappotto_side == smazzata.breakdown.cappotto_side
        assert result.last_capture_side == smazzata.final.last_capture_side
