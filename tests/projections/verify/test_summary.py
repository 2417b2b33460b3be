"""`verify` tells the truth (issue 9): matches in progress apart from finished ones, with the
commitments they have not revealed; `--match` reads that match only, refuses an unknown id as a
usage problem and ends with the match's head hash; a tournament and its matches are checked
against each other, so a match deleted behind the database's back fails its tournament."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

import pytest

from domain.demo.matches import BOTS, DemoMatch, demo_set, reseeded
from domain.record.simulate import Table, next_command
from domain.record.tournament import ScheduleMatch
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.verify.streams import verify_store
from projections.verify.verdicts import tally
from replay_web.cli_store import START, simulator
from replay_web.cli_verify import render_summary
from tests.projections.conftest import Backend
from tests.projections.store.tampering import Tamperer
from tests.verbale_cli import run

SEED = "5eed0000000000000000000000000001"


def _recorded(backend: Backend, count: int = 4) -> list[UUID]:
    code, out = run("simulate", "matches", "--store", "--count", str(count), "--seed", SEED,
                    "--database", backend.url)
    assert code == 0, out
    return [UUID(line.split()[0]) for line in out.splitlines()]


def _tournament(backend: Backend, game: str = "cirulla") -> UUID:
    return uuid5(NAMESPACE_URL, f"verbale:demo:{Seed.from_hex(SEED).hex}:{game}")


def _partial(store: MatchStore, demo: DemoMatch, actions: int) -> UUID:
    """A match recorded up to `actions` actions after its creation: in progress."""
    stream, by = uuid4(), simulator()
    loaded = store.execute(stream, demo.setup, START, by)
    table, at = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents), START
    for _ in range(actions):
        step = next_command(loaded.state, table, at)
        assert step is not None
        command, at, table = step
        loaded = store.execute(stream, command, at, by, loaded)
    return stream


def test_matches_in_progress_are_counted_apart_with_their_unrevealed_commitments(
        backend: Backend) -> None:
    _recorded(backend)
    demo = demo_set(Seed.from_hex("5eed00000000000000000000000000ff"), 1)[0]
    store = MatchStore(url=backend.url)
    try:
        dealing = _partial(store, demo, 1)    # committed to the first smazzata's seed
        # The same match from another seed: the store refuses a seed used twice.
        again = reseeded(demo, Seed.from_hex("5eed00000000000000000000000000fe"))
        playing = _partial(store, again, 5)
        verdicts = verify_store(store)
    finally:
        store.close()
    counted = tally(verdicts)
    assert (counted.streams, counted.tournaments, counted.matches) == (8, 2, 6)
    assert (counted.finished, counted.in_progress, counted.failed) == (4, 2, 0)
    assert render_summary(counted).startswith("8 streams (2 tournaments, 6 matches), ")
    assert render_summary(counted).endswith(": 4 finished ok, 2 in progress, 0 failed")

    code, out = run("verify", "--database", backend.url)
    assert code == 0, out
    assert out.splitlines()[-1].endswith("events: 4 finished ok, 2 in progress, 0 failed"), out
    listing = out[out.index("2 matches in progress"):]
    assert f"  {dealing}  cirulla 2p  in progress: smazzata 1, phase 'deal'\n" in listing
    assert f"  {playing}  cirulla 2p  in progress: smazzata 1, phase 'play'\n" in listing
    commitments = re.findall(r"^      (commitment to [^:]+): ([0-9a-f]{64})$", listing,
                             re.MULTILINE)
    assert [label for label, _ in commitments] == [
        "commitment to the seed of smazzata 1", "commitment to the match seed"] * 2
    assert {c for label, c in commitments if label.endswith("match seed")} == {
        demo.match_seed.commitment(), again.match_seed.commitment()}   # the listing's order
    assert demo.match_seed.hex not in out   # a commitment, never the seed itself
    assert all(line.lstrip().startswith("commitment to ") for line in out.splitlines()
               if re.search(r"[0-9a-f]{64}", line)), out
    line = next(text for text in out.splitlines() if text.startswith(str(playing)))
    assert line.endswith("OK so far, in progress  (in progress: smazzata 1, phase 'play')")


def test_verify_match_reads_that_match_only_and_ends_with_its_head(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _recorded(backend)
    read: list[UUID] = []
    real = MatchStore.stored

    def stored(self: MatchStore, stream: UUID) -> Any:
        read.append(stream)
        return real(self, stream)

    def everything(self: MatchStore) -> Any:
        raise AssertionError("verify --match read every stream")

    monkeypatch.setattr(MatchStore, "stored", stored)
    monkeypatch.setattr(MatchStore, "heads", everything)
    monkeypatch.setattr(MatchStore, "streams", everything)
    code, out = run("verify", "--match", str(ids[1]), "--database", backend.url)
    assert code == 0, out
    assert read == [ids[1], _tournament(backend)]   # the match, and its tournament's schedule
    lines = out.splitlines()
    assert lines[0].startswith(str(ids[1])) and lines[0].endswith("OK")
    assert lines[1] == "1 stream (0 tournaments, 1 match), " \
        f"{lines[0].split()[3]} events: 1 finished ok, 0 in progress, 0 failed"
    tamperer = Tamperer.open(backend)
    try:
        version, head = tamperer.head(ids[1])
    finally:
        tamperer.conn.close()
    assert lines[-1] == f"head of {ids[1]}: event {version}, hash {head}"


def test_an_unknown_match_is_a_usage_problem_not_a_failed_verdict(backend: Backend) -> None:
    _recorded(backend, 1)
    code, out = run("verify", "--match", str(uuid4()), "--database", backend.url)
    assert code == 2, out
    assert len(out.strip().splitlines()) == 1 and "FAILED" not in out, out


def _delete(backend: Backend, stream: UUID, head_too: bool) -> None:
    """Remove a stream's rows behind the database's back (the owner, triggers off)."""
    tamperer = Tamperer.open(backend)
    try:
        with tamperer.batch():
            for row in tamperer.rows(stream):
                tamperer.delete(row[0])
            if head_too:
                key = stream.hex if backend.kind == "sqlite" else stream
                tamperer.conn.execute(f"DELETE FROM {backend.heads_table} WHERE stream_id = "
                                      f"{backend.placeholder()}", (key,))
    finally:
        tamperer.conn.close()


@pytest.mark.parametrize("head_too", [True, False], ids=["rows-and-head", "rows"])
def test_a_match_deleted_behind_the_databases_back_fails_its_tournament(
        backend: Backend, head_too: bool) -> None:
    ids = _recorded(backend)
    tournament = _tournament(backend)
    code, out = run("verify", "--database", backend.url)
    assert code == 0, out
    _delete(backend, ids[2], head_too)

    code, out = run("verify", "--database", backend.url)
    assert code == 1, out
    assert (f"    tournament {tournament} stream [tournament] round 1, table 3: the scheduled "
            f"match {ids[2]} is not in the store") in out.splitlines(), out
    failed = [line.split()[0] for line in out.splitlines() if "FAILED" in line]
    assert failed == sorted([str(tournament)] + ([] if head_too else [str(ids[2])]))
    code, out = run("verify", "--match", str(tournament), "--database", backend.url)
    assert code == 1 and f"the scheduled match {ids[2]} is not in the store" in out, out


def test_a_match_its_tournament_does_not_schedule_fails(backend: Backend) -> None:
    ids = _recorded(backend, 2)
    tournament = _tournament(backend)
    demo = demo_set(Seed.from_hex("5eed00000000000000000000000000ee"), 1)[0]
    store = MatchStore(url=backend.url)
    try:
        from dataclasses import replace
        elsewhere = replace(demo.setup, tournament=str(tournament), round=1, table=2)
        stray = store.create_match(elsewhere, START, simulator())   # round 1, table 2: ids[1]
        other = reseeded(demo, Seed.from_hex("5eed00000000000000000000000000ed")).setup
        unscheduled = store.create_match(replace(other, tournament=str(tournament), round=7,
                                                 table=1), START, simulator())
        # After the demo's sessions were revealed (dated at the end of its matches).
        store.schedule(tournament, ScheduleMatch(8, 1, str(uuid4())), START + timedelta(days=1),
                       simulator())
    finally:
        store.close()
    code, out = run("verify", "--database", backend.url)
    assert code == 1, out
    for match, place in ((stray, "round 1, table 2"), (unscheduled, "round 7, table 1")):
        assert (f"    match {match} event 1 [tournament] the match names tournament "
                f"{tournament} at {place}, but the tournament does not schedule it there"
                ) in out.splitlines(), out
        code, alone = run("verify", "--match", str(match), "--database", backend.url)
        assert code == 1 and "the tournament does not schedule it there" in alone, alone
    assert "round 8, table 1: the scheduled match" in out
    assert f"{ids[1]}  cirulla 4p" in out and "3 failed" in out.splitlines()[-1], out


def test_the_summary_counts_tarocchi_tournaments_and_arbiters_keys(backend: Backend) -> None:
    _recorded(backend, 2)
    sheets = Path(__file__).parents[3] / "docs" / "examples" / "tarocchi" / "torneo-12.txt"
    code, out = run("tournament", "import", str(sheets), "--database", backend.url)
    assert code == 0, out
    code, out = run("arbiter", "add", "arbitro", "--generate-password", "--database",
                    backend.url)
    assert code == 0, out
    code, out = run("verify", "--database", backend.url)
    counted = {kind: int(n) for n, kind in re.findall(
        r"(\d+) (tournaments|matches|Tarocchi tournament|arbiter's keys)\b",
        out.splitlines()[-1])}
    assert counted == {"tournaments": 2, "matches": 2, "Tarocchi tournament": 1,
                       "arbiter's keys": 1}, out
    assert out.splitlines()[-1].startswith("6 streams (")
