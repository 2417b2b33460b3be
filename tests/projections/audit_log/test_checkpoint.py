"""Checkpoints: their text round-trips, any change to a signed one is refused, keys are files
with the right permissions, and every file problem names the file."""

from __future__ import annotations

import base64
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from projections.audit_log.checkpoint import (
    Checkpoint,
    CheckpointError,
    KeyFileError,
    Signed,
    checkpoint_of,
    keygen,
    load_private,
    load_public,
    parse,
    raw_public,
    read_checkpoint,
    sign,
    verify,
)

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
START = datetime(2026, 1, 1, tzinfo=UTC)

origins = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), min_size=1,
                  max_size=30).filter(lambda s: s.strip() != "" and s.isprintable())
checkpoints = st.builds(
    lambda origin, size, root, seconds: checkpoint_of(size, root, START + timedelta(
        seconds=seconds), origin),
    origins, st.integers(0, 2**40), st.binary(min_size=32, max_size=32),
    st.integers(0, 10**9))


@given(checkpoints)
def test_a_signed_checkpoint_reads_back_and_verifies(made: Checkpoint) -> None:
    signed = sign(made, KEY)
    again = parse(signed.text())
    assert again == signed
    verify(again, KEY.public_key())
    with pytest.raises(CheckpointError, match="signed by key"):
        verify(again, OTHER.public_key())


@given(checkpoints, st.data())
def test_any_change_to_the_signed_text_is_refused(made: Checkpoint, data: st.DataObject) -> None:
    text = sign(made, KEY).text()
    body_end = text.index("\n\n")
    at = data.draw(st.integers(0, body_end - 1))
    replacement = data.draw(st.sampled_from("0123456789abcdefZ x"))
    if text[at] == replacement:
        return
    changed = text[:at] + replacement + text[at + 1:]
    with pytest.raises(CheckpointError):
        verify(parse(changed), KEY.public_key())


def test_the_text_is_the_documented_note() -> None:
    made = checkpoint_of(5, bytes(32), START, "verbale test", ("heads " + "ab" * 32,))
    lines = sign(made, KEY).text().split("\n")
    assert lines[:5] == ["verbale test", "5", "00" * 32, "2026-01-01T00:00:00.000000Z",
                         "heads " + "ab" * 32]
    assert lines[5] == "" and lines[-1] == ""
    mark = base64.b64decode(lines[6].removeprefix("\u2014 verbale test "))
    assert len(mark) == 68
    KEY.public_key().verify(mark[4:], "\n".join(lines[:5]).encode() + b"\n")


@pytest.mark.parametrize("text", ["", "x\n1\n", "o\n-1\n" + "0" * 64 + "\nt\n\n",
                                  "o\n1\n" + "0" * 64 + "\n2026-01-01\n\n\u2014 o AAAA\n",
                                  "o\n01\n" + "0" * 64 + "\n2026-01-01T00:00:00.000000Z\n\n"])
def test_malformed_checkpoints_are_refused(text: str) -> None:
    with pytest.raises(CheckpointError):
        parse(text)


def test_a_checkpoint_without_its_signature_line_is_refused() -> None:
    text = sign(checkpoint_of(1, bytes(32), START), KEY).text()
    with pytest.raises(CheckpointError, match="no signature line"):
        parse(text[:text.index("\n\n") + 2])


def test_keygen_writes_a_private_key_for_its_owner_only_and_a_public_line(
        tmp_path: Path) -> None:
    files = keygen(tmp_path / "audit.key")
    assert stat.S_IMODE(files.private.stat().st_mode) == 0o600
    assert files.public == tmp_path / "audit.key.pub"
    public = load_public(files.public)
    assert raw_public(public) == raw_public(load_private(files.private).public_key())
    assert len(base64.b64decode(files.public.read_text().strip())) == 32
    signed = sign(checkpoint_of(3, bytes(32), START), load_private(files.private))
    verify(read_back(signed.text(), tmp_path), public)


def read_back(text: str, where: Path) -> Signed:
    path = where / "checkpoint.txt"
    path.write_text(text, encoding="utf-8")
    return read_checkpoint(path)


def test_keygen_never_overwrites(tmp_path: Path) -> None:
    keygen(tmp_path / "k")
    before = (tmp_path / "k").read_bytes()
    with pytest.raises(KeyFileError, match="already exists") as raised:
        keygen(tmp_path / "k")
    assert str(tmp_path / "k") in str(raised.value)
    assert (tmp_path / "k").read_bytes() == before
    (tmp_path / "only.pub").write_text("x")
    with pytest.raises(KeyFileError, match=r"only\.pub"):
        keygen(tmp_path / "only")
    assert not (tmp_path / "only").exists(), "no private key without its public one"


def test_a_public_key_in_hex_is_read(tmp_path: Path) -> None:
    path = tmp_path / "hex.pub"
    path.write_text(raw_public(KEY.public_key()).hex() + "\n")
    assert raw_public(load_public(path)) == raw_public(KEY.public_key())


@pytest.mark.parametrize("content", [b"", b"not a key", b"AAAA\n", b"-----BEGIN PUBLIC"])
def test_key_file_errors_name_the_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.key"
    path.write_bytes(content)
    for load in (load_public, load_private):
        with pytest.raises(KeyFileError) as raised:
            load(path)
        assert str(path) in str(raised.value)
    with pytest.raises(KeyFileError, match="missing"):
        load_public(tmp_path / "missing")
    with pytest.raises(CheckpointError, match="missing"):
        read_checkpoint(tmp_path / "missing")


def test_a_checkpoint_file_that_is_not_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cp.txt"
    path.write_text("hello\n")
    with pytest.raises(CheckpointError, match=r"cp\.txt: not a checkpoint"):
        read_checkpoint(path)
