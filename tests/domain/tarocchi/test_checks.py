"""The checks of every entry (003 art. 3, 4, 8 and the allegato): each seeded error is found
on its sheet and line, against its rule."""

from __future__ import annotations

from domain.tarocchi.checks import Finding, findings
from domain.tarocchi.commands import ImposePenalty, WritePlayerLine, WriteTableLine
from domain.tarocchi.events import PlayerLineWritten, TableLineWritten
from domain.tarocchi.sheet import Roles
from domain.tarocchi.state import TarocchiState
from tests.domain.tarocchi.builders import Hand, drawn, lines, placed, run, write
from tests.replacing import replace

BASE = drawn(4)
TABLE = BASE.turns[0].tables[0]
CALL = Hand(Roles(1, 3), (("RIM", 1), ("RE", 1)), (("VAN", 1),))       # 1 and 3 win 2-1
SOLO5 = Hand(Roles(solista=2, solista_cards=5), (("RIM", 1), ("SCO", 1)), ())


def with_first(edit_player: dict[int, dict[str, object]] | None = None,
               edit_table: dict[str, object] | None = None, hand: Hand = CALL,
               state: TarocchiState = BASE) -> TarocchiState:
    """Smazzata 1 written with the given edits (player number -> fields), then 2-4 right."""
    players, table_line = lines(state, 1, TABLE, 1, placed(hand, TABLE, 1))
    edited = [replace(p, **(edit_player or {}).get(p.player, {}))  # type: ignore[arg-type]
              for p in players]
    table_line = replace(table_line, **(edit_table or {}))  # type: ignore[arg-type]
    state = run(state, *(WritePlayerLine(p) for p in edited), WriteTableLine(table_line))
    for smazzata in range(2, 5):
        state = write(state, 1, TABLE, smazzata, placed(None, TABLE, smazzata))
    return state


def rules(found: tuple[Finding, ...]) -> set[tuple[str, int, str]]:
    return {(f.sheet, f.line, f.rule) for f in found}


def test_a_correct_turn_has_no_finding() -> None:
    assert findings(with_first()) == ()
    assert findings(with_first(hand=SOLO5)) == ()


def test_diff_la_differenza_tra_i_due_numeri_precedenti() -> None:
    """Allegato: "DIFF. +/-: la differenza tra i due numeri precedenti (col suo segno)"."""
    found = findings(with_first({1: {"diff": 3, "parz": 3, "tot": 3}}))
    assert ("giocatore 1", 1, "003 allegato DIFF") in rules(found)


def test_parz_mano_arithmetic() -> None:
    """Allegato: "PARZ. MANO = DIFF +/- x MOLT."."""
    found = findings(with_first({2: {"parz": -2, "tot": -2}}))
    assert ("giocatore 2", 1, "003 allegato PARZ") in rules(found)


def test_tot_running_sum() -> None:
    """Allegato: "TOT.: si riporta la somma del valore appena riportato nella casella PARZ.MANO
    con il TOT. riportato nella riga ... precedente"."""
    found = findings(with_first({4: {"tot": 5}}))
    assert ("giocatore 4", 1, "003 allegato TOT") in rules(found)
    # the next line carries on from the 5 written: the error is found once, where it is made
    assert ("giocatore 4", 2, "003 allegato TOT") not in rules(found)
    assert ("tavolo A turno I", 1, "003 allegato Scheda di Tavolo") in rules(found)


def test_molt_consistent_with_the_roles_at_the_table() -> None:
    """Allegato, MOLT: "x 2 se in quella mano ha giocato come avversario di un Solista di 5
    carte": an opponent who writes x1 is found, and the four PARZ no longer cancel out."""
    found = findings(with_first({1: {"molt": 1, "parz": -2, "tot": -2}}, hand=SOLO5,
                                edit_table={"totals": ((1, -2), (2, 12), (3, -4), (4, -4))}))
    assert ("giocatore 1", 1, "003 allegato MOLT") in rules(found)
    assert ("tavolo A turno I", 1, "003 allegato PARZ") in rules(found)
    message = next(f.message for f in found if f.rule == "003 allegato MOLT")
    assert "x1" in message and "x2" in message


def test_the_table_sheet_tot_equals_each_players_sheet() -> None:
    """Art. 4: the table sheet "riporta i punteggi di tutti i giocatore conseguiti in ogni
    singola mano"; allegato: "il valore ... corrispondente al rigo dell'ultima colonna "TOT."
    della sua Scheda Punteggio Giocatore"."""
    found = findings(with_first(edit_table={"totals": ((1, 2), (2, -1), (3, 1), (4, -1))}))
    assert rules(found) == {("tavolo A turno I", 1, "003 allegato Scheda di Tavolo")}


