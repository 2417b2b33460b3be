"""`verbale audit FILE.jsonl`: the outside auditor on real exports, tampered ones and bad files."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from domain.cirulla.dealing import distribute
from domain.cirulla.ruleset import ruleset_from_dict
from domain.demo.matches import demo_set
from domain.record.catalog import CATALOG
from domain.seating import Seating
from domain.shuffle import Seed, commitment, mix_seeds, shuffled_deck
from projections.auditor.audit import audit
from projections.auditor.chain import canonical
from projections.auditor.reading import read_file
from projections.auditor.report import CHECKS, Message
from projections.store.app import MatchStore
from projections.store.export import export_jsonl
from replay_web.cli import _register, cli
from tests.projections.store.test_replay import record

DEMOS = demo_set(Seed(b"\x77" * 16))
# Cirulla 2 players standard; 4 players with every 002 option (clockwise, alternata), ended by a
# timeout; a smazzata with a redeal; Briscola 4 players; Briscola with vinco subito.
CHOSEN = {"cirulla": 0, "taverna": 3, "redeal": 6, "briscola": 25, "vinco-subito": 27}


@dataclass(frozen=True)
class Export:
    path: Path
    match_seed: Seed
    records: list[dict[str, Any]]


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Export]]:
    folder = tmp_path_factory.mktemp("exports")
    store = MatchStore(url=f"sqlite:///{folder / 'verbale.db'}", catalog=CATALOG)
    made = {}
    try:
        for name, index in CHOSEN.items():
            loaded = record(store, DEMOS[index], None)
            lines = list(export_jsonl(store, loaded.stream))
            path = folder / f"{name}.jsonl"
            path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            made[name] = Export(path, DEMOS[index].match_seed, [json.loads(x) for x in lines])
    finally:
        store.close()
    yield made


def run(*args: str, lang: str = "en") -> Result:
    _register()
    return CliRunner().invoke(cli, ["--lang", lang, "audit", *args])


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def rechain(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Number and chain the records again, as a forger with the whole export would."""
    previous = "0" * 64
    for version, item in enumerate(records, start=1):
        item.pop("hash", None)
        item["version"], item["previous_hash"] = version, previous
        item["hash"] = previous = hashlib.sha256(canonical(item)).hexdigest()
    return records


def copy(export: Export) -> list[dict[str, Any]]:
    return json.loads(json.dumps(export.records))  # type: ignore[no-any-return]


