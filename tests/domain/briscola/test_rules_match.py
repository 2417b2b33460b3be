"""Source 004, the end of a smazzata and of a match: one test per rule sentence, quoted."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from domain.briscola.bot import choose_command
from domain.briscola.match import BriscolaMatch, play_briscola_match, smazzata_result, timeout
from domain.briscola.scoring import unawarded_points
from domain.events import TrickTaken
from domain.match_format import MatchFormat, briscola_smazzata_winner, match_status
from domain.match_seed import first_dealer
from domain.seating import Seating
from domain.shuffle import Seed
from tests.domain.briscola.helpers import Played, random_smazzata, seeds, table_sizes


def _match(text: str, seed: Seed, players: int = 2, *, ko: bool = False,
           vinco_subito: bool = False, only_smazzata: bool = False) -> BriscolaMatch:
    fmt = MatchFormat.parse(text, "briscola", ko=ko, vinco_subito=vinco_subito,
                            vinco_subito_ends_smazzata_only=only_smazzata)
    return play_briscola_match(fmt, Seating(players), seed, choose_command)


@cache
def _level_smazzata() -> Played:
    """A smazzata of random play that ends 60-60 (searched over fixed seeds)."""
    for k in range(3000):
        played = random_smazzata(Seed(k.to_bytes(16, "big")), 2, random.Random(k))
        if played.final.points == (60, 60):
            return played
    raise AssertionError("no 60-60 smazzata in 3000 seeds")


@cache
def _level_match_seed() -> Seed:
    """A match seed whose first smazzata, played by the bot, ends 60-60."""
    for k in range(3000):
        seed = Seed(k.to_bytes(16, "big"))
        if _match("punti", seed, ko=True).smazzate[0].result.points == (60, 60):
            return seed
    raise AssertionError("no 60-60 first smazzata in 3000 seeds")


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_totalizzando_61_punti_si_vince_la_smazzata(seed: Seed, players: int,
                                                    rng: random.Random) -> None:
    """"Ne consegue che totalizzando 61 punti si ha la certezza di fare più punti
    dell'avversario e quindi di vincere la smazzata.\""""
    result = smazzata_result(random_smazzata(seed, players, rng).final)
    winner = briscola_smazzata_winner(result)
    if winner is None:
        assert result.points == (60, 60)
    else:
        assert result.points[winner] > result.points[1 - winner]


def test_se_entrambi_totalizzano_60_punti_la_smazzata_finisce_in_parita() -> None:
    """"Se entrambi i giocatori totalizzano 60 punti la smazzata finisce in parità.\""""
    result = smazzata_result(_level_smazzata().final)
    assert briscola_smazzata_winner(result) is None
    status = match_status(MatchFormat.parse("1smazzata", "briscola"), [result])
    assert status.over and status.drawn and status.winner is None


@given(seeds, table_sizes)
def test_nelle_partite_a_punti_vince_chi_supera_60(seed: Seed, players: int) -> None:
    """"Nelle partite a punti vince il giocatore o la coppia che supera la soglia dei 60
    punti.\""""
    match = _match("punti", seed, players)
    (smazzata,) = match.smazzate
    points = smazzata.result.points
    if points == (60, 60):
        assert match.status.drawn
    else:
        assert match.status.winner is not None and points[match.status.winner] > 60


@given(seeds, table_sizes, st.sampled_from(("punti", "3smazzate")))
def test_vinco_subito_il_giocatore_di_mano_pone_fine_alla_partita(seed: Seed, players: int,
                                                                  text: str) -> None:
    """"Nelle partite con il cosiddetto "Vinco subito" in qualsiasi momento della partita, il
    giocatore di mano (cioè quello che ha appena fatto la presa) pone automaticamente fine alla
    partita, vincendola non appena ha totalizzato un punteggio almeno pari a 61 punti.\""""
    match = _match(text, seed, players, vinco_subito=True)
    last = match.smazzate[-1]
    if last.result.vinco_subito_side is None:  # only 60-60 smazzate: no side ever reached 61
        assert all(s.result.points == (60, 60) for s in match.smazzate)
        return
    assert [s.result.vinco_subito_side for s in match.smazzate[:-1]] == [None] * (
        len(match.smazzate) - 1)
    taker = [e for e in last.events if isinstance(e, TrickTaken)][-1].seat
    side = Seating(players).side_of(taker)
    assert match.status.over and match.status.winner == side
    assert match.status.reason == "vinco subito" and last.result.points[side] >= 61


def test_vinco_subito_option_ending_only_the_smazzata_plays_on() -> None:
    """B1, the other reading (MatchFormat.vinco_subito_ends_smazzata_only): a 3-smazzate match
    goes on after a smazzata won by 'vinco subito'."""
    seed = Seed(bytes(range(16)))
    match = _match("3smazzate", seed, vinco_subito=True, only_smazzata=True)
    assert len(match.smazzate) >= 2
    assert match.smazzate[0].result.vinco_subito_side is not None