def test_validata_da_un_altro_che_in_quella_mano_e_stato_suo_avversario() -> None:
    """Art. 4: "La Scheda Punteggio di ogni giocatore deve essere visionata e validata da un
    altro che in quella mano è stato suo avversario"."""
    assert rules(findings(with_first({1: {"validator": 3}}))) == {
        ("giocatore 1", 1, "003 art. 4")}                       # 3 was his Compagno
    assert rules(findings(with_first({1: {"validator": 1}}))) == {
        ("giocatore 1", 1, "003 art. 4")}
    assert rules(findings(with_first({1: {"validator": None}}))) == {
        ("giocatore 1", 1, "003 art. 4")}
    # against a Solista his only opponent is the Solista: the other two are his partners
    assert rules(findings(with_first({3: {"validator": 4}}, hand=SOLO5))) == {
        ("giocatore 3", 1, "003 art. 4")}


def test_un_avversario_deve_validare_la_scheda_di_tavolo() -> None:
    """Art. 4: "un avversario deve sempre coadiuvare nella compilazione e validare, la
    correttezza delle annotazioni riassuntive riportate sulla Scheda di Tavolo"."""
    found = findings(with_first(edit_table={"compiler": 1, "validator": 3}))
    assert rules(found) == {("tavolo A turno I", 1, "003 art. 4")}


def test_exactly_one_dealer_per_smazzata_in_the_rotation() -> None:
    """Art. 3: "Ogni Turno sarà costituito da 4 smazzate in modo che ogni giocatore sia
    mazziere una volta in ogni Turno"; art. 2: Est "sarà il primo mazziere"."""
    found = findings(with_first(edit_table={"dealer": 1}))
    assert rules(found) == {("tavolo A turno I", 1, "003 art. 3")}
    players, table_line = lines(BASE, 1, TABLE, 1, placed(CALL, TABLE, 1))
    state = run(BASE, *(WritePlayerLine(p) for p in players), WriteTableLine(table_line))
    for smazzata in (2, 3):
        state = write(state, 1, TABLE, smazzata, placed(None, TABLE, smazzata))
    missing = findings(state)
    assert ("tavolo A turno I", 4, "003 art. 3") in rules(missing)
    assert any("player 3" in f.message and "no deal" in f.message for f in missing)
    assert ("giocatore 2", 4, "003 art. 4") in rules(missing)  # and no player line either


def test_roles_that_cannot_be_are_found_on_the_table_sheet() -> None:
    found = findings(with_first(edit_table={"partner": 1}))
    assert ("tavolo A turno I", 1, "003 art. 4") in rules(found)


def test_a_penalty_must_be_written_on_the_players_sheet() -> None:
    """Art. 8: "essa deve comunque essere segnalata nella Scheda Punteggio del giocatore
    interessato"."""
    ruled = run(BASE, ImposePenalty(2, 1, 1, "associazione", "prosegue", "Arbitro",
                                    "segnale al compagno"))
    found = findings(with_first(state=ruled, edit_player={2: {"penalty": 0, "parz": -1,
                                                              "tot": -1}},
                                edit_table={"totals": ((1, 1), (2, -1), (3, 1), (4, -1))}))
    assert rules(found) == {("giocatore 2", 1, "003 art. 8")}
    assert findings(with_first(state=ruled)) == ()   # written: PARZ = -1 - 2


def test_an_annulled_smazzata_scores_no_games() -> None:
    """Art. 8.f: "se la parte del giocatore che ha commesso la renonce vince la smazzata, essa è
    annullata"."""
    ruled = run(BASE, ImposePenalty(1, 1, 1, "renonce", "annullata", "Arbitro", "renonce"))
    found = findings(with_first(state=ruled))
    assert {f.sheet for f in found if f.rule == "003 art. 8"} == {
        f"giocatore {n}" for n in (1, 2, 3, 4)}


def test_findings_carry_the_source_line() -> None:
    players, table_line = lines(BASE, 1, TABLE, 1, placed(CALL, TABLE, 1))
    bad: PlayerLineWritten = replace(players[0], diff=9, source="g1.csv:4")
    table_ok: TableLineWritten = table_line
    state = run(BASE, WritePlayerLine(bad), *(WritePlayerLine(p) for p in players[1:]),
                WriteTableLine(table_ok))
    assert {f.source for f in findings(state) if f.rule == "003 allegato DIFF"} == {"g1.csv:4"}


def test_a_solista_pays_no_point_for_an_exposed_card() -> None:
    """8.c: "Nel caso il giocatore non sia Solista, se la carta esposta è un Re, un'Aria o i
    Picciotti, egli viene penalizzato di 1 punto partita": ruled before the table sheet named
    him Solista, the point is found against the sheet."""
    ruled = run(BASE, ImposePenalty(2, 1, 1, "carta-esposta", "prosegue", "Arbitro", "re"))
    assert ruled.penalties[0].points == 1
    found = findings(with_first(state=ruled, hand=SOLO5))
    assert ("giocatore 2", 1, "003 art. 8") in rules(found)
    assert any("costs the Solista nothing" in f.message for f in found)
