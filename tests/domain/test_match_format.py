"""Match formats and match end: 000 and 004, "Conclusione della partita" and "Parità"."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from domain.match_format import (
    MatchFormat,
    MatchFormatError,
    MatchKind,
    SmazzataResult,
    match_points,
    match_status,
    regular_points,
    standing_parts,
)
from tests.domain.match_strategies import (
    formats,
    played_length,
    played_matches,
    results_for,
    statuses,
)

R = SmazzataResult
CIRULLA_21 = MatchFormat.parse("21pt", "cirulla")


def briscola(text: str, **options: bool) -> MatchFormat:
    return MatchFormat.parse(text, "briscola", **options)


def won(side: int, points: int = 70) -> SmazzataResult:
    """A Briscola smazzata played to the end and won by `side` with `points` card points."""
    pair = (points, 120 - points) if side == 0 else (120 - points, points)
    return R(pair, side)


# --- parsing ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "game", "kind", "length"), [
    ("21pt", "cirulla", MatchKind.TARGET, 21),
    ("7pt", "cirulla", MatchKind.TARGET, 7),
    ("51 pt", "cirulla", MatchKind.TARGET, 51),
    ("3smazzate", "cirulla", MatchKind.SMAZZATE, 3),
    ("1smazzata", "cirulla", MatchKind.SMAZZATE, 1),
    ("6sm", "cirulla", MatchKind.SMAZZATE, 6),
    ("3smazzate", "briscola", MatchKind.SMAZZATE, 3),
    ("5sm", "briscola", MatchKind.SMAZZATE, 5),
    ("punti", "briscola", MatchKind.POINTS, 1),
    ("Points", "briscola", MatchKind.POINTS, 1),
])
def test_parse_accepts_the_formats_of_the_sources(text: str, game: str, kind: MatchKind,
                                                   length: int) -> None:
    fmt = MatchFormat.parse(text, game)
    assert (fmt.game, fmt.kind, fmt.length) == (game, kind, length)


@pytest.mark.parametrize(("text", "game"), [
    ("20pt", "cirulla"),  # 000's table: 7, 11, 21, 31, 41, 51 points only
    ("7smazzate", "cirulla"),  # 000's table: 1 to 6 smazzate
    ("0sm", "cirulla"),
    ("punti", "cirulla"),
    ("21pt", "briscola"),
    ("2smazzate", "briscola"),  # 004: "il numero di smazzate deve sempre essere dispari"
    ("tre smazzate", "briscola"),
    ("", "briscola"),
])
def test_parse_refuses_other_formats_listing_what_is_accepted(text: str, game: str) -> None:
    with pytest.raises(MatchFormatError, match="accepted"):
        MatchFormat.parse(text, game)


def test_parse_refuses_an_unknown_game() -> None:
    with pytest.raises(MatchFormatError, match="scopone"):
        MatchFormat.parse("21pt", "scopone")


def test_options_of_the_other_game_are_refused() -> None:
    with pytest.raises(MatchFormatError, match="Briscola"):
        MatchFormat.parse("21pt", "cirulla", vinco_subito=True)
    with pytest.raises(MatchFormatError, match="Cirulla"):
        briscola("punti", cappotto_ends=True)


@given(formats())
def test_text_reads_back_into_the_same_format(fmt: MatchFormat) -> None:
    again = MatchFormat.parse(fmt.text, fmt.game, ko=fmt.ko, cappotto_ends=fmt.cappotto_ends,
                              vinco_subito=fmt.vinco_subito, target_strict=fmt.target_strict,
                              vinco_subito_ends_smazzata_only=fmt.vinco_subito_ends_smazzata_only)
    assert again == fmt
    assert fmt.text in fmt.describe()


def test_vp_columns_follow_the_table_headers() -> None:
    """000: "partita a 7pt o 1 smazz." ... "partita a 51pt o 6 smazz."; 004: 1, 2, 3 smazzate."""
    targets = [MatchFormat.parse(f"{t}pt", "cirulla").vp_column for t in (7, 11, 21, 31, 41, 51)]
    counts = [MatchFormat.parse(f"{n}sm", "cirulla").vp_column for n in range(1, 7)]
    assert targets == counts == [0, 1, 2, 3, 4, 5]
    assert [briscola(t).vp_column for t in ("punti", "1sm", "3sm")] == [0, 0, 2]
    with pytest.raises(MatchFormatError, match="1, 2 and 3"):
        _ = briscola("5sm").vp_column


# --- Cirulla: "Conclusione a seconda della tipologia di partita giocata" ---------------------

def test_target_vince_chi_avendo_superato_il_punteggio_ha_piu_punti() -> None:
    """000: "vince la partita chi, avendo superato il punteggio previsto, ha più punti
    dell'avversario"."""
    status = match_status(CIRULLA_21, [R((12, 5), 0), R((10, 4), 1)])
    assert (status.over, status.winner, status.totals, status.reason) == (True, 0, (22, 9),
                                                                          "target")


