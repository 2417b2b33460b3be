"""The arbiters' private signing keys, sealed under their passwords, beside their accounts.

Each arbiter's Ed25519 private key is kept only encrypted: AES-256-GCM under a key derived from
the arbiter's password with scrypt (n = 2^15, r = 8, p = 1, a random 16-byte salt per sealing),
the arbiter's name and key id bound in as associated data. So the viewer can sign a ruling only
while the arbiter types the password in the ruling form, and whoever copies the database
without the password cannot sign (docs/viewer.md, "Signing a ruling"). The public key is not a
secret and is not trusted from here: verify reads it from the arbiter's keys stream
(projections/store/signatures.py).

`web_chiavi` is its own table (its own metadata): a database made before signed rulings gets
it on the first write, and the accounts' tables are untouched.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from cryptography.hazmat.primitives.serialization import Encoding, PrivateFormat, PublicFormat
from cryptography.hazmat.primitives.serialization import NoEncryption as _NoEncryption
from sqlalchemy import Column, Engine, MetaData, String, Table, delete, insert, inspect, select

from domain.record.arbiter_keys import key_id
from domain.text import say
from projections.accounts import NAME_MAX, AccountError
from projections.read_models.engine import ensure_tables, writing

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 15, 8, 1
_AAD = b"verbale/arbiter-key-v1\x00"

metadata = MetaData()

chiavi = Table(
    "web_chiavi", metadata,
    Column("name", String(NAME_MAX), primary_key=True),
    Column("key", String(64), nullable=False),          # the key's id (SHA-256 of public_key)
    Column("public_key", String(64), nullable=False),   # hex, 32 bytes
    Column("salt", String(32), nullable=False),         # hex, 16 bytes
    Column("nonce", String(24), nullable=False),        # hex, 12 bytes
    Column("sealed", String(128), nullable=False),      # hex: 32 bytes + the 16-byte GCM tag
    Column("created", String(32), nullable=False),      # UTC, ISO 8601
)


@dataclass(frozen=True, slots=True)
class SealedKey:
    """An arbiter's private key as stored: encrypted, with what is needed to open it."""

    name: str
    key: str
    public_key: str
    salt: str
    nonce: str
    sealed: str


def new_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def public_hex(private: Ed25519PrivateKey) -> str:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def _derived(password: str, salt: bytes) -> bytes:
    return Scrypt(salt=salt, length=32, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P).derive(
        password.encode("utf-8"))


def _aad(name: str, key: str) -> bytes:
    return _AAD + name.encode("utf-8") + b"\x00" + key.encode("ascii")


def seal(name: str, private: Ed25519PrivateKey, password: str) -> SealedKey:
    """`private` sealed under `password` for arbiter `name`."""
    public = public_hex(private)
    key = key_id(public)
    salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
    raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, _NoEncryption())
    sealed = AESGCM(_derived(password, salt)).encrypt(nonce, raw, _aad(name, key))
    return SealedKey(name, key, public, salt.hex(), nonce.hex(), sealed.hex())


def unseal(sealed: SealedKey, password: str) -> Ed25519PrivateKey:
    """The private key, if `password` is the one it was sealed under; else AccountError."""
    try:
        raw = AESGCM(_derived(password, bytes.fromhex(sealed.salt))).decrypt(
            bytes.fromhex(sealed.nonce), bytes.fromhex(sealed.sealed),
            _aad(sealed.name, sealed.key))
    except (InvalidTag, ValueError):
        raise AccountError(say("wrong password: the signing key of arbiter {name} stays "
                               "locked", name=sealed.name)) from None
    private = Ed25519PrivateKey.from_private_bytes(raw)
    if public_hex(private) != sealed.public_key:   # a row put together from two: refuse it
        raise AccountError(say("the stored signing key of arbiter {name} is damaged",
                               name=sealed.name))
    return private


def _ensure(engine: Engine) -> None:
    ensure_tables(engine, metadata)


def save_sealed(engine: Engine, sealed: SealedKey) -> None:
    """Keep `sealed` as its arbiter's one signing key (replacing the one kept before)."""
    _ensure(engine)
    with writing(engine).begin() as conn:
        conn.execute(delete(chiavi).where(chiavi.c.name == sealed.name))
        conn.execute(insert(chiavi).values(
            name=sealed.name, key=sealed.key, public_key=sealed.public_key, salt=sealed.salt,
            nonce=sealed.nonce, sealed=sealed.sealed,
            created=datetime.now(UTC).isoformat(timespec="seconds")))


def sealed_of(engine: Engine, name: str) -> SealedKey | None:
    """Arbiter `name`'s sealed key, or None (no key yet, or no table yet)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(chiavi.name):
            return None
        row = conn.execute(select(chiavi.c.name, chiavi.c.key, chiavi.c.public_key,
                                  chiavi.c.salt, chiavi.c.nonce, chiavi.c.sealed)
                           .where(chiavi.c.name == name)).one_or_none()
    return None if row is None else SealedKey(*row)


def drop_sealed(engine: Engine, name: str) -> None:
    """Forget arbiter `name`'s sealed key (nothing if there is none)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(chiavi.name):
            return
    with writing(engine).begin() as conn:
        conn.execute(delete(chiavi).where(chiavi.c.name == name))
