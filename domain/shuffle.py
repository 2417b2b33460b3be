"""The verifiable shuffle: seed -> keystream -> Fisher-Yates -> order of the 40 cards.

docs/shuffle.md specifies every byte so that a third party can re-implement it; the test vectors
there are checked by tests/domain/test_shuffle.py. Never Python's `random`: its algorithms may
change between versions, and a deal must be re-derivable for as long as the record is kept.

- commitment = SHA-256("verbale/commit-v1" 0x00 || seed), published before the deal;
- effective seed, when players contribute seeds, = SHA-256("verbale/mix-v1" 0x00 || len-prefixed
  house seed || len-prefixed contributions in seat order);
- keystream block k of attempt a = HMAC-SHA256(key=effective seed,
  msg="verbale/deal-v1" 0x00 || a as 4 bytes big-endian || k as 8 bytes big-endian);
- uniform draws below n: the keystream read as 32-bit big-endian words, rejecting words at or
  above 2^32 - (2^32 mod n) (no modulo bias);
- Fisher-Yates from the top: for i = 39 down to 1, j = draw below i+1, swap positions i and j of
  the deck in deck order. Position 0 of the result is the top of the deck, the first card dealt.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import lt, mod
from typing import Protocol

from domain.cards import DECK, Card
from domain.text import Said, excerpt, say

SHUFFLE_VERSION = "deal-v1"
MIN_SEED_BYTES = 16

_COMMIT_TAG = b"verbale/commit-v1\x00"
_MIX_TAG = b"verbale/mix-v1\x00"
_DEAL_TAG = b"verbale/deal-v1\x00"


SEED_EXPECTED: Said = say("expected an even number of hex digits (0-9, a-f), at least {digits} "
                          "({bits} bits)", digits=MIN_SEED_BYTES * 2, bits=MIN_SEED_BYTES * 8)
_HEX_DIGITS = frozenset("0123456789abcdef")


class SeedError(ValueError):
    """A seed that is too short, not hexadecimal, or does not match its commitment."""


@dataclass(frozen=True, slots=True)
class Seed:
    """A shuffle seed of at least 128 bits."""

    value: bytes

    def __post_init__(self) -> None:
        if len(self.value) < MIN_SEED_BYTES:
            raise SeedError(say(
                "a seed needs at least {bits} bits ({digits} hex digits); got {got} bits",
                bits=MIN_SEED_BYTES * 8, digits=MIN_SEED_BYTES * 2, got=len(self.value) * 8))

    @classmethod
    def from_hex(cls, text: str) -> Seed:
        """Read a seed written in hexadecimal (an optional 0x, any case, spaces between bytes)."""
        cleaned = text.strip().lower().removeprefix("0x")
        digits = "".join(cleaned.split())
        bad = None if _HEX_DIGITS.issuperset(digits) else next(
            (k for k, char in enumerate(digits) if char not in _HEX_DIGITS), None)
        if bad is not None:
            raise SeedError(say("seed {seed} is not hexadecimal ({char} at digit {position}): "
                                "{expected}", seed=excerpt(text), char=repr(digits[bad]),
                                position=bad + 1, expected=SEED_EXPECTED))
        if len(digits) % 2:
            raise SeedError(say("seed {seed} has an odd number of hex digits ({count}): "
                                "{expected}", seed=excerpt(text), count=len(digits),
                                expected=SEED_EXPECTED))
        try:
            raw = bytes.fromhex(cleaned)
        except ValueError:  # spaces inside a byte
            raise SeedError(say("seed {seed} is not hexadecimal: {expected}",
                                seed=excerpt(text), expected=SEED_EXPECTED)) from None
        return cls(raw)

    @property
    def hex(self) -> str:
        return self.value.hex()

    def commitment(self) -> str:
        return commitment(self)


def commitment(seed: Seed) -> str:
    """SHA-256 of the domain-separated seed, hex: what is published before the deal."""
    return hashlib.sha256(_COMMIT_TAG + seed.value).hexdigest()


def check_commitment(seed: Seed, published: str) -> None:
    if not hmac.compare_digest(commitment(seed), published.lower()):
        raise SeedError(say("seed {seed} does not match commitment {commitment}",
                            seed=seed.hex, commitment=published))


def _length_prefixed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def mix_seeds(house: Seed, contributions: Sequence[bytes]) -> Seed:
    """Combine the house seed with the players' seeds, so no single party controls the deck."""
    if not contributions:
        return house
    material = _MIX_TAG + _length_prefixed(house.value)
    for contribution in contributions:
        material += _length_prefixed(contribution)
    return Seed(hashlib.sha256(material).digest())


def keystream(seed: Seed, attempt: int = 0) -> Iterator[bytes]:
    """32-byte blocks of HMAC-SHA256 in counter mode for one deal attempt."""
    if not 0 <= attempt < 2**32:
        raise SeedError(say("deal attempt {attempt} out of range", attempt=attempt))
    prefix = _DEAL_TAG + attempt.to_bytes(4, "big")
    key = seed.value
    counter = 0
    while True:
        yield hmac.digest(key, prefix + counter.to_bytes(8, "big"), "sha256")
        counter += 1


_WORDS_PER_BLOCK = 8


