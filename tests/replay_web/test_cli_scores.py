"""`verbale scores --match ID`: a match's score sheet from the read models, checked against the
store's own events (each SmazzataEnded, the last MatchEnded), on both databases."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.events import SmazzataEnded
from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy
from domain.record.events import MatchResumed, RulingRecorded
from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.replay_web.demo import Demo, json_of, run

SEED = "5eed0000000000000000000000000001"
AT = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
ARBITER = RecordedBy("arbiter", "Rossi")
SHEET_KEYS = {"match", "sides", "smazzate", "rulings", "penalty", "kept", "adjustment",
              "totals", "vp_table"}
SMAZZATA_KEYS = {"number", "dealer", "breakdown", "points", "counted", "accusi", "cappotto",
                 "spareggio", "annulled", "running", "won"}


def _listed(demo: Demo) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = json_of(demo.backend, "matches", "--page-size", "100")[
        "matches"]
    return listed


def test_every_sheet_agrees_with_the_events(demo: Demo) -> None:
    listed = _listed(demo)
    assert len(listed) == len(demo.matches()) == 35
    for match in listed:
        sheet = json_of(demo.backend, "scores", "--match", match["prefix"])
        assert set(sheet) == SHEET_KEYS and sheet["match"] == match
        events = demo.events[match["id"]]
        ended = {e.number + 1: e for e in events if isinstance(e, SmazzataEnded)}
        assert [z["number"] for z in sheet["smazzate"]] == sorted(ended)
        for z in sheet["smazzate"]:
            assert set(z) == SMAZZATA_KEYS
            fact = ended[z["number"]]
            assert [[b["category"], *b["points"]] for b in z["breakdown"]] == [
                list(row) for row in fact.breakdown]
            assert z["points"] == list(fact.scores)
            assert z["counted"] == ([0, 0] if z["annulled"] else z["points"])
        result = demo.result(match["id"])
        assert result is not None and result.settlement is not None
        assert sheet["totals"] == list(result.settlement.points), match["id"]
        rulings = [e for e in events if isinstance(e, RulingRecorded)]
        assert [(r["arbiter"], r["kind"], r["reason"]) for r in sheet["rulings"]] == [
            (r.arbiter, r.kind, r.reason) for r in rulings]
        adjustment = [sum(r.adjustment[side] for r in rulings) for side in (0, 1)]
        assert sheet["adjustment"] == adjustment


def test_running_totals_add_up_the_counted_smazzate(demo: Demo) -> None:
    for match in _listed(demo):
        sheet = json_of(demo.backend, "scores", "--match", match["id"])
        total = [0, 0]
        for z in sheet["smazzate"]:
            if z["spareggio"]:
                continue   # a KO tie-break decides the winner, not the points
            total = [total[side] + z["counted"][side] for side in (0, 1)]
            assert z["running"] == total, (match["id"], z["number"])


def test_the_sheet_as_a_table(demo: Demo) -> None:
    ruled = next(m for m in _listed(demo) if m["rulings"] and m["game"] == "cirulla")
    code, out, err = run("scores", "--match", ruled["prefix"], "--database", demo.url)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0].startswith(f"match {ruled['id']}: cirulla ")
    header = next(line for line in lines if line.startswith("smazzata"))
    assert header.split()[:4] == ["smazzata", "dealer", "side", "scope"]
    for word in ("settebello", "primiera", "denari", "carte", "grande", "piccola", "accusi",
                 "points", "counted", "total", "notes"):
        assert f" {word}" in header
    assert "rulings" in lines
    sheet = json_of(demo.backend, "scores", "--match", ruled["prefix"])
    assert f"total: {sheet['totals'][0]}-{sheet['totals'][1]}" in lines
    vp = sheet["match"]["vp"]
    assert lines[-1].startswith("result: ") and f"VP {vp[0]}-{vp[1]} (" in lines[-1]


def test_a_briscola_sheet_has_its_own_rows(demo: Demo) -> None:
    briscola = next(m for m in _listed(demo) if m["game"] == "briscola"
                    and m["ended_how"] != "timeout")
    sheet = json_of(demo.backend, "scores", "--match", briscola["prefix"])
    categories = {b["category"] for z in sheet["smazzate"] for b in z["breakdown"]}
    assert {"punti", "prese"} <= categories and "scope" not in categories


def test_unknown_or_malformed_match(demo: Demo) -> None:
    ids = [m["id"] for m in _listed(demo)]
    free = next(f"{n:08x}" for n in range(1 << 16) if not any(i.startswith(f"{n:08x}")
                                                               for i in ids))
    code, out, err = run("scores", "--match", free, "--database", demo.url)
    assert (code, out) == (2, "") and err.strip().endswith(f"no match starts with {free}")
    code, out, err = run("scores", "--match", "xyz", "--database", demo.url)
    assert code == 2 and "at least 4 hex digits" in err and len(err.splitlines()) == 1
    code, out, err = run("scores", "--database", demo.url)
    assert code == 2 and "--match" in err


def test_an_annulled_smazzata_shows_its_points_beside_the_counted_ones(
        backend: Backend) -> None:
    code, out, err = run("simulate", "cirulla", "--seed", SEED, "--players", "2", "--format",
                         "3smazzate", "--store", "--database", backend.url)
    assert code == 0, out + err
    (match,) = json_of(backend, "matches")["matches"]
    assert run("verify", "--record", "--database", backend.url)[0] == 0
    assert json_of(backend, "matches")["matches"][0]["verdict"] == "ok"
    before = json_of(backend, "scores", "--match", match["prefix"])
    store = MatchStore(url=backend.url)
    try:   # recorded behind the read models' back: the next command catches them up
        store.execute(UUID(match["id"]), RecordRuling("Rossi", "carte viste", "annul-smazzata",
                                                      smazzata=0), AT, ARBITER)
        result = [e.to_domain() for e in store.facts(UUID(match["id"]))][-1]
    finally:
        store.close()
    after = json_of(backend, "scores", "--match", match["prefix"])
    first = after["smazzate"][0]
    assert first["annulled"] and first["counted"] == [0, 0]
    assert first["points"] == before["smazzate"][0]["points"] != [0, 0]
    # Two smazzate of three counted: the match is not over, the ruling resumed it.
    assert isinstance(result, MatchResumed)
    assert after["totals"] == list(result.scores)
    assert [(r["kind"], r["smazzata"]) for r in after["rulings"]] == [("annul-smazzata", 1)]
    assert after["match"]["state"] == "in-progress"
    assert after["match"]["verdict"] is None   # not checked since
    code, out, err = run("scores", "--match", match["prefix"], "--database", backend.url)
    assert code == 0 and err == ""
    (line,) = [line for line in out.splitlines() if line.startswith("1 ")]
    assert line.endswith("annulled by a ruling")
    points = first["points"][0]
    assert f" {points}  {' ' * (len('counted') - 1)}0  " in line   # recorded, then counted
