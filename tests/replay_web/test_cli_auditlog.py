"""The audit log from the command line (issue 13), on SQLite and PostgreSQL: `verbale keygen`,
`verbale checkpoint` (on demand and after each round), `verbale prove` checked by
docs/verify_checkpoint.py run alone (`python -I -S`: the standard library only), and
`verbale verify --against`: clean it passes; each of the five attacks of the issue, made after
the checkpoint by someone with write access to the database, fails it naming the stream."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import cast
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest
from click.testing import CliRunner

from domain.demo.matches import DEMO_SEED, demo_set
from domain.record.arbiter_keys import Keyring
from domain.record.commands import RecordRuling
from domain.record.simulate import Incidents
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.store.signatures import Signer, execute_signed, load_keyring
from replay_web.cli import _register, cli
from replay_web.cli_store import demo_signer, record_match, simulator
from tests.projections.audit_log.attacks import (
    MALLORY,
    cut_back,
    demo_ruling,
    forge_ruling,
    forget,
    rename_player,
    replace_match,
    swap_ids,
)
from tests.projections.conftest import Backend
from tests.projections.store.recording import arbiter_signer
from tests.projections.store.tampering import Tamperer
from tests.replacing import replace

CHECKER = Path(__file__).parents[2] / "docs" / "verify_checkpoint.py"
LATER = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
TOURNAMENTS = {uuid5(NAMESPACE_URL, f"verbale:demo:5eed0000000000000000000000000001:{game}")
               for game in ("cirulla", "briscola")}   # the demo's, replay_web/cli_store.py


def run(*args: str) -> tuple[int, str, str]:
    """`verbale --lang en ARGS` in this process: exit code, standard output, standard error."""
    _register()
    result = CliRunner().invoke(cli, ["--lang", "en", *args])
    return result.exit_code, result.stdout, result.stderr


def check_alone(*args: str) -> tuple[int, str]:
    """docs/verify_checkpoint.py with no site-packages and no project on the path."""
    ran = subprocess.run([sys.executable, "-I", "-S", str(CHECKER), *args],
                         capture_output=True, text=True, timeout=60, check=False)
    assert ran.stderr == ""
    return ran.returncode, ran.stdout


def size_of(checkpoint: Path) -> int:
    """The tree size a checkpoint file signs (its second line)."""
    return int(checkpoint.read_text(encoding="utf-8").split("\n")[1])


def simulate(backend: Backend, count: int) -> list[UUID]:
    code, out, err = run("simulate", "matches", "--count", str(count), "--store",
                         "--database", backend.url)
    assert code == 0, (out, err)
    return [UUID(line.split()[0]) for line in out.splitlines()]


def one_more(backend: Backend) -> None:
    """Another match recorded after the first ones (outside the tournaments)."""
    code, out, err = run("simulate", "cirulla", "--seed", "5eed" + "0" * 27 + "3", "--players",
                         "2", "--format", "21pt", "--store", "--database", backend.url)
    assert code == 0 and "recorded as match" in out, (out, err)


@dataclass(frozen=True)
class Anchored:
    """Two demo matches stored, a key, and a checkpoint of the store made after them."""

    backend: Backend
    matches: list[UUID]
    key: Path
    checkpoint: Path

    @property
    def public(self) -> str:
        return str(self.key) + ".pub"

    def against(self) -> tuple[int, str, str]:
        return run("verify", "--against", str(self.checkpoint), "--public-key", self.public,
                   "--database", self.backend.url)


@pytest.fixture
def anchored(backend: Backend, tmp_path: Path) -> Anchored:
    matches = simulate(backend, 2)
    key = tmp_path / "keys" / "audit.key"
    key.parent.mkdir()
    assert run("keygen", str(key))[0] == 0
    checkpoint = tmp_path / "cp.txt"
    code, out, err = run("checkpoint", "--key", str(key), "-o", str(checkpoint),
                         "--database", backend.url)
    assert code == 0 and err == "", (out, err)
    return Anchored(backend, matches, key, checkpoint)


@pytest.fixture
def store(anchored: Anchored) -> Iterator[MatchStore]:
    opened = MatchStore(url=anchored.backend.url)
    yield opened
    opened.close()


@pytest.fixture
def tamperer(anchored: Anchored, store: MatchStore) -> Iterator[Tamperer]:
    """The database's owner, behind the store's back (opened after the store, which would put
    SQLite's append-only triggers back)."""
    t = Tamperer.open(anchored.backend)
    yield t
    t.conn.close()


# ---- keygen, checkpoint, prove --------------------------------------------------------------


def test_keygen_writes_the_two_keys_and_never_overwrites_them(tmp_path: Path) -> None:
    key = tmp_path / "audit.key"
    code, out, err = run("keygen", str(key))
    assert code == 0 and err == ""
    assert f"public key written to {key}.pub" in out
    assert key.stat().st_mode & 0o777 == 0o600
    before = (key.read_bytes(), Path(f"{key}.pub").read_bytes())
    code, out, err = run("keygen", str(key))
    assert (code, out) == (2, "")
    assert err == f"verbale: {key} already exists: a key is never overwritten\n"
    assert (key.read_bytes(), Path(f"{key}.pub").read_bytes()) == before


def test_the_checkpoint_is_signed_counts_every_event_and_keeps_its_heads(
        anchored: Anchored, tamperer: Tamperer) -> None:
    rows = tamperer.rows()
    text = anchored.checkpoint.read_text(encoding="utf-8")
    origin, size, root, time, heads_line = text.split("\n")[:5]
    assert (origin, int(size)) == ("verbale audit log", len(rows))
    assert int(root, 16) and len(root) == 64 and time.endswith("Z")
    heads = Path(f"{anchored.checkpoint}.heads").read_text(encoding="utf-8").splitlines()
    assert len(heads) == len({row[1] for row in rows}) == 4   # 2 matches, 2 tournaments
    assert heads_line.startswith("heads ")
    assert check_alone("--key", anchored.public, "--checkpoint",
                       str(anchored.checkpoint))[0] == 0
    forged = anchored.checkpoint.with_name("forged.txt")
    forged.write_text(text.replace(f"\n{size}\n", f"\n{int(size) - 1}\n"), encoding="utf-8")
    code, said = check_alone("--key", anchored.public, "--checkpoint", str(forged))
    assert code == 1 and "signature does not match" in said
    again = run("checkpoint", "--key", str(anchored.key), "-o", str(anchored.checkpoint),
                "--database", anchored.backend.url)
    assert again[0] == 1 and "never overwritten" in again[2]
    assert anchored.checkpoint.read_text(encoding="utf-8") == text


def test_checkpoint_json_and_its_default_name(anchored: Anchored, tmp_path: Path) -> None:
    code, out, err = run("checkpoint", "--key", str(anchored.key), "--dir",
                         str(tmp_path / "cps"), "--json", "--database", anchored.backend.url)
    assert code == 0 and err == "", err
    made = json.loads(out)
    first = anchored.checkpoint.read_text(encoding="utf-8").split("\n")
    assert (made["size"], made["root"]) == (int(first[1]), first[2])
    assert Path(made["file"]).parent == tmp_path / "cps"
    assert Path(made["file"]).name.startswith("checkpoint-")
    assert Path(made["heads"]).read_text(encoding="utf-8") == Path(
        f"{anchored.checkpoint}.heads").read_text(encoding="utf-8")


def test_a_match_proof_checks_out_with_the_standard_library_only(anchored: Anchored,
                                                                  tmp_path: Path) -> None:
    match = anchored.matches[1]
    proof = tmp_path / "proof.json"
    code, out, err = run("prove", "--match", str(match)[:8], "--checkpoint",
                         str(anchored.checkpoint), "-o", str(proof), "--database",
                         anchored.backend.url)
    assert code == 0 and err == "", err
    events = json.loads(proof.read_text(encoding="utf-8"))["events"]
    assert out == (f"inclusion proof of {len(events)} events of match {match} in the "
                   f"checkpoint of {size_of(anchored.checkpoint)} events: "
                   f"written to {proof}\n")
    code, said = check_alone("--key", anchored.public, "--checkpoint",
                             str(anchored.checkpoint), "--proof", str(proof))
    assert code == 0, said
    assert said.startswith(f"OK {len(events)} leaves (events 1-{len(events)} of {match}, "
                           f"chain intact")
    # To standard output the proof stays clean JSON, the summary on standard error.
    code, out, err = run("prove", "--match", str(match), "--checkpoint",
                         str(anchored.checkpoint), "--database", anchored.backend.url)
    assert code == 0 and json.loads(out)["events"] == events
    assert err.endswith("written to standard output\n")
    changed = json.loads(proof.read_text(encoding="utf-8"))
    record = json.loads(events[0]["record"])
    record["data"]["players"][0] = MALLORY
    changed["events"][0]["record"] = json.dumps(record)
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(changed), encoding="utf-8")
    code, said = check_alone("--key", anchored.public, "--checkpoint",
                             str(anchored.checkpoint), "--proof", str(renamed))
    assert code == 1 and said.startswith("FAILED event 1 of the proof"), said