def test_target_not_reached_plays_on() -> None:
    status = match_status(CIRULLA_21, [R((12, 15), 0)])
    assert (status.over, status.winner, status.next_tiebreak, status.reason) == (
        False, None, 0, "in corso")


def test_target_both_past_the_target_the_higher_wins() -> None:
    """000: "... ha più punti dell'avversario": both past 21, the one with more points wins."""
    status = match_status(CIRULLA_21, [R((18, 18), 0), R((5, 7), 1)])
    assert (status.winner, status.totals) == (1, (23, 25))


def test_superato_reads_reached_by_default_and_exceeded_by_option() -> None:
    """000: "avendo superato il punteggio previsto" vs "il totale dei punti che un giocatore ...
    deve raggiungere": reaching 21 is enough; target_strict needs 22."""
    results = [R((21, 3), 0)]
    assert match_status(CIRULLA_21, results).winner == 0
    strict = MatchFormat.parse("21pt", "cirulla", target_strict=True)
    assert not match_status(strict, results).over
    assert match_status(strict, [*results, R((1, 0), 0)]).winner == 0


def test_c15_equal_scores_above_the_target_play_another_smazzata() -> None:
    """C15: equal scores past the target: "ha più punti dell'avversario" fails, play on."""
    level = [R((11, 11), 0), R((12, 12), 1)]
    status = match_status(CIRULLA_21, level)
    assert (status.over, status.next_tiebreak, status.totals) == (False, 0, (23, 23))
    after = match_status(CIRULLA_21, [*level, R((2, 3), 0)])
    assert (after.winner, after.totals) == (1, (25, 26))


def test_c15_with_ko_equal_scores_above_the_target_go_to_the_spareggi() -> None:
    """000 "Parità": "Nei tornei a eliminazione diretta (KO), se la partita finisce in parità,
    verrà giocata un'altra smazzata ("1° spareggio")"."""
    fmt = MatchFormat.parse("21pt", "cirulla", ko=True)
    status = match_status(fmt, [R((22, 22), 0)])
    assert (status.over, status.next_tiebreak) == (False, 1)


def test_smazzate_vince_chi_fa_piu_punti_al_termine_delle_smazzate_previste() -> None:
    """000: "vince la partita chi fa più punti al termine delle smazzate previste"."""
    fmt = MatchFormat.parse("3smazzate", "cirulla")
    two = [R((30, 0), 0), R((9, 1), 0)]
    assert not match_status(fmt, two).over  # a big lead does not end it early
    status = match_status(fmt, [*two, R((0, 4), 1)])
    assert (status.winner, status.totals, status.reason) == (0, (39, 5), "smazzate")


def test_smazzate_level_at_the_end_is_a_draw_without_ko() -> None:
    fmt = MatchFormat.parse("2sm", "cirulla")
    status = match_status(fmt, [R((5, 3), 0), R((2, 4), 1)])
    assert (status.over, status.winner, status.drawn, status.reason) == (True, None, True,
                                                                         "parità")


# --- "Parità": the KO spareggi (000 and 004 alike) ----------------------------------------

def test_spareggio_si_aggiudichera_l_incontro_chi_fara_piu_punti() -> None:
    """000: "verrà giocata un'altra smazzata ("1° spareggio") e si aggiudicherà l'incontro chi
    farà più punti"; spareggio points do not enter the match totals."""
    fmt = MatchFormat.parse("1sm", "cirulla", ko=True)
    status = match_status(fmt, [R((4, 4), 0), R((2, 5), 0)])
    assert (status.winner, status.totals, status.reason) == (1, (4, 4), "spareggio 1")


