"""Signed checkpoints of the audit log and the Ed25519 keys that sign them (docs/audit-log.md).

A checkpoint says: the log named `origin` had `size` leaves whose Merkle root was `root`, at
`time`. Its text is a signed note: the body (origin, size, root in hex, time, then any extension
lines), an empty line, and one signature line `— <origin> <base64(key id ‖ signature)>`, where
the key id is the first 4 bytes of SHA-256 of the raw public key and the signature is Ed25519
over the body's UTF-8 bytes. docs/verify_checkpoint.py reads the same text with the standard
library only.

Keys are two files made by `keygen(path)`: the private key as unencrypted PKCS#8 PEM readable
by its owner only (0600), and beside it `<path>.pub`, one line with the raw 32-byte public key
in base64 (hex is read as well). The private key never enters the database.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from domain.record.clock import ClockError, parse_stamp, stamp
from domain.text import said_of, say

DASH = "\u2014"
KEY_ID_SIZE = 4
SIGNATURE_SIZE = 64
PUBLIC_SUFFIX = ".pub"
DEFAULT_ORIGIN = "verbale audit log"
_HEX64 = re.compile(r"[0-9a-f]{64}")


class CheckpointError(ValueError):
    """A checkpoint that cannot be read, or whose signature or root does not hold (exit code 1:
    a failed check)."""

    exit_code = 1


class KeyFileError(ValueError):
    """A key file that is missing, unreadable, not a key, or in the way of a new one (exit
    code 2: the file given cannot be used)."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Checkpoint:
    origin: str
    size: int
    root: str             # 64 lowercase hex digits
    time: str             # UTC, domain.record.clock.stamp's form
    extensions: tuple[str, ...] = ()

    def body(self) -> str:
        return "".join(f"{line}\n" for line in (self.origin, str(self.size), self.root,
                                                self.time, *self.extensions))


@dataclass(frozen=True, slots=True)
class Signed:
    checkpoint: Checkpoint
    key_id: bytes
    signature: bytes

    def text(self) -> str:
        mark = base64.b64encode(self.key_id + self.signature).decode("ascii")
        return f"{self.checkpoint.body()}\n{DASH} {self.checkpoint.origin} {mark}\n"


def checkpoint_of(size: int, root: bytes, at: datetime, origin: str = DEFAULT_ORIGIN,
                  extensions: tuple[str, ...] = ()) -> Checkpoint:
    made = Checkpoint(origin, size, root.hex(), stamp(at), extensions)
    _check_fields(made)
    return made


def _check_fields(made: Checkpoint) -> None:
    lines = (made.origin, *made.extensions)
    if not made.origin.strip() or any(not line or not line.isprintable() for line in lines):
        raise CheckpointError(say("a checkpoint's origin and extension lines must be "
                                  "non-empty printable text on one line: {lines}",
                                  lines=repr(lines)))
    if made.size < 0 or not _HEX64.fullmatch(made.root):
        raise CheckpointError(say("a checkpoint needs a size of 0 or more and a root of 64 "
                                  "hex digits, not {size} and {root}", size=made.size,
                                  root=made.root))


def key_id(public: Ed25519PublicKey) -> bytes:
    return hashlib.sha256(raw_public(public)).digest()[:KEY_ID_SIZE]