def _block_words(seed: Seed, attempt: int, first: int, count: int) -> list[int]:
    data = _keyed_blocks(seed.value, _DEAL_TAG + attempt.to_bytes(4, "big"), first, count)
    unpack = _FIRST_BLOCKS.unpack if count == 5 else struct.Struct(f">{count * 8}I").unpack
    return list(unpack(data))


def _keyed_blocks(key: bytes, prefix: bytes, first: int, count: int) -> bytes:
    """HMAC-SHA256(key, prefix || BE64(k)) for k from `first`, `count` blocks joined: the bytes
    of `hmac.digest` per block (`keystream`), computed as RFC 2104 defines HMAC with the key's
    inner and outer SHA-256 states prepared once and copied per block, at half the cost of
    copying a keyed `hmac` object (tests/domain/test_shuffle.py compares the two)."""
    inner, outer = _hmac_states(key)
    inner.update(prefix)
    copy_inner, copy_outer = inner.copy, outer.copy
    blocks = []
    for k in range(first, first + count):
        block = copy_inner()
        block.update(k.to_bytes(8, "big"))
        mac = copy_outer()
        mac.update(block.digest())
        blocks.append(mac.digest())
    return b"".join(blocks)


class Sha256(Protocol):
    """A SHA-256 state as hashlib makes it: copied, fed, read."""

    def copy(self) -> Sha256: ...

    def update(self, data: bytes, /) -> None: ...

    def digest(self) -> bytes: ...


_HMAC_BLOCK = 64   # SHA-256's block size: HMAC's keys are padded (or hashed) to it
_IPAD = int.from_bytes(b"\x36" * _HMAC_BLOCK, "big")
_OPAD = int.from_bytes(b"\x5c" * _HMAC_BLOCK, "big")


def _hmac_states(key: bytes) -> tuple[Sha256, Sha256]:
    """HMAC-SHA256's inner and outer hashes after the padded key (RFC 2104 section 2)."""
    if len(key) > _HMAC_BLOCK:
        key = hashlib.sha256(key).digest()
    padded = int.from_bytes(key.ljust(_HMAC_BLOCK, b"\0"), "big")
    return (hashlib.sha256((padded ^ _IPAD).to_bytes(_HMAC_BLOCK, "big")),
            hashlib.sha256((padded ^ _OPAD).to_bytes(_HMAC_BLOCK, "big")))


_FIRST_BLOCKS = struct.Struct(">40I")   # the 5 blocks a 40-card shuffle reads


def shuffled_indices(seed: Seed, attempt: int = 0, size: int = 40) -> tuple[int, ...]:
    """Fisher-Yates over range(size) driven by the keystream, with rejection sampling.

    Reads the same words, in the same order, as `keystream` would give. The blocks are computed
    in a batch, and when none of the first size-1 words is rejected (all but about one shuffle in
    ten million) the draws are taken all at once: the result is the same as word by word.
    """
    if not 0 <= attempt < 2**32:
        raise SeedError(say("deal attempt {attempt} out of range", attempt=attempt))
    blocks = max(1, (size + _WORDS_PER_BLOCK - 1) // _WORDS_PER_BLOCK)
    words = _block_words(seed, attempt, 0, blocks)
    bounds = range(size, 1, -1)
    limits = _LIMITS if size < len(_LIMITS) else _limits(size)
    first = words[:size - 1]
    if len(first) == size - 1 and all(map(lt, first, map(limits.__getitem__, bounds))):
        return _swap(size, map(mod, first, bounds))
    return _swap(size, _draws_word_by_word(seed, attempt, words, limits, size))


def _swap(size: int, draws: Iterable[int]) -> tuple[int, ...]:
    order = list(range(size))
    for i, j in zip(range(size - 1, 0, -1), draws, strict=False):
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def _draws_word_by_word(seed: Seed, attempt: int, words: list[int], limits: Sequence[int],
                        size: int) -> list[int]:
    draws = []
    at = 0
    for bound in range(size, 1, -1):
        while True:
            if at == len(words):
                words += _block_words(seed, attempt, len(words) // _WORDS_PER_BLOCK, 1)
            word = words[at]
            at += 1
            if word < limits[bound]:
                break
        draws.append(word % bound)
    return draws


def _limits(size: int) -> tuple[int, ...]:
    """For each bound, words at or above this are rejected: the largest multiple of the bound
    that fits in 32 bits (bound 0 is never drawn)."""
    return tuple(2**32 - 2**32 % b if b else 0 for b in range(size + 1))


_LIMITS = _limits(64)


def shuffled_deck(seed: Seed, attempt: int = 0) -> tuple[Card, ...]:
    """The 40 cards from the top of the deck down, for this seed and deal attempt."""
    return _shuffled_deck(seed, attempt)


@lru_cache(maxsize=16)
def _shuffled_deck(seed: Seed, attempt: int) -> tuple[Card, ...]:
    """The deck of `shuffled_deck`, kept for the last few deals: the same deal is derived
    again at once when a record is checked (the written cards against the seed, then the
    DealSmazzata that deals them); a Seed and the deck are immutable."""
    return tuple(map(DECK.__getitem__, shuffled_indices(seed, attempt)))
