"""The outside auditor's one Ed25519 verification (projections/auditor/ed25519.py, RFC 8032
written again with the standard library), which checks the arbiters' rulings and the audit
log's checkpoints: RFC 8032's first test vector, and agreement with the `cryptography` library
on valid and tampered signatures."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.audit_log.checkpoint import raw_public
from projections.auditor.ed25519 import L, ed25519_verify


def _library(public: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


def test_the_first_rfc_8032_test_vector() -> None:
    public = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    signature = bytes.fromhex(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39"
        "701cf9b46bd25bf5f0595bbe24655141438e7a100b")
    assert ed25519_verify(public, b"", signature)
    assert not ed25519_verify(public, b"\x00", signature)
    assert not ed25519_verify(public[:31], b"", signature)
    assert not ed25519_verify(public, b"", signature[:63])


keys = st.binary(min_size=32, max_size=32).map(Ed25519PrivateKey.from_private_bytes)


@settings(max_examples=settings().max_examples * 2)
@given(keys, keys, st.binary(max_size=200), st.data())
def test_it_agrees_with_the_library(key: Ed25519PrivateKey, other: Ed25519PrivateKey,
                                    message: bytes, data: st.DataObject) -> None:
    public, signature = raw_public(key.public_key()), key.sign(message)
    assert ed25519_verify(public, message, signature)
    bit = data.draw(st.integers(0, 64 * 8 - 1))
    flipped = bytearray(signature)
    flipped[bit // 8] ^= 1 << (bit % 8)
    key_bit = data.draw(st.integers(0, 32 * 8 - 1))
    bent = bytearray(public)
    bent[key_bit // 8] ^= 1 << (key_bit % 8)
    longer = message + data.draw(st.binary(min_size=1, max_size=4))
    foreign = raw_public(other.public_key())
    cases = [(public, message, bytes(flipped)), (public, longer, signature),
             (foreign, message, signature), (bytes(bent), message, signature),
             (public, message, data.draw(st.binary(min_size=64, max_size=64)))]
    for case in cases:
        assert ed25519_verify(*case) == _library(*case)
    assert not ed25519_verify(public, message, bytes(flipped))
    assert not ed25519_verify(bytes(bent), message, signature)


def test_a_signature_with_s_not_reduced_is_refused_by_both() -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    public, signature = raw_public(key.public_key()), key.sign(b"m")
    s = int.from_bytes(signature[32:], "little") + L
    malleated = signature[:32] + s.to_bytes(32, "little")
    assert not ed25519_verify(public, b"m", malleated)
    assert not _library(public, b"m", malleated)