def statuses(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        for name in CHECKS:
            rest = line.removeprefix(name)
            if rest != line and rest[:1] == " " and rest.split()[0] in ("OK", "FAILED",
                                                                       "SKIPPED"):
                found[name] = rest.split()[0]
    return found


# ---- real exports -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(CHOSEN))
def test_a_real_export_passes_every_check(exports: dict[str, Export], name: str) -> None:
    result = run(str(exports[name].path))
    assert result.exit_code == 0, result.output
    found = statuses(result.stdout)
    assert list(found) == list(CHECKS)
    assert found["chain"] == found["seeds"] == found["match seed"] == found["deals"] == "OK"
    assert result.stdout.splitlines()[-1] == (f"{exports[name].path}: "
                                              f"{len(exports[name].records)} events, OK")


def test_the_redeal_and_the_stock_are_checked(exports: dict[str, Export]) -> None:
    out = run(str(exports["redeal"].path)).stdout
    assert "DealAnnulled" in exports["redeal"].path.read_text(encoding="utf-8")
    assert statuses(out)["draws"] == "OK" and "dealt attempts re-derived" in out


def test_json_output(exports: dict[str, Export]) -> None:
    result = run("--json", str(exports["briscola"].path))
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["events"] == len(exports["briscola"].records)
    assert [c["name"] for c in report["checks"]] == list(CHECKS)
    assert report["checks"][0]["status"] == "OK" and report["checks"][0]["problems"] == []


# ---- tampering --------------------------------------------------------------------------------

def test_a_tampered_line_fails_naming_the_line(exports: dict[str, Export],
                                               tmp_path: Path) -> None:
    records = copy(exports["cirulla"])
    at = next(i for i, r in enumerate(records) if r["type"] == "HandDealt")
    hands = records[at]["data"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    result = run(str(write(tmp_path / "tampered.jsonl", records)))
    assert result.exit_code == 1
    found = statuses(result.stdout)
    assert found["chain"] == found["draws"] == "FAILED" and found["deals"] == "OK"
    assert f"    line {at + 1}: hash does not match the line's content" in result.stdout
    assert f"    line {at + 1}: HandDealt is not the next" in result.stdout
    assert result.stdout.splitlines()[-1].endswith("FAILED (chain, draws)")


def test_a_rechained_forged_deal_fails_on_the_shuffle(exports: dict[str, Export],
                                                      tmp_path: Path) -> None:
    records = copy(exports["briscola"])
    at = next(i for i, r in enumerate(records) if r["type"] == "SmazzataDealt")
    deal = records[at]["data"]
    deal["briscola"], deal["stock"][0] = deal["stock"][0], deal["briscola"]
    result = run(str(write(tmp_path / "forged.jsonl", rechain(records))))
    assert result.exit_code == 1
    assert statuses(result.stdout)["chain"] == "OK"
    assert (f"    line {at + 1}: smazzata 0 attempt 0: briscola, stock do not follow from the "
            "revealed seed") in result.stdout


def test_a_seed_that_does_not_match_its_commitment(exports: dict[str, Export],
                                                   tmp_path: Path) -> None:
    records = copy(exports["cirulla"])
    at = next(i for i, r in enumerate(records) if r["type"] == "SeedRevealed")
    records[at]["data"]["seed"] = "00" * 32
    result = run(str(write(tmp_path / "seed.jsonl", rechain(records))))
    assert result.exit_code == 1
    assert f"line {at + 1}: the seed of smazzata 0 does not match its commitment" in result.stdout


def test_scores_that_are_not_the_breakdown(exports: dict[str, Export], tmp_path: Path) -> None:
    records = copy(exports["vinco-subito"])
    at = next(i for i, r in enumerate(records) if r["type"] == "SmazzataEnded")
    records[at]["data"]["scores"] = [sum(row[1] for row in records[at]["data"]["breakdown"]),
                                     sum(row[2] for row in records[at]["data"]["breakdown"])]
    result = run(str(write(tmp_path / "scores.jsonl", rechain(records))))
    assert result.exit_code == 1 and statuses(result.stdout)["scores"] == "FAILED"
    assert f"line {at + 1}: scores" in result.stdout


def test_a_removed_line_is_named_and_long_lists_are_cut(exports: dict[str, Export],
                                                       tmp_path: Path) -> None:
    records = copy(exports["cirulla"])
    del records[5]
    result = run(str(write(tmp_path / "cut.jsonl", records)))
    assert result.exit_code == 1
    assert "    line 6: version 7, expected 6" in result.stdout
    assert "    line 6: previous_hash is not the hash of line 5" in result.stdout
    assert "more (--json lists all)" in result.stdout
    report = json.loads(run("--json", str(tmp_path / "cut.jsonl")).stdout)
    assert len(report["checks"][0]["problems"]) == len(records) - 5 + 1


def test_a_game_the_documents_do_not_describe(exports: dict[str, Export], tmp_path: Path) -> None:
    records = copy(exports["cirulla"])
    records[0]["data"]["game"] = "scopone"
    result = run(str(write(tmp_path / "scopone.jsonl", rechain(records))))
    assert result.exit_code == 1
    assert "line 1: a 2-player scopone match: docs/events.md describes" in result.stdout


# ---- the v2 record: recorded_by, the match seed, transcribed deals, contributions ------------

def with_match_seed(export: Export, seed: Seed) -> list[dict[str, Any]]:
    """The export with the match seed committed in MatchCreated and `seed` revealed after the
    last MatchEnded; every record with a `recorded_by` (the v2 layout)."""
    records = [r for r in copy(export) if r["type"] != "MatchSeedRevealed"]
    records[0]["data"]["match_seed_commitment"] = commitment(export.match_seed)
    last = records[-1]
    records.append({**last, "type": "MatchSeedRevealed", "data": {"seed": seed.hex}})
    for item in records:
        item.setdefault("recorded_by", {"kind": "house", "name": "test", "where": None})
    return rechain(records)


def test_the_hash_covers_recorded_by(exports: dict[str, Export], tmp_path: Path) -> None:
    records = with_match_seed(exports["cirulla"], exports["cirulla"].match_seed)
    assert run(str(write(tmp_path / "by.jsonl", records))).exit_code == 0
    records[3]["recorded_by"] = {"kind": "arbiter", "name": "someone else", "where": None}
    result = run(str(write(tmp_path / "by-changed.jsonl", records)))
    assert result.exit_code == 1 and "line 4: hash does not match" in result.stdout


def test_a_revealed_match_seed_rederives_every_smazzata_seed(exports: dict[str, Export],
                                                             tmp_path: Path) -> None:
    export = exports["redeal"]
    result = run(str(write(tmp_path / "v2.jsonl", with_match_seed(export, export.match_seed))))
    assert result.exit_code == 0, result.output
    assert statuses(result.stdout)["match seed"] == "OK"
    assert "matches its commitment; the first dealer and 2 smazzata seeds derive" in result.stdout


def test_a_wrong_match_seed_fails(exports: dict[str, Export], tmp_path: Path) -> None:
    export = exports["cirulla"]
    records = with_match_seed(export, Seed(b"\x01" * 16))
    result = run(str(write(tmp_path / "wrong.jsonl", records)))
    assert result.exit_code == 1 and statuses(result.stdout)["match seed"] == "FAILED"
    revealed = next(r["version"] for r in records if r["type"] == "SeedRevealed")
    assert f"line {len(records)}: the match seed does not match" in result.stdout
    assert f"line {revealed}: the seed of smazzata 0 is not the one derived" in result.stdout


def test_a_first_dealer_not_drawn_from_the_match_seed_fails(exports: dict[str, Export],
                                                            tmp_path: Path) -> None:
    export = exports["briscola"]
    records = with_match_seed(export, export.match_seed)
    records[0]["data"]["first_dealer"] = (records[0]["data"]["first_dealer"] + 1) % 4
    result = run(str(write(tmp_path / "dealer.jsonl", rechain(records))))
    assert result.exit_code == 1
    assert "line 1: first_dealer" in result.stdout
    assert "dealer" in result.stdout and statuses(result.stdout)["deals"] == "FAILED"


def test_a_transcribed_deal_is_a_note_not_a_failure(exports: dict[str, Export],
                                                    tmp_path: Path) -> None:
    records = [r for r in copy(exports["cirulla"])
               if r["type"] not in ("SeedCommitted", "SeedRevealed")]
    deal = next(r for r in records if r["type"] == "SmazzataDealt")
    deal["data"]["seed_commitment"] = None
    deal["data"]["stock"][:3] = ["??", "??", "??"]
    deal["class_version"] = 2
    result = run(str(write(tmp_path / "transcribed.jsonl", rechain(records))))
    assert result.exit_code == 0, result.output
    found = statuses(result.stdout)
    assert found["seeds"] == "SKIPPED" and found["deals"] == found["draws"] == "OK"
    assert (f"    note: line {records.index(deal) + 1}: smazzata 0 attempt 0: transcribed deal, "
            "shuffle unverifiable") in result.stdout


def test_seat_contributions_are_mixed_into_the_deal(exports: dict[str, Export],
                                                    tmp_path: Path) -> None:
    """MatchCreated, SeedCommitted, two SeedContributed, the deal of the mixed seed, then the
    reveal in the action that ends the match."""
    records = copy(exports["taverna"])
    created, committed = records[0], records[1]
    dealt = next(r for r in records if r["type"] == "SmazzataDealt")
    revealed = next(r for r in records if r["type"] == "SeedRevealed")
    ended = next(r for r in records if r["type"] == "MatchEnded")
    given = {0: bytes(range(16)), 2: b"\x42"}
    house = Seed.from_hex(revealed["data"]["seed"])
    ruleset = ruleset_from_dict(created["data"]["ruleset"])
    hands, table, stock = distribute(shuffled_deck(mix_seeds(house, [given[0], given[2]])),
                                     ruleset, Seating(4, ruleset.direction),
                                     dealt["data"]["dealer"])
    dealt["data"].update(hands=[[c.code for c in h] for h in hands],
                         table=[c.code for c in table], stock=[c.code for c in stock])
    contributions = [{**committed, "type": "SeedContributed",
                      "data": {"smazzata": 0, "seat": seat, "contribution": raw.hex()}}
                     for seat, raw in given.items()]
    forged = [created, committed, *contributions, dealt, revealed,
              {**ended, "timestamp": revealed["timestamp"]}]
    result = run(str(write(tmp_path / "mixed.jsonl", rechain(forged))))
    assert result.exit_code == 0, result.output
    contributions[1]["data"]["contribution"] = "43"
    result = run(str(write(tmp_path / "mixed-wrong.jsonl", rechain(forged))))
    assert result.exit_code == 1
    assert "line 5: smazzata 0 attempt 0: hands, table, stock do not follow" in result.stdout


# ---- unreadable input -------------------------------------------------------------------------

def test_a_line_that_is_not_json_gives_exit_2_naming_file_and_line(
        exports: dict[str, Export], tmp_path: Path) -> None:
    lines = exports["cirulla"].path.read_text(encoding="utf-8").splitlines()
    lines[6] = lines[6][:40]
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"verbale audit: {path}:7: not JSON")


@pytest.mark.parametrize(("content", "line", "message"), [
    (b'{"type": "MatchCreated"}\n', 1, "not a record: no stream, version"),
    (b"[1, 2]\n", 1, "not a record: a JSON list"),
    (b'{"a": 1}\n\n', 1, "not a record"),
    (b"", None, "no events: the file is empty"),
    (b"\xff\xfe\n", 1, "not UTF-8"),
])
def test_a_file_that_is_not_an_export_gives_exit_2(tmp_path: Path, content: bytes,
                                                   line: int | None, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    result = run(str(path))
    where = f"{path}:{line}" if line is not None else str(path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"verbale audit: {where}: {message}"), result.stderr


def test_a_missing_file_gives_exit_2(tmp_path: Path) -> None:
    result = run(str(tmp_path / "nowhere.jsonl"))
    assert result.exit_code == 2
    assert f"{tmp_path / 'nowhere.jsonl'}: cannot read it" in result.stderr


# ---- one language at a time: the report's messages through the catalogue ---------------------

def tampered(export: Export, folder: Path) -> tuple[Path, int]:
    """The export with two cards of the first HandDealt swapped: chain and draws fail."""
    records = copy(export)
    at = next(i for i, r in enumerate(records) if r["type"] == "HandDealt")
    hands = records[at]["data"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    return write(folder / "tampered.jsonl", records), at + 1


def test_the_english_report_is_the_auditor_s_own(exports: dict[str, Export],
                                                 tmp_path: Path) -> None:
    """`--lang en` prints what the standalone auditor renders, word for word and column for
    column."""
    path, line = tampered(exports["cirulla"], tmp_path)
    result = run(str(path))
    report = audit(read_file(path), str(path))
    assert result.stdout.splitlines() == report.render()
    assert result.stdout.splitlines()[0].startswith("chain       FAILED   49 events of stream ")
    assert f"    line {line}: hash does not match the line's content" in result.stdout
    assert result.stdout.splitlines()[-1] == f"{path}: 49 events, FAILED (chain, draws)"
    assert report.check("draws").problems == (
        f"line {line}: HandDealt is not the next 6 stock cards dealt from the dealer's side",)
    assert run(str(exports["briscola"].path)).stdout.splitlines() == audit(
        read_file(exports["briscola"].path), str(exports["briscola"].path)).render()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"[1, 2]\n")
    assert run(str(bad)).stderr == (f"verbale audit: {bad}:1: not a record: a JSON list, not an "
                                    "object\n")


def test_each_message_keeps_its_template_and_params(exports: dict[str, Export],
                                                    tmp_path: Path) -> None:
    path, line = tampered(exports["cirulla"], tmp_path)
    check = audit(read_file(path), str(path)).check("chain")
    assert check.problem_messages[0] == Message(
        "line {line}: hash does not match the line's content", {"line": line})
    assert check.summary_message.template == "{events} events of stream {stream}, head {head}"
    where = Message("line {line}: smazzata {smazzata} attempt {attempt}",
                            {"line": 3, "smazzata": 0, "attempt": 1})
    nested = Message("{where}: attempt {previous} was not annulled",
                             {"where": where, "previous": 0})
    assert nested.text() == "line 3: smazzata 0 attempt 1: attempt 0 was not annulled"
    french = {"line {line}: smazzata {smazzata} attempt {attempt}":
              "ligne {line} : donne {smazzata} essai {attempt}",
              "{where}: attempt {previous} was not annulled":
              "{where} : l'essai {previous} n'a pas été annulé"}
    assert nested.text(lambda t: french.get(t, t)) == (
        "ligne 3 : donne 0 essai 1 : l'essai 0 n'a pas été annulé")
    broken = {"{where}: attempt {previous} was not annulled": "{where}: {attempt}"}
    assert nested.text(lambda t: broken.get(t, t)) == nested.text()  # a broken translation


def test_the_command_renders_the_report_through_the_catalogue(
        exports: dict[str, Export], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every template, the check names and statuses too, is looked up by `_`; the columns widen
    to the longest name and status."""
    import replay_web.cli_audit as cli_audit

    def shout(template: str) -> str:   # upper case, the placeholders kept
        return re.sub(r"[^{}]+(?=\{|$)", lambda m: m.group().upper(), template)

    shouted = {"match seed": "MATCH SEED, LONGER", "FAILED": "FAILED!!!!!"}
    monkeypatch.setattr(cli_audit, "_", lambda t: shouted.get(t, shout(t)))
    path, line = tampered(exports["cirulla"], tmp_path)
    lines = run(str(path)).stdout.splitlines()
    assert lines[0].startswith(f"CHAIN{' ' * 15}FAILED!!!!!  49 EVENTS OF STREAM ")
    assert f"    LINE {line}: HASH DOES NOT MATCH THE LINE'S CONTENT" in lines
    assert lines[-1] == f"{path}: 49 EVENTS, FAILED (CHAIN, DRAWS)"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\n")
    assert f"{bad}:1: NOT UTF-8" in run(str(bad)).stderr


def test_the_italian_report_comes_from_the_catalogue(exports: dict[str, Export],
                                                     tmp_path: Path) -> None:
    path, line = tampered(exports["cirulla"], tmp_path)
    result = run(str(path), lang="it")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("catena              CON ERRORI  49 eventi del flusso ")
    assert f"    riga {line}: l'hash non corrisponde al contenuto della riga" in lines
    assert any(x.startswith("seed della partita  OK") for x in lines)
    assert lines[-1] == f"{path}: 49 eventi, CON ERRORI (catena, pescate)"
    assert not any(" line " in x or x.startswith("    line") for x in lines)
    transcribed = [r for r in copy(exports["cirulla"])
                   if r["type"] not in ("SeedCommitted", "SeedRevealed")]
    deal = next(r for r in transcribed if r["type"] == "SmazzataDealt")
    deal["data"]["seed_commitment"] = None
    out = run(str(write(tmp_path / "t.jsonl", rechain(transcribed))), lang="it").stdout
    assert (f"    nota: riga {transcribed.index(deal) + 1}: smazzata 0 tentativo 0: distribuzione "
            "trascritta, mescolata non verificabile") in out
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"[1, 2]\n")
    assert f"{bad}:1: non è un record: un list JSON, non un oggetto" in run(
        str(bad), lang="it").stderr