@given(seeds, table_sizes)
def test_partite_a_smazzate_vince_la_maggioranza(seed: Seed, players: int) -> None:
    """"vince la singola smazzata il giocatore o la coppia che ha totalizzato un punteggio
    almeno pari a 61 punti"; "Vince la partita chi si aggiudica la maggioranza delle
    smazzate (es. in una partita a tre smazzate vince la partita chi se ne aggiudica due)".
    """
    match = _match("3smazzate", seed, players)
    won = [briscola_smazzata_winner(s.result) for s in match.smazzate]
    assert len(match.smazzate) <= 3
    if match.status.winner is None:
        assert won.count(0) == won.count(1)
    else:
        winner = match.status.winner
        assert won.count(winner) > won.count(1 - winner)
        assert won.count(winner) == 2 or None in won


@given(seeds, table_sizes)
def test_il_mazziere_gira_in_senso_antiorario(seed: Seed, players: int) -> None:
    """"Ad ogni fine smazzata ... il mazziere gira in senso antiorario e cioè il prossimo
    mazziere sarà quello seduto alla destra del mazziere precedente"; the first dealer is drawn
    from the match seed ("il mazziere viene stabilito casualmente dal sistema")."""
    match = _match("5smazzate", seed, players, ko=True)
    dealers = [s.dealer for s in match.smazzate]
    first = first_dealer(seed, players)
    assert dealers == [(first + k) % players for k in range(len(dealers))]


def test_ko_spareggio_chi_fa_piu_punti() -> None:
    """"Nei tornei a eliminazione diretta (KO), se la partita finisce in parità, verrà giocata
    un'altra smazzata ("1° spareggio") e si aggiudicherà l'incontro chi farà più punti.\""""
    match = _match("punti", _level_match_seed(), ko=True)
    assert len(match.smazzate) >= 2
    decisive = match.smazzate[-1].result.points
    assert match.status.winner == (0 if decisive[0] > decisive[1] else 1)
    assert match.status.reason.startswith("spareggio")


def test_ko_dopo_il_3_spareggio_perde_chi_ha_fatto_l_ultima_presa() -> None:
    """"se anche il 3° spareggio finisce in parità, perde il giocatore che ha fatto l'ultima
    presa nel 3° spareggio, anche senza fare punti." The engine names the side of the last
    trick; four level smazzate (the match and 3 spareggi) go against it."""
    played = _level_smazzata()
    last_taker = [e for e in played.events if isinstance(e, TrickTaken)][-1].seat
    result = smazzata_result(played.final)
    assert result.last_capture_side == Seating(2).side_of(last_taker)
    status = match_status(MatchFormat.parse("punti", "briscola", ko=True), [result] * 4)
    assert status.over and status.winner == 1 - last_taker


def test_timeout_punti_non_aggiudicati_all_avversario_fino_a_20() -> None:
    """"si assegnano tutti o punti ancora non aggiudicati all'avversario fino a un massimo di
    20 punti" (B2): early in the smazzata the cap applies, late the open points go."""
    fmt = MatchFormat.parse("punti", "briscola")
    played = random_smazzata(Seed(bytes(16)), 2, random.Random(8))
    early = played.states[1]
    late = next(s for s in reversed(played.states) if 0 < unawarded_points(s) < 20)
    assert unawarded_points(early) > 20
    assert timeout(fmt, [], early, guilty_side=0).awarded == 20
    late_open = unawarded_points(late)
    settled = timeout(fmt, [], late, guilty_side=1)
    assert settled.awarded == late_open
    assert settled.final_totals[0] == late.points[0] + late_open and settled.winner == 0


def test_timeout_differenza_zero_se_ancora_in_vantaggio_ma_partita_persa() -> None:
    """"se il punteggio è ancora a favore di chi ha fatto scadere il tempo o il timeout, la
    differenza punti è uguale a zero (ma la partita è comunque persa da chi ha fatto scadere il
    tempo)". The other smazzate of the match count: a side well ahead stays ahead."""
    fmt = MatchFormat.parse("3smazzate", "briscola")
    played = next(p for k in range(100)
                  if abs((p := random_smazzata(Seed(bytes(16)), 2, random.Random(k))).final
                         .points[0] - p.final.points[1]) > 20)
    finished = [smazzata_result(played.final)]
    leader = 0 if finished[0].points[0] > finished[0].points[1] else 1
    current = played.states[1]
    settled = timeout(fmt, finished, current, guilty_side=leader)
    assert settled.final_totals[leader] >= settled.final_totals[1 - leader]
    assert settled.point_difference == 0 and settled.winner == 1 - leader