def test_a_consistency_proof_between_two_checkpoints(anchored: Anchored,
                                                     tmp_path: Path) -> None:
    one_more(anchored.backend)
    newer = tmp_path / "newer.txt"
    assert run("checkpoint", "--key", str(anchored.key), "-o", str(newer), "--database",
               anchored.backend.url)[0] == 0
    proof = tmp_path / "consistency.json"
    code, out, err = run("prove", "--consistency", str(anchored.checkpoint), str(newer),
                         "-o", str(proof), "--database", anchored.backend.url)
    assert code == 0 and err == "", err
    old_size, new_size = (size_of(p) for p in (anchored.checkpoint, newer))
    assert old_size < new_size
    assert out == (f"consistency proof of the checkpoint of {old_size} events in the one of "
                   f"{new_size} events: written to {proof}\n")
    code, said = check_alone("--key", anchored.public, "--checkpoint", str(newer),
                             "--old-checkpoint", str(anchored.checkpoint), "--proof", str(proof))
    assert code == 0 and "is a prefix" in said, said
    code, said = check_alone("--key", anchored.public, "--checkpoint", str(anchored.checkpoint),
                             "--old-checkpoint", str(newer), "--proof", str(proof))
    assert code == 1 and said.startswith("FAILED"), said


@pytest.mark.parametrize(("args", "said"), [
    ((), "give --match ID --checkpoint FILE, or --consistency OLD NEW"),
    (("--match", "abcd"), "give --match ID --checkpoint FILE, or --consistency OLD NEW"),
    (("--match", "xyz!", "--checkpoint", "cp.txt"), "is not a match id"),
    (("--consistency", "a.txt", "b.txt", "--checkpoint", "c.txt"),
     "give --match ID --checkpoint FILE, or --consistency OLD NEW"),
])
def test_prove_usage_problems_are_one_line_and_exit_2(args: tuple[str, ...], said: str) -> None:
    code, out, err = run("prove", *args)
    assert (code, out) == (2, "") and said in err and err.count("\n") == 1


