"""An arbiter's signing key through its life: made with the account, re-sealed with a new
password, replaced, revoked with the account; and opened, with the password, to sign a ruling.

The public half goes into the record (the arbiter's keys stream: ArbiterKeyRegistered,
ArbiterKeyRevoked, projections/store/signatures.py); the private half stays sealed under the
password beside the account (projections/sealed_keys.py). Registering comes first: a key in
the record whose private half was never kept signs nothing, while the reverse would be a key
that signs rulings verify cannot check.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine

from domain.record.envelope import arbiter as by_arbiter
from domain.text import say
from projections.accounts import (
    AccountError,
    arbiters,
    check_login,
    check_password,
    set_password,
)
from projections.sealed_keys import (
    drop_sealed,
    new_private_key,
    public_hex,
    save_sealed,
    seal,
    sealed_of,
    unseal,
)
from projections.store.app import MatchStore
from projections.store.signatures import Signer, demo_keys, register_key, revoke_keys


def _now() -> datetime:
    return datetime.now(UTC)


def give_key(store: MatchStore, engine: Engine, name: str, password: str) -> str:
    """A new key pair for arbiter `name`: the public key registered in the record, the private
    key sealed under `password`. A demo key of `name` still in force (the demo's `arbitro`,
    registered by `verbale simulate`) is revoked first: anyone can sign with it, and the real
    key replaces it (docs/audit-log.md, "Signed rulings"). The key's id."""
    private = new_private_key()
    demo = demo_keys(store, name)
    if demo:
        revoke_keys(store, name, say("a real key replaced the demo key"), _now(),
                    by_arbiter(name), only=demo)
    key = register_key(store, name, public_hex(private), _now(), by_arbiter(name))
    save_sealed(engine, seal(name, private, password))
    return key


def change_password(store: MatchStore, engine: Engine, name: str, current: str,
                    new: str) -> str | None:
    """`name`'s password changed from `current` (checked) to `new`, the signing key re-sealed
    under it; an arbiter with no key yet (an account from before signed rulings) gets one.
    The id of a key made, or None."""
    check_password(new)
    if all(a.name != name for a in arbiters(engine)):
        raise AccountError(say("no arbiter is named {name}", name=name))
    if not check_login(engine, name, current):
        raise AccountError(say("wrong name or password"))
    sealed = sealed_of(engine, name)
    private = unseal(sealed, current) if sealed is not None else None
    set_password(engine, name, new)
    if private is None:
        return give_key(store, engine, name, new)
    save_sealed(engine, seal(name, private, new))
    return None


def replace_key(store: MatchStore, engine: Engine, name: str, new: str) -> str:
    """A forgotten password: `new` is set, every key of `name` is revoked (what they signed
    stays signed) and a fresh key is made. The new key's id."""
    check_password(new)
    set_password(engine, name, new)
    revoke_keys(store, name, say("a new key replaced it"), _now(), by_arbiter(name))
    return give_key(store, engine, name, new)


def retire_keys(store: MatchStore, engine: Engine, name: str) -> tuple[str, ...]:
    """The arbiter `name` is removed: their keys are revoked and the sealed key forgotten."""
    revoked = revoke_keys(store, name, say("the arbiter was removed"), _now(),
                          by_arbiter(name))
    drop_sealed(engine, name)
    return revoked


def signer_for(engine: Engine, name: str, password: str) -> Signer:
    """`name`'s signing key, opened with `password`; AccountError if they have none or the
    password is wrong."""
    sealed = sealed_of(engine, name)
    if sealed is None:
        raise AccountError(say("arbiter {name} has no signing key: 'verbale arbiter passwd "
                               "{name}' makes one", name=name))
    return Signer(name, unseal(sealed, password))