def test_ulteriore_parita_second_and_third_spareggio() -> None:
    """000: "In caso di ulteriore parità verrà giocata un'altra smazzata ("2° spareggio")"."""
    fmt = MatchFormat.parse("1sm", "cirulla", ko=True)
    seen = [match_status(fmt, [R((4, 4), 0)] * n).next_tiebreak for n in (1, 2, 3)]
    assert seen == [1, 2, 3]
    status = match_status(fmt, [R((4, 4), 0)] * 3 + [R((6, 3), 1)])
    assert (status.winner, status.reason) == (0, "spareggio 3")


def test_third_spareggio_level_perde_chi_ha_fatto_l_ultima_presa() -> None:
    """000/004: "se anche il 3° spareggio finisce in parità, perde il giocatore che ha fatto
    l'ultima presa nel 3° spareggio, anche senza fare punti"."""
    fmt = MatchFormat.parse("1sm", "cirulla", ko=True)
    status = match_status(fmt, [R((4, 4), 0)] * 3 + [R((0, 0), 0)])
    assert (status.over, status.winner, status.reason) == (True, 1,
                                                           "ultima presa nel 3° spareggio")
    pairs = briscola("punti", ko=True)
    status = match_status(pairs, [R((60, 60), 1)] * 4)
    assert (status.winner, status.drawn) == (0, False)


def test_third_spareggio_level_without_a_last_capture_is_refused() -> None:
    fmt = MatchFormat.parse("1sm", "cirulla", ko=True)
    with pytest.raises(MatchFormatError, match="ultima presa"):
        match_status(fmt, [R((4, 4), 0)] * 3 + [R((0, 0), None)])


# --- Cirulla: cappotto (C11) ---------------------------------------------------------------

def test_cappotto_la_partita_termina_immediatamente_con_la_sua_vittoria() -> None:
    """000: "Se un giocatore riesce a prendere tutte le carte di denari (quadri) effettua un
    cappotto e la partita termina immediatamente con la sua vittoria"."""
    fmt = MatchFormat.parse("51pt", "cirulla", cappotto_ends=True)
    status = match_status(fmt, [R((1, 6), 1), R((12, 2), 0, cappotto_side=0)])
    assert (status.over, status.winner, status.totals, status.reason) == (True, 0, (13, 8),
                                                                          "cappotto")


def test_cappotto_ends_only_se_previsto_dalle_caratteristiche_della_partita() -> None:
    """000: "per “cappotto”, se previsto dalle caratteristiche della partita" (C11)."""
    fmt = MatchFormat.parse("51pt", "cirulla")
    assert not match_status(fmt, [R((12, 2), 0, cappotto_side=0)]).over


def test_cappotto_in_a_spareggio_ends_the_match_too() -> None:
    fmt = MatchFormat.parse("1sm", "cirulla", ko=True, cappotto_ends=True)
    status = match_status(fmt, [R((3, 3), 0), R((1, 14), 0, cappotto_side=1)])
    assert (status.winner, status.reason) == (1, "cappotto")


# --- Briscola: "Conclusione della partita" -------------------------------------------------

def test_briscola_vince_la_singola_smazzata_chi_ha_almeno_61_punti() -> None:
    """004: "vince la singola smazzata il giocatore o la coppia che ha totalizzato un punteggio
    almeno pari a 61 punti"; "Se entrambi ... 60 punti la smazzata finisce in parità"."""
    fmt = briscola("3sm")
    assert match_status(fmt, [won(1, 61)]).totals == (0, 1)
    assert match_status(fmt, [R((60, 60), 0)]).totals == (0, 0)


def test_briscola_vince_chi_si_aggiudica_la_maggioranza_delle_smazzate() -> None:
    """004: "in una partita a tre smazzate vince la partita chi se ne aggiudica due": the match
    stops as soon as the majority is certain."""
    status = match_status(briscola("3sm"), [won(0), won(0, 61)])
    assert (status.over, status.winner, status.totals, status.reason) == (
        True, 0, (2, 0), "maggioranza certa")
    with pytest.raises(MatchFormatError, match="after the match was over"):
        match_status(briscola("3sm"), [won(0), won(0), won(1)])