# ---- verify --against -----------------------------------------------------------------------


def played_now(store: MatchStore) -> UUID:
    """A match recorded after the checkpoint and dated after it, as a live table records it
    (no incidents: no ruling to sign)."""
    demo = replace(demo_set(Seed.from_hex("0" * 31 + "9"), 1)[0], incidents=Incidents())
    match = uuid5(NAMESPACE_URL, "verbale:test:played-now")
    record_match(store, match, demo, datetime.now(UTC))
    return match


def test_the_untouched_store_passes_and_later_matches_are_only_counted(
        anchored: Anchored, store: MatchStore) -> None:
    code, out, err = anchored.against()
    assert (code, err) == (0, ""), out
    assert "the store holds the checkpoint's" in out and "0 events stored since" in out
    played_now(store)
    code, out, err = anchored.against()
    assert (code, err) == (0, ""), out
    assert "1 new stream" in out and "0 events stored since" not in out


def _caught(anchored: Anchored, stream: UUID, kind: str) -> str:
    code, out, err = anchored.against()
    assert (code, err) == (1, ""), out
    assert f"    [{kind}] stream {stream}" in out
    assert "    [root] the store's first " in out
    assert "the store does not hold what the checkpoint signed" in out
    return out


def test_attack_a_match_cut_back_with_its_head_moved_back(anchored: Anchored,
                                                          tamperer: Tamperer) -> None:
    match = anchored.matches[0]
    left = cut_back(tamperer, match)
    plain = run("verify", "--database", anchored.backend.url)
    assert plain[0] == 0 and "1 in progress" in plain[1]     # what verify alone sees
    out = _caught(anchored, match, "truncated")
    assert f"the store now holds {left}" in out


def test_attack_a_match_deleted_with_its_head(anchored: Anchored, tamperer: Tamperer) -> None:
    match = anchored.matches[1]
    forget(tamperer, match)
    out = _caught(anchored, match, "vanished")
    assert "    [missing] the store holds " in out


