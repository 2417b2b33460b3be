"""`verbale tournament create|seat|standings|import|penalty` (replay_web/cli_tournament.py) on
SQLite and PostgreSQL: a director's whole round trip, run in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from importers.sheets.tarocchi_import import import_sheets
from tests.projections.conftest import Backend
from tests.replay_web.test_cli_arbiter import PASSWORD, typed
from tests.verbale_cli import run

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples" / "tarocchi"
TWELVE = str(EXAMPLES / "torneo-12.txt")


def _id(output: str) -> str:
    return next(line.rpartition(": ")[2] for line in output.splitlines()
                if line.startswith("Tarocchi tournament "))


def test_create_then_seat_turn_one_by_the_committed_draw(backend: Backend, tmp_path: Path
                                                         ) -> None:
    seeds = tmp_path / "seeds.json"
    code, out = run("tournament", "create", "Prova", *(f"--player=P{k}" for k in range(1, 8)),
                    "--player", "Squadra (Anna + Bruno)", "--recomposition", "standings",
                    "--seeds", str(seeds), "--database", backend.url)
    assert code == 0, out
    stream = _id(out)
    written = json.loads(seeds.read_text(encoding="utf-8"))
    assert written["tournament"] == stream and seeds.stat().st_mode & 0o077 == 0
    assert "8 places; turns II-III classifica, turn IV fasce" in out
    code, out = run("tournament", "seat", stream[:8], "--seeds", str(seeds),
                    "--database", backend.url)
    assert code == 0, out
    assert "Turn I (sorteggio)" in out
    tables = [line.split() for line in out.splitlines() if line[:2] in ("A ", "B ")]
    assert [t[0] for t in tables] == ["A", "B"]
    # Numbers 1-4 at table A from North to East, East the first dealer (art. 2).
    assert tables[0][1::2] == ["1", "2", "3", "4", "4"]
    code, out = run("tournament", "seat", stream, "--seeds", str(seeds),
                    "--database", backend.url)
    assert code == 2 and "turn 1 is not complete" in out
    code, out = run("tournament", "create", "Prova", "--player", "A", "--seeds", str(seeds),
                    "--database", backend.url)
    assert code == 2


def test_import_standings_and_a_penalty(backend: Backend) -> None:
    code, out = run("tournament", "import", TWELVE, "--database", backend.url)
    assert code == 0, out
    assert "[003 allegato DIFF]" in out and "247 events stored" in out
    stream = out.strip().splitlines()[-1].split()[6]
    code, again = run("tournament", "import", TWELVE, "--database", backend.url)
    assert code == 0 and "imported already" in again
    code, out = run("tournament", "standings", "Caltagirone", "--json",
                    "--database", backend.url)
    assert code == 0, out
    final = json.loads(out)
    expected = import_sheets([("torneo-12.txt", Path(TWELVE).read_text(encoding="utf-8"))])
    from domain.tarocchi.standings import standings
    assert [(s["number"], s["points"]) for s in final["standings"]] == [
        (line.number, line.points) for line in standings(expected.state, 4)]
    assert final["final"] is True
    fifth = next(s["points"] for s in final["standings"] if s["number"] == 5)
    code, out = typed(PASSWORD + "\n", "arbiter", "add", "Arbitro Rossi", "--password-stdin",
                      "--database", backend.url)
    assert code == 0, out
    penalty = ("tournament", "penalty", stream, "--player", "5", "--turn", "2",
               "--smazzata", "3", "--article", "8.a", "--fate", "conteggiata",
               "--extra", "1", "--arbiter", "Arbitro Rossi", "--reason", "14 carte",
               "--password-stdin", "--database", backend.url)
    code, out = typed("not the password\n", *penalty)
    assert code == 2 and "wrong password: the signing key" in out, out
    code, out = typed(PASSWORD + "\n", *penalty)
    assert code == 0, out
    assert "2 punti partita" in out
    code, out = run("tournament", "standings", stream[:8], "--json", "--database", backend.url)
    assert next(s["points"] for s in json.loads(out)["standings"]
                if s["number"] == 5) == fifth - 2
    code, out = run("tournament", "standings", stream, "--turn", "1", "--database", backend.url)
    assert code == 0 and "standings after turn I" in out
    code, out = run("verify", "--database", backend.url)
    assert code == 0, out   # the penalty is signed; those read from the paper are notes
    assert "Tarocchi tournament" in out


@pytest.mark.parametrize("args", [
    ("--article", "9.z"), ("--article", "8.b", "--fate", "prosegue")])
def test_a_penalty_the_catalogue_does_not_allow_is_refused(backend: Backend,
                                                           args: tuple[str, ...]) -> None:
    code, out = run("tournament", "import", TWELVE, "--database", backend.url)
    stream = out.strip().splitlines()[-1].split()[6]
    code, out = typed(PASSWORD + "\n", "arbiter", "add", "A", "--password-stdin",
                      "--database", backend.url)
    assert code == 0, out
    code, out = typed(PASSWORD + "\n", "tournament", "penalty", stream, "--player", "5",
                      "--turn", "2", "--smazzata", "3", *args, "--arbiter", "A",
                      "--reason", "r", "--password-stdin", "--database", backend.url)
    assert code == 2, out
    assert "punti partita" not in out


def test_a_sheet_with_an_error_stores_nothing(backend: Backend, tmp_path: Path) -> None:
    broken = tmp_path / "torneo.txt"
    text = Path(TWELVE).read_text(encoding="utf-8")
    broken.write_text(text.replace("I.2 tavolo=A pos=N meno=RIM", "I.2 tavolo=A pos=N meno=XYZ",
                                   1), encoding="utf-8")
    code, out = run("tournament", "import", str(broken), "--database", backend.url)
    assert code == 1 and "nothing was stored" in out
    code, out = run("tournament", "standings", "Caltagirone", "--database", backend.url)
    assert code == 2



def test_a_tie_only_the_draw_breaks_reveals_the_tie_break_seed_before_seating(
        backend: Backend, tmp_path: Path) -> None:
    """Art. 9: four players all level after turn I (every line 0): seating turn II by the
    standings needs the draw, so `seat` reveals the committed tie-break seed first."""
    seeds = tmp_path / "seeds.json"
    code, out = run("tournament", "create", "Pari", *(f"--player=P{k}" for k in range(1, 5)),
                    "--recomposition", "standings", "--seeds", str(seeds),
                    "--database", backend.url)
    stream = _id(out)
    code, out = run("tournament", "seat", stream, "--seeds", str(seeds), "--database",
                    backend.url)
    assert code == 0, out
    sheet = tmp_path / "turno-1.csv"
    rows = ["giocatore,turno,smazzata,tavolo,pos,piu,meno,diff,molt,pen,parz,tot,ruolo,"
            "validato,socio"]
    rows += [f"{p},I,{s},A,,,,0,1,0,0,0,,," for p in range(1, 5) for s in range(1, 5)]
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out = run("tournament", "import", str(sheet), "--into", stream,
                    "--database", backend.url)
    assert code == 0 and "16 events stored" in out, out
    code, out = run("tournament", "standings", stream, "--json", "--database", backend.url)
    assert {s["rank"] for s in json.loads(out)["standings"]} == {1}   # all level, no draw yet
    code, out = run("tournament", "seat", stream, "--seeds", str(seeds), "--database",
                    backend.url)
    assert code == 0, out
    assert "Turn II (classifica)" in out
    code, out = run("tournament", "standings", stream, "--turn", "1", "--json",
                    "--database", backend.url)
    lines = json.loads(out)["standings"]
    assert [s["rank"] for s in lines] == [1, 2, 3, 4]
    assert [s["draw"] for s in lines] == sorted((s["draw"] for s in lines), reverse=True)
    code, out = run("verify", "--match", stream, "--database", backend.url)
    assert code == 0 and "OK" in out, out


@pytest.mark.parametrize("form", ["tags", "csv"])
def test_exported_sheets_import_again_as_the_same_standings(backend: Backend, tmp_path: Path,
                                                            form: str) -> None:
    code, out = run("tournament", "import", *map(str, sorted(EXAMPLES.glob("torneo-13*"))),
                    "--database", backend.url)
    stream = out.strip().splitlines()[-1].split()[6]
    target = tmp_path / ("out" if form == "csv" else "torneo.txt")
    code, out = run("tournament", "export", stream, "--format", form, "-o", str(target),
                    "--database", backend.url)
    assert code == 0, out
    files = sorted(target.iterdir()) if form == "csv" else [target]
    other = f"sqlite:///{tmp_path / 'other.db'}"
    code, out = run("tournament", "import", *map(str, files), "--database", other)
    assert code == 0 and "247 events stored" in out, out
    standings = [json.loads(run("tournament", "standings", "Mineo", "--json",
                                "--database", url)[1])["standings"]
                 for url in (backend.url, other)]
    assert standings[0] == standings[1] and len(standings[0]) == 12


def test_every_command_takes_the_tournament_by_its_name(backend: Backend,
                                                        tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.json"
    code, out = run("tournament", "create", "Coppa di Enna", *(f"--player=P{k}"
                    for k in range(1, 9)), "--seeds", str(seeds), "--database", backend.url)
    assert code == 0, out
    code, out = run("tournament", "seat", "Coppa di Enna", "--seeds", str(seeds),
                    "--database", backend.url)
    assert code == 0 and "Turn I (sorteggio)" in out, out
    target = tmp_path / "coppa.txt"
    code, out = run("tournament", "export", "enna", "--format", "tags", "-o", str(target),
                    "--database", backend.url)      # a part of the name, any case
    assert code == 0 and "Coppa di Enna" in target.read_text(encoding="utf-8"), out
    code, out = run("tournament", "seat", "Coppa di Palermo", "--database", backend.url)
    assert code == 2
    assert "Coppa di Palermo: no Tarocchi tournament has this id or name" in out
    assert "--match" not in out