def test_briscola_drawn_smazzate_leave_the_majority_open() -> None:
    fmt = briscola("3sm")
    assert not match_status(fmt, [won(0), R((60, 60), 1)]).over
    status = match_status(fmt, [won(0), R((60, 60), 1), R((60, 60), 0)])
    assert (status.winner, status.totals, status.reason) == (0, (1, 0), "smazzate")
    level = match_status(fmt, [won(0), won(1), R((60, 60), 0)])
    assert (level.drawn, level.totals) == (True, (1, 1))
    ko = match_status(briscola("3sm", ko=True), [won(0), won(1), R((60, 60), 0)])
    assert (ko.over, ko.next_tiebreak) == (False, 1)


def test_briscola_partita_a_punti_vince_chi_supera_60() -> None:
    """004: "Nelle partite a punti vince il giocatore o la coppia che supera la soglia dei 60
    punti"; B1: without vinco subito the count is made when the smazzata is over."""
    status = match_status(briscola("punti"), [R((59, 61), 0)])
    assert (status.winner, status.totals, status.reason) == (1, (59, 61), "punti")
    assert match_status(briscola("punti"), [R((60, 60), 0)]).drawn
    with pytest.raises(MatchFormatError, match="totals 120"):
        match_status(briscola("punti"), [R((61, 20), 0)])


def test_vinco_subito_pone_fine_alla_partita_vincendola() -> None:
    """004: "Nelle partite con il cosiddetto "Vinco subito" in qualsiasi momento della partita,
    il giocatore di mano ... pone automaticamente fine alla partita, vincendola non appena ha
    totalizzato un punteggio almeno pari a 61 punti" (B1)."""
    fmt = briscola("3sm", vinco_subito=True)
    status = match_status(fmt, [R((20, 63), 1, vinco_subito_side=1)])
    assert (status.over, status.winner, status.totals, status.reason) == (
        True, 1, (0, 1), "vinco subito")
    points = match_status(briscola("punti", vinco_subito=True),
                          [R((61, 0), 0, vinco_subito_side=0)])
    assert (points.winner, points.reason) == (0, "vinco subito")


def test_vinco_subito_ends_only_the_smazzata_by_option() -> None:
    fmt = briscola("3sm", vinco_subito=True, vinco_subito_ends_smazzata_only=True)
    status = match_status(fmt, [R((20, 63), 1, vinco_subito_side=1)])
    assert (status.over, status.totals) == (False, (0, 1))


def test_vinco_subito_results_must_be_consistent() -> None:
    with pytest.raises(MatchFormatError, match="no vinco subito"):
        match_status(briscola("3sm"), [R((20, 63), 1, vinco_subito_side=1)])
    with pytest.raises(MatchFormatError, match="must name it"):
        match_status(briscola("3sm", vinco_subito=True), [won(0)])
    with pytest.raises(MatchFormatError, match="at least 61"):
        match_status(briscola("punti", vinco_subito=True), [R((60, 0), 0, vinco_subito_side=0)])


@pytest.mark.parametrize(("fmt", "result", "message"), [
    (CIRULLA_21, R((-1, 3), 0), "non-negative"),
    (CIRULLA_21, R((1, 3), 2), "last_capture_side"),
    (CIRULLA_21, R((1, 3), 0, vinco_subito_side=0), "Briscola"),
    (MatchFormat.parse("punti", "briscola"), R((70, 50), 0, cappotto_side=0), "Cirulla"),
])
def test_bad_results_are_refused_naming_the_smazzata(fmt: MatchFormat, result: SmazzataResult,
                                                     message: str) -> None:
    with pytest.raises(MatchFormatError, match=message) as caught:
        match_status(fmt, [result])
    assert "smazzata 1" in str(caught.value)


def test_match_points_need_a_finished_match() -> None:
    with pytest.raises(MatchFormatError, match="before the match is over"):
        match_points(CIRULLA_21, [R((3, 3), 0)])


def test_briscola_match_points_are_card_points_of_the_regular_smazzate() -> None:
    """MP is the card-point difference; a majority winner behind on card points gets MP 0."""
    assert match_points(briscola("3sm"), [won(0, 80), won(1, 70), won(0, 64)]) == 28
    assert match_points(briscola("3sm"), [won(0, 61), won(1, 120), won(0, 61)]) == 0


# --- properties ------------------------------------------------------------------------------

@given(st.data())
def test_once_over_appending_a_smazzata_is_an_error(data: st.DataObject) -> None:
    fmt = data.draw(formats())
    results = data.draw(results_for(fmt))
    count = played_length(fmt, results)
    assume(count < len(results))
    with pytest.raises(MatchFormatError, match="after the match was over"):
        match_status(fmt, results[:count + 1])