def test_attack_players_renamed_with_every_hash_recomputed(anchored: Anchored,
                                                           tamperer: Tamperer,
                                                           store: MatchStore) -> None:
    match = anchored.matches[0]
    rename_player(tamperer, match)
    assert store.load(match).state.created.players[0] == MALLORY
    assert run("verify", "--database", anchored.backend.url)[0] == 0
    _caught(anchored, match, "changed")


def test_attack_another_match_stored_under_the_same_id(anchored: Anchored, tamperer: Tamperer,
                                                       store: MatchStore) -> None:
    match = anchored.matches[1]
    other = demo_set(Seed.from_hex("0" * 31 + "7"), 1)[0]
    before = store.load(match).head
    replace_match(tamperer, match, lambda m: record_match(store, m, other))
    assert store.load(match).head != before    # whole, chained, and another match
    _caught(anchored, match, "changed")


def test_attack_a_ruling_and_a_new_result_appended_through_decide(anchored: Anchored,
                                                                  store: MatchStore) -> None:
    match = anchored.matches[0]
    winner = store.load(match).state.result.winner
    assert winner in (0, 1)
    loser = 1 - winner
    appended = forge_ruling(store, match, datetime.now(UTC), simulator(),
                            adjustment=(100, 0) if loser == 0 else (0, 100))
    assert appended == 2 and store.load(match).state.result.winner == loser   # flipped
    code, out, err = anchored.against()
    assert (code, err) == (1, ""), out
    assert f"    [reopened] for the arbiter: stream {match} had ended at the checkpoint" in out
    assert "(RulingRecorded, MatchEnded) were stored after it" in out
    assert "[root]" not in out     # nothing signed was changed: only appended to
    assert ("unchanged; 2 events stored since, 0 new streams; 1 finding for the arbiter\n"
            in out)


def test_against_refuses_another_key_and_wants_its_public_key(anchored: Anchored,
                                                              tmp_path: Path) -> None:
    assert run("keygen", str(tmp_path / "other.key"))[0] == 0
    code, out, err = run("verify", "--against", str(anchored.checkpoint), "--public-key",
                         str(tmp_path / "other.key.pub"), "--database", anchored.backend.url)
    assert (code, out) == (1, "")     # refused before anything is verified
    assert "the checkpoint was signed by key" in err and err.count("\n") == 1
    forged = tmp_path / "forged.txt"
    forged.write_text(anchored.checkpoint.read_text().replace("\n20", "\n19", 1))
    code, out, err = run("verify", "--against", str(forged), "--public-key", anchored.public,
                         "--database", anchored.backend.url)
    assert (code, out) == (1, "") and "signature does not match its text" in err
    code, out, err = run("verify", "--against", str(anchored.checkpoint),
                         "--database", anchored.backend.url)
    assert code == 2 and "--against needs --public-key" in err
    code, out, err = run("verify", "--against", str(anchored.checkpoint), "--public-key",
                         anchored.public, "--match", str(anchored.matches[0]),
                         "--database", anchored.backend.url)
    assert (code, out) == (2, "") and "cannot be used with --match" in err


def test_without_its_heads_a_change_is_caught_but_not_named(anchored: Anchored,
                                                            tamperer: Tamperer) -> None:
    Path(f"{anchored.checkpoint}.heads").unlink()
    cut_back(tamperer, anchored.matches[0], events=1)
    code, out, err = anchored.against()
    assert (code, err) == (1, ""), out
    assert "no heads beside the checkpoint" in out and "    [root] " in out
    assert f"stream {anchored.matches[0]}" not in out.split("against the checkpoint")[1]


# ---- after each round -----------------------------------------------------------------------


def _in_play(store: MatchStore, tournament: UUID, place: tuple[int, int]) -> Callable[[], object]:
    """A demo match scheduled and created at `place` (round, table), nothing played; the call
    that plays it to its end."""
    demo = demo_set(Seed.from_hex(f"{place[0]:016x}{place[1]:016x}"), 1)[0]
    demo = replace(demo, setup=replace(demo.setup, tournament=str(tournament), round=place[0],
                                       table=place[1]))
    match = UUID(int=place[0] * 100 + place[1])
    store.schedule_and_create(tournament, match, demo.setup, LATER, simulator())
    return lambda: record_match(store, match, demo, LATER)


def _states(out: str) -> list[tuple[int, int, str, str | None]]:
    return [(r["round"], r["matches"], r["state"], r["file"] and Path(r["file"]).name)
            for r in json.loads(out)["rounds"]]