def raw_public(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def sign(checkpoint: Checkpoint, key: Ed25519PrivateKey) -> Signed:
    _check_fields(checkpoint)
    return Signed(checkpoint, key_id(key.public_key()),
                  key.sign(checkpoint.body().encode("utf-8")))


def verify(signed: Signed, public: Ed25519PublicKey) -> None:
    """Raises CheckpointError unless `public` made the signature of `signed`."""
    if signed.key_id != key_id(public):
        raise CheckpointError(say("the checkpoint was signed by key {found}, not by this "
                                  "public key ({expected})", found=signed.key_id.hex(),
                                  expected=key_id(public).hex()))
    try:
        public.verify(signed.signature, signed.checkpoint.body().encode("utf-8"))
    except InvalidSignature:
        raise CheckpointError(say("the checkpoint's signature does not match its text: it was "
                                  "changed after signing, or not signed by this key")) from None


def parse(text: str) -> Signed:
    """A signed checkpoint from its text; CheckpointError says what is wrong with it."""
    body, sep, signatures = text.partition("\n\n")
    lines = body.split("\n")
    if not sep or len(lines) < 4:
        raise CheckpointError(say("not a checkpoint: expected origin, size, root and time "
                                  "lines, an empty line and a signature line"))
    origin, size, root, time, *extensions = lines
    if not size.isdigit() or (size != "0" and size.startswith("0")):
        raise CheckpointError(say("the checkpoint's size {size!r} is not a number", size=size))
    try:
        parse_stamp(time)
    except ClockError as error:
        raise CheckpointError(say("the checkpoint's time is not a UTC time: {error}",
                                  error=said_of(error) or str(error))) from None
    made = Checkpoint(origin, int(size), root, time, tuple(extensions))
    _check_fields(made)
    return _signature(made, signatures)


def _signature(made: Checkpoint, signatures: str) -> Signed:
    prefix = f"{DASH} {made.origin} "
    for line in signatures.split("\n"):
        if not line.startswith(prefix):
            continue
        try:
            mark = base64.b64decode(line[len(prefix):], validate=True)
        except binascii.Error:
            mark = b""
        if len(mark) == KEY_ID_SIZE + SIGNATURE_SIZE:
            return Signed(made, mark[:KEY_ID_SIZE], mark[KEY_ID_SIZE:])
    raise CheckpointError(say("the checkpoint has no signature line of {origin}",
                              origin=made.origin))


def read_checkpoint(path: Path) -> Signed:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CheckpointError(say("cannot read the checkpoint {path}: {error}", path=str(path),
                                  error=getattr(error, "strerror", None) or str(error))) from None
    try:
        return parse(text)
    except CheckpointError as error:
        raise CheckpointError(say("{path}: {error}", path=str(path),
                                  error=said_of(error) or str(error))) from None


@dataclass(frozen=True, slots=True)
class KeyFiles:
    private: Path
    public: Path


def public_path(private: Path) -> Path:
    return private.with_name(private.name + PUBLIC_SUFFIX)


def keygen(path: Path) -> KeyFiles:
    """A new key pair: the private key at `path` (PEM, mode 0600) and the public key at
    `path`.pub; refuses to replace either file."""
    files = KeyFiles(path, public_path(path))
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    line = base64.b64encode(raw_public(key.public_key())) + b"\n"
    _write_new(files.private, pem, 0o600)
    try:
        _write_new(files.public, line, 0o644)
    except KeyFileError:
        files.private.unlink()
        raise
    return files


def _write_new(path: Path, content: bytes, mode: int) -> None:
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise KeyFileError(say("{path} already exists: a key is never overwritten",
                               path=str(path))) from None
    except OSError as error:
        raise KeyFileError(say("cannot create the key file {path}: {error}", path=str(path),
                               error=error.strerror or str(error))) from None
    with os.fdopen(handle, "wb") as out:
        out.write(content)
    os.chmod(path, mode)   # whatever the umask left


def load_private(path: Path) -> Ed25519PrivateKey:
    content = _read_key(path)
    try:
        key = serialization.load_pem_private_key(content, password=None)
    except (ValueError, TypeError) as error:
        raise KeyFileError(say("{path} is not an unencrypted PEM private key: {error}",
                               path=str(path), error=str(error))) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(say("{path} holds a private key that is not Ed25519",
                               path=str(path)))
    return key


def load_public(path: Path) -> Ed25519PublicKey:
    text = _read_key(path).decode("ascii", errors="replace").strip()
    raw = _raw_key(text)
    if raw is None:
        raise KeyFileError(say("{path} is not an Ed25519 public key: expected one line with "
                               "its 32 bytes in base64 or hex", path=str(path)))
    try:
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError as error:
        raise KeyFileError(say("{path} is not an Ed25519 public key: {error}", path=str(path),
                               error=str(error))) from None


def _raw_key(text: str) -> bytes | None:
    if len(text) == 64:
        try:
            return bytes.fromhex(text)
        except ValueError:
            return None
    try:
        raw = base64.b64decode(text, validate=True)
    except binascii.Error:
        return None
    return raw if len(raw) == 32 else None


def _read_key(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise KeyFileError(say("cannot read the key file {path}: {error}", path=str(path),
                               error=error.strerror or str(error))) from None