@given(played_matches())
def test_an_unfinished_prefix_has_no_winner(match: tuple[MatchFormat, list[R]]) -> None:
    fmt, results = match
    for status in statuses(fmt, results)[:-1]:
        assert (status.over, status.winner, status.drawn, status.reason) == (
            False, None, False, "in corso")


@given(played_matches())
def test_totals_are_sums_over_the_regular_smazzate(match: tuple[MatchFormat, list[R]]) -> None:
    fmt, results = match
    history = statuses(fmt, results)
    regular = [r for r, before in zip(results, history, strict=False) if not before.next_tiebreak]
    if fmt.game == "cirulla" or fmt.kind is MatchKind.POINTS:
        expected = (sum(r.points[0] for r in regular), sum(r.points[1] for r in regular))
    else:
        expected = (sum(r.points[0] >= 61 for r in regular),
                    sum(r.points[1] >= 61 for r in regular))
    assert history[-1].totals == expected
    assert len(results) - len(regular) <= 3


@given(played_matches())
def test_a_finished_match_has_one_outcome(match: tuple[MatchFormat, list[R]]) -> None:
    fmt, results = match
    status = match_status(fmt, results)
    assume(status.over)
    assert (status.winner is None) == status.drawn
    assert status.next_tiebreak == 0
    if fmt.ko or fmt.kind is MatchKind.TARGET:
        assert not status.drawn  # KO and targets never end level


_SHORT_TARGETS = st.builds(MatchFormat, st.just("cirulla"), st.just(MatchKind.TARGET),
                           st.sampled_from((7, 11, 21)), target_strict=st.booleans())


@given(played_matches(_SHORT_TARGETS, max_size=25))
def test_a_target_winner_passed_the_target_with_more_points(
        match: tuple[MatchFormat, list[R]]) -> None:
    fmt, results = match
    status = match_status(fmt, results)
    assume(status.reason == "target")
    winner = status.winner
    assert winner is not None
    mine, theirs = status.totals[winner], status.totals[1 - winner]
    assert mine > theirs
    assert mine > fmt.length if fmt.target_strict else mine >= fmt.length


@given(played_matches())
def test_swapping_the_sides_swaps_the_outcome(match: tuple[MatchFormat, list[R]]) -> None:
    fmt, results = match

    def flip(side: int | None) -> int | None:
        return None if side is None else 1 - side

    mirrored = [R((r.points[1], r.points[0]), flip(r.last_capture_side),
                  flip(r.cappotto_side), flip(r.vinco_subito_side)) for r in results]
    status, other = match_status(fmt, results), match_status(fmt, mirrored)
    assert other.winner == flip(status.winner)
    assert other.totals == status.totals[::-1]
    assert (other.over, other.drawn, other.next_tiebreak, other.reason) == (
        status.over, status.drawn, status.next_tiebreak, status.reason)


_BRISCOLA_SMAZZATE = st.builds(MatchFormat, st.just("briscola"), st.just(MatchKind.SMAZZATE),
                               st.sampled_from((1, 3, 5, 7)), ko=st.booleans())


@given(played_matches(_BRISCOLA_SMAZZATE))
def test_a_briscola_majority_stops_only_when_certain(match: tuple[MatchFormat, list[R]]) -> None:
    fmt, results = match
    assume(fmt.game == "briscola" and fmt.kind is MatchKind.SMAZZATE)
    status = match_status(fmt, results)
    assume(status.reason in ("smazzate", "maggioranza certa"))
    played = status.totals[0] + status.totals[1]
    assert played <= len(results) <= fmt.length
    lead = abs(status.totals[0] - status.totals[1])
    assert lead > fmt.length - len(results)


@given(played_matches())
def test_standing_parts_are_status_points_and_mp_of_one_pass(
        match: tuple[MatchFormat, list[SmazzataResult]]) -> None:
    """What a match's standing reads after each smazzata (domain/record/adapters.py) from one
    pass over the results: the same status, MP basis and MP as asked one by one."""
    fmt, results = match
    for count in range(len(results) + 1):
        played = results[:count]
        status = match_status(fmt, played)
        mp = match_points(fmt, played) if status.over else 0
        assert standing_parts(fmt, played) == (status, regular_points(fmt, played), mp)