def test_after_round_checkpoints_each_round_over_once_and_never_one_in_play(
        backend: Backend, tmp_path: Path) -> None:
    simulate(backend, 5)                       # round 1: 4 tables, round 2: 1 table
    key = tmp_path / "audit.key"
    run("keygen", str(key))
    store = MatchStore(url=backend.url)
    try:
        [t] = [s for s in store.streams() if s in TOURNAMENTS
               and store.load_tournament(s).state.places]
        where = tmp_path / "rounds"
        args = ("checkpoint", "--key", str(key), "--after-round", "--dir", str(where),
                "--database", backend.url)
        code, out, err = run(*args, "--json")
        assert code == 0 and err == "", err
        assert _states(out) == [(1, 4, "written", f"{t}-round-1.txt"),
                                (2, 1, "written", f"{t}-round-2.txt")]
        assert check_alone("--key", f"{key}.pub", "--checkpoint",
                           str(where / f"{t}-round-2.txt"))[0] == 0
        late = _in_play(store, t, (2, 2))      # a table added to round 2 after its checkpoint
        third = _in_play(store, t, (3, 1))
        code, out, err = run(*args, "--json")
        assert code == 0 and json.loads(out)["checkpoint"] is None
        assert _states(out) == [(1, 4, "checkpointed", f"{t}-round-1.txt"),
                                (2, 2, "in-play", None), (3, 1, "in-play", None)]
        code, out, err = run(*args)
        assert code == 0 and "no round has ended since its last checkpoint" in out
        code, out, err = run(*args, "--tournament", str(t), "--round", "3")
        assert code == 1 and (f"round 3 of Torneo dimostrativo di cirulla is still in play "
                              f"({UUID(int=301)} has not ended): no checkpoint made") in err
        late()
        third()
    finally:
        store.close()
    code, out, err = run(*args, "--tournament", "Torneo dimostrativo di briscola")
    assert code == 2 and "no tournament with a match in a round" in err   # it has none
    code, out, err = run(*args, "--tournament", str(t)[:8], "--json")
    assert code == 0, err
    assert _states(out) == [(1, 4, "checkpointed", f"{t}-round-1.txt"),
                            (2, 2, "written", f"{t}-round-2-2.txt"),
                            (3, 1, "written", f"{t}-round-3.txt")]
    heads = (where / f"{t}-round-2-2.txt.heads").read_text(encoding="utf-8")
    assert UUID(int=202).hex in heads
    code, out, err = run(*args, "--tournament", "Torneo dimostrativo di cirulla", "--round", "3")
    assert code == 1 and "round 3 of Torneo dimostrativo di cirulla has its checkpoint " \
                         "already" in err
    assert len(list(where.iterdir())) == 8


def test_a_late_ruling_signed_by_a_key_the_checkpoint_holds_passes_with_a_note(
        anchored: Anchored, store: MatchStore, tmp_path: Path) -> None:
    signer = arbiter_signer(store)                  # registered before ...
    checkpoint = tmp_path / "cp-keys.txt"           # ... this checkpoint
    code, out, err = run("checkpoint", "--key", str(anchored.key), "-o", str(checkpoint),
                         "--database", anchored.backend.url)
    assert code == 0, (out, err)
    match = anchored.matches[1]
    ruling = RecordRuling(arbiter=signer.arbiter, reason="scopa contata due volte",
                          kind="adjust-score", adjustment=(-1, 0),
                          refers_to=store.load(match).state.version)
    execute_signed(store, match, ruling, signer, datetime.now(UTC), simulator())
    code, out, err = run("verify", "--against", str(checkpoint), "--public-key",
                         anchored.public, "--database", anchored.backend.url)
    assert (code, err) == (0, ""), out
    assert (f"    [reopened] note: stream {match} had ended at the checkpoint" in out)
    assert "each ruling signed by a key the checkpoint holds" in out
    assert "unchanged; 2 events stored since, 0 new streams; 1 note\n" in out


# ---- issue 23: the attacks that passed ------------------------------------------------------


def _checkpoint_now(anchored: Anchored, name: str) -> Path:
    checkpoint = anchored.checkpoint.with_name(name)
    code, out, err = run("checkpoint", "--key", str(anchored.key), "-o", str(checkpoint),
                         "--database", anchored.backend.url)
    assert code == 0, (out, err)
    return checkpoint


def _against(anchored: Anchored, checkpoint: Path) -> tuple[int, str, str]:
    return run("verify", "--against", str(checkpoint), "--public-key", anchored.public,
               "--database", anchored.backend.url)


def test_arbiter_add_revokes_the_demo_key(anchored: Anchored, store: MatchStore) -> None:
    """`make run`: the demo registers its key for arbitro, then `arbiter add arbitro` gives
    arbitro a real key, and the demo key, which anyone can derive, is revoked."""
    demo = demo_signer(store, DEMO_SEED)()
    code, out, err = run("arbiter", "add", "arbitro", "--generate-password", "--database",
                         anchored.backend.url)
    assert code == 0, (out, err)
    keyring = cast(Keyring, load_keyring(store, "arbitro").state)
    assert keyring.keys[demo.key].revoked is not None
    assert keyring.active() and demo.key not in keyring.active()
    match = anchored.matches[1]                  # a ruling signed with it from now on ...
    demo_ruling(store, match, datetime.now(UTC), simulator())
    code, out, err = run("verify", "--database", anchored.backend.url)
    assert code == 1, out                        # ... fails verify itself
    assert f"match {match} event " in out and " [signature] key " in out
    assert "of arbiter arbitro was revoked before this ruling" in out


def test_attack_a_ruling_signed_with_the_demo_key(anchored: Anchored,
                                                  store: MatchStore) -> None:
    demo_signer(store, DEMO_SEED)()                      # in the record, as make run leaves it
    checkpoint = _checkpoint_now(anchored, "cp-demo.txt")
    match = anchored.matches[0]
    assert demo_ruling(store, match, datetime.now(UTC), simulator()) == 2
    assert run("verify", "--database", anchored.backend.url)[0] == 0   # the key is registered
    code, out, err = _against(anchored, checkpoint)
    assert (code, err) == (1, ""), out
    assert (f"    [reopened] for the arbiter: stream {match} had ended at the checkpoint" in out)
    assert "is signed by the demo key " in out and "derive from the demo's public seed" in out


def test_attack_a_new_match_dated_before_the_checkpoint(anchored: Anchored) -> None:
    one_more(anchored.backend)          # the simulator dates its matches in November 2026
    code, out, err = anchored.against()
    assert (code, err) == (1, ""), out
    assert "    [back-dated] for the arbiter: stream " in out
    assert "stored after the checkpoint (" in out and ") but dated before it: " in out
    assert "[root]" not in out and "1 finding for the arbiter" in out


def test_a_paper_record_imported_after_the_checkpoint_is_a_note(anchored: Anchored) -> None:
    """A hand record carries its sheet's date (docs/notation.md, `Date`): imported after the
    checkpoint it is dated before it, and that is what an honest club does, not back-dating."""
    example = Path(__file__).parents[2] / "docs" / "examples" / "cirulla-2p-torneo.txt"
    code, out, err = run("import", str(example), "--database", anchored.backend.url)
    assert code == 0, (out, err)
    code, out, err = anchored.against()
    assert (code, err) == (0, ""), out
    assert "    [dated-on-paper] " in out and "dated by its paper before it: " in out
    assert "[back-dated]" not in out and "finding for the arbiter" not in out


def test_a_ruling_signed_by_a_key_never_registered_is_named_so(anchored: Anchored,
                                                               store: MatchStore) -> None:
    match = anchored.matches[1]
    stranger = Signer.from_seed("arbitro", bytes(range(7, 39)))
    ruling = RecordRuling(arbiter="arbitro", reason="ripensamento", kind="adjust-score",
                          adjustment=(0, 100), refers_to=store.load(match).state.version)
    execute_signed(store, match, ruling, stranger, datetime.now(UTC), simulator())
    code, out, err = anchored.against()
    assert (code, err) == (1, ""), out
    assert (f"the ruling at event {store.load(match).version - 1} is signed by key "
            f"{stranger.key[:16]}, which no arbiter's keys stream registers\n") in out
    assert "registered after the checkpoint" not in out


def test_attack_two_matches_ids_swapped(anchored: Anchored, tamperer: Tamperer,
                                        store: MatchStore) -> None:
    first, second = anchored.matches
    assert store.load(first).version != store.load(second).version
    swap_ids(tamperer, first, second)
    code, out, err = anchored.against()
    assert (code, err) == (1, ""), out
    for match, other in ((first, second), (second, first)):
        assert (f"    [moved] stream {match} holds events whose records name stream {other}, "
                f"from event 1 on") in out
    assert "; 0 events stored since\n" in out and "[reopened]" not in out
