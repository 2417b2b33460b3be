"""The verifiable shuffle against its specification, docs/shuffle.md.

The test vectors and the reference implementation are read from the document itself, so the
document and domain/shuffle.py cannot drift apart.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import re
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import domain.shuffle as shuffle_module
from domain.briscola.engine import deal_event
from domain.cards import DECK, Card
from domain.cirulla.dealing import distribute, next_hands
from domain.cirulla.ruleset import ruleset_from_options
from domain.seating import Seating
from domain.shuffle import (
    MIN_SEED_BYTES,
    Seed,
    SeedError,
    check_commitment,
    commitment,
    keystream,
    mix_seeds,
    shuffled_deck,
    shuffled_indices,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"
DOC_TEXT = DOC.read_text(encoding="utf-8")


def _fenced(info: str) -> list[str]:
    return re.findall(rf"^```{info}\n(.*?)^```", DOC_TEXT, flags=re.S | re.M)


@dataclass(frozen=True, slots=True)
class Vector:
    number: int
    seed: str
    commitment: str
    contributions: tuple[str, ...]
    effective: str
    attempt: int
    block0: str
    rejected: tuple[tuple[int, int, int], ...]
    draws: tuple[int, ...]
    deck: tuple[str, ...]

    @property
    def contribution_bytes(self) -> list[bytes]:
        return [bytes.fromhex(c) for c in self.contributions]


def _fields(block: str) -> dict[str, list[str]]:
    """`key: value` lines; an indented line continues the previous value."""
    fields: dict[str, list[str]] = {}
    key = ""
    for line in block.splitlines():
        head, sep, rest = line.partition(":")
        if sep and not line.startswith(" "):
            key = head.strip()
            fields.setdefault(key, []).append(rest.strip())
        else:
            fields[key][-1] += " " + line.strip()
    return fields


_REJECTED = re.compile(r"word (\d+) = ([0-9a-f]{8}) at i = (\d+)")


def _rejected(line: str) -> tuple[int, int, int]:
    match = _REJECTED.fullmatch(line)
    assert match is not None, f"docs/shuffle.md: bad 'rejected' line {line!r}"
    return int(match[1]), int(match[2], 16), int(match[3])


def _vector(block: str) -> Vector:
    f = _fields(block)
    contributions = f["contributions"][0]
    return Vector(
        number=int(f["vector"][0]), seed=f["seed"][0], commitment=f["commitment"][0],
        contributions=() if contributions == "-" else tuple(contributions.split()),
        effective=f["effective"][0], attempt=int(f["attempt"][0]), block0=f["block 0"][0],
        rejected=tuple(_rejected(line) for line in f.get("rejected", [])),
        draws=tuple(int(j) for j in f["draws"][0].split()), deck=tuple(f["deck"][0].split()))


VECTORS = [_vector(block) for block in _fenced("vector")]
by_vector = pytest.mark.parametrize("v", VECTORS, ids=[f"vector{v.number}" for v in VECTORS])


def _reference() -> dict[str, object]:
    blocks = _fenced("python")
    assert len(blocks) == 1, "docs/shuffle.md must hold exactly one python block: the reference"
    namespace: dict[str, object] = {"__name__": "shuffle_reference"}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    return namespace


REFERENCE = _reference()
ref_commit = cast(Callable[[bytes], str], REFERENCE["commit"])
ref_mix = cast(Callable[[bytes, list[bytes]], bytes], REFERENCE["mix"])
ref_draws = cast(Callable[[bytes, int], list[int]], REFERENCE["draws"])
ref_deal = cast(Callable[[str, int, tuple[str, ...]], list[str]], REFERENCE["deal"])

seeds = st.binary(min_size=MIN_SEED_BYTES, max_size=48).map(Seed)
attempts = st.integers(min_value=0, max_value=2**32 - 1)
contribution_lists = st.lists(st.binary(max_size=40), max_size=4)


def _codes(seed: Seed, attempt: int = 0) -> list[str]:
    return [c.code for c in shuffled_deck(seed, attempt)]


def _words(seed: Seed, attempt: int) -> Iterator[int]:
    for block in keystream(seed, attempt):
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset:offset + 4], "big")


# ---- the document's vectors ------------------------------------------------------------------

def test_the_document_covers_the_required_cases() -> None:
    assert len(VECTORS) >= 5
    assert [v.number for v in VECTORS] == list(range(1, len(VECTORS) + 1))
    assert any(v.attempt == 1 for v in VECTORS), "a redeal vector (attempt 1)"
    assert any(len(v.contributions) >= 2 for v in VECTORS), "a vector with two contributions"
    assert any(v.rejected for v in VECTORS), "a vector that needs rejection sampling"


@by_vector
def test_vector_commitment(v: Vector) -> None:
    seed = Seed.from_hex(v.seed)
    assert commitment(seed) == seed.commitment() == v.commitment
    check_commitment(seed, v.commitment)


@by_vector
def test_vector_effective_seed_and_first_block(v: Vector) -> None:
    effective = mix_seeds(Seed.from_hex(v.seed), v.contribution_bytes)
    assert effective.hex == v.effective
    assert next(keystream(effective, v.attempt)).hex() == v.block0


@by_vector
def test_vector_deck(v: Vector) -> None:
    effective = mix_seeds(Seed.from_hex(v.seed), v.contribution_bytes)
    assert len(v.deck) == 40
    assert tuple(_codes(effective, v.attempt)) == v.deck


@by_vector
def test_vector_draws_are_the_fisher_yates_swaps_of_the_deck(v: Vector) -> None:
    """Swapping positions i and j for i = 39..1 in deck order gives the listed deck."""
    assert len(v.draws) == 39
    order = [c.code for c in DECK]
    for i, j in zip(range(39, 0, -1), v.draws, strict=True):
        assert 0 <= j <= i
        order[i], order[j] = order[j], order[i]
    assert tuple(order) == v.deck


@by_vector
def test_vector_rejected_words(v: Vector) -> None:
    """Each listed word is in the keystream, at or above the limit, and the naive draw differs."""
    words = list(islice(_words(Seed.from_hex(v.effective), v.attempt), 80))
    for k, value, i in v.rejected:
        assert words[k] == value
        assert value >= 2**32 - 2**32 % (i + 1)
        assert value % (i + 1) != v.draws[39 - i]


@by_vector
def test_reference_implementation_reproduces_vector(v: Vector) -> None:
    assert ref_commit(bytes.fromhex(v.seed)) == v.commitment
    assert ref_mix(bytes.fromhex(v.seed), v.contribution_bytes).hex() == v.effective
    assert tuple(ref_draws(bytes.fromhex(v.effective), v.attempt)) == v.draws
    assert tuple(ref_deal(v.seed, v.attempt, v.contributions)) == v.deck


def test_reference_implementation_is_short_and_uses_only_hashlib_and_hmac() -> None:
    source = _fenced("python")[0]
    assert len(source.splitlines()) <= 40
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert imported == {"hashlib", "hmac"}


@given(seeds, attempts, contribution_lists)
def test_reference_agrees_with_domain_shuffle(seed: Seed, attempt: int,
                                              contributions: list[bytes]) -> None:
    effective = mix_seeds(seed, contributions)
    expected = _codes(effective, attempt)
    hexes = tuple(c.hex() for c in contributions)
    assert ref_deal(seed.hex, attempt, hexes) == expected
    assert ref_commit(seed.value) == commitment(seed)


# ---- properties ------------------------------------------------------------------------------

@given(st.binary(min_size=MIN_SEED_BYTES, max_size=130), attempts, st.integers(0, 2**20),
       st.integers(1, 6))
def test_the_blocks_are_the_keystreams_hmac(key: bytes, attempt: int, first: int,
                                            count: int) -> None:
    """The shuffle's own HMAC (`_keyed_blocks`: the key's SHA-256 states copied per block, a key
    longer than SHA-256's block hashed first) gives the bytes of `hmac.digest`, block by
    block."""
    words = shuffle_module._block_words(Seed(key), attempt, first, count)
    message = b"verbale/deal-v1\x00" + attempt.to_bytes(4, "big")
    expected = b"".join(hmac.digest(key, message + k.to_bytes(8, "big"), "sha256")
                        for k in range(first, first + count))
    assert words == list(struct.unpack(f">{count * 8}I", expected))
    if first == 0:
        assert expected[:32] == next(keystream(Seed(key), attempt))


@given(seeds, attempts)
def test_result_is_a_permutation_of_the_deck(seed: Seed, attempt: int) -> None:
    assert sorted(shuffled_indices(seed, attempt)) == list(range(40))
    deck = shuffled_deck(seed, attempt)
    assert all(any(card is singleton for singleton in DECK) for card in deck)
    assert len(set(deck)) == 40


@given(seeds, attempts)
def test_same_seed_same_order(seed: Seed, attempt: int) -> None:
    again = Seed.from_hex("0X" + seed.hex.upper())
    assert shuffled_deck(seed, attempt) == shuffled_deck(again, attempt)


@given(seeds, attempts, attempts)
def test_different_attempts_give_different_decks(seed: Seed, first: int, second: int) -> None:
    assume(first != second)
    assert shuffled_deck(seed, first) != shuffled_deck(seed, second)


@pytest.mark.parametrize("attempt", [-1, 2**32])
def test_attempt_out_of_range_is_refused(attempt: int) -> None:
    with pytest.raises(SeedError, match=f"attempt {attempt} out of range"):
        shuffled_deck(Seed(bytes(16)), attempt)


@given(st.binary(max_size=MIN_SEED_BYTES - 1))
def test_seed_below_128_bits_is_refused(raw: bytes) -> None:
    expected = re.escape(f"a seed needs at least 128 bits (32 hex digits); got {len(raw) * 8} "
                         "bits")
    with pytest.raises(SeedError, match=expected):
        Seed(raw)
    with pytest.raises(SeedError, match=expected):
        Seed.from_hex(raw.hex())


@pytest.mark.parametrize(("text", "bad"), [
    ("zz" * 16, "'z' at digit 1"), ("0123456789abcdef0123456789abcdeg", "'g' at digit 32"),
    ("seme-del-mazziere", "'s' at digit 1"), ("0x5eed-0000", "'-' at digit 5")])
def test_non_hex_seed_is_refused_naming_the_digit_and_what_is_expected(text: str,
                                                                       bad: str) -> None:
    with pytest.raises(SeedError) as error:
        Seed.from_hex(text)
    assert str(error.value) == (f"seed {text!r} is not hexadecimal ({bad}): expected an even "
                                "number of hex digits (0-9, a-f), at least 32 (128 bits)")


@pytest.mark.parametrize("text", ["0123456789abcdef0123456789abcdef0", "5eed5", "abc"])
def test_odd_length_seed_is_called_odd_length(text: str) -> None:
    with pytest.raises(SeedError) as error:
        Seed.from_hex(text)
    assert str(error.value) == (f"seed {text!r} has an odd number of hex digits ({len(text)}): "
                                "expected an even number of hex digits (0-9, a-f), at least 32 "
                                "(128 bits)")


def test_a_long_bad_seed_is_quoted_in_an_excerpt() -> None:
    text = "5eed" * 50 + "x"
    with pytest.raises(SeedError) as error:
        Seed.from_hex(text)
    assert f"seed {text[:40] + '…'!r} is not hexadecimal ('x' at digit 201)" in str(error.value)
    assert text[:41] not in str(error.value)


@given(seeds)
def test_check_commitment_accepts_the_seed_in_any_case(seed: Seed) -> None:
    check_commitment(seed, commitment(seed))
    check_commitment(seed, commitment(seed).upper())


@given(seeds, seeds)
def test_check_commitment_refuses_another_seed(seed: Seed, other: Seed) -> None:
    assume(seed != other)
    with pytest.raises(SeedError, match="does not match commitment"):
        check_commitment(other, commitment(seed))


def test_commitment_is_domain_separated_from_plain_sha256() -> None:
    seed = Seed(bytes(range(16)))
    assert commitment(seed) != hashlib.sha256(seed.value).hexdigest()


@given(seeds, st.binary(max_size=40))
def test_mixing_a_contribution_changes_the_deck(house: Seed, contribution: bytes) -> None:
    assert shuffled_deck(mix_seeds(house, [contribution])) != shuffled_deck(house)


@given(seeds, st.binary(max_size=40), st.binary(max_size=40))
def test_order_of_contributions_matters(house: Seed, first: bytes, second: bytes) -> None:
    assume(first != second)
    assert mix_seeds(house, [first, second]) != mix_seeds(house, [second, first])


@given(seeds, st.binary(min_size=1, max_size=20), st.binary(min_size=1, max_size=20))
def test_length_prefixes_keep_contributions_apart(house: Seed, first: bytes,
                                                  second: bytes) -> None:
    assert mix_seeds(house, [first, second]) != mix_seeds(house, [first + second])


@given(seeds)
def test_no_contributions_leave_the_house_seed(house: Seed) -> None:
    assert mix_seeds(house, []) == house
    assert mix_seeds(house, [b""]) != house


# ---- rejection sampling with a crafted keystream ---------------------------------------------

def _block(words: list[int]) -> bytes:
    return b"".join(w.to_bytes(4, "big") for w in words)


def test_words_at_or_above_the_limit_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw below 40: limit 2^32 - 16, so 0xffffffff and 0xfffffff0 are skipped, 5 is used.

    Draw below 39: limit 2^32 - 22; 2^32 - 23 is just below it, accepted, and is 38 mod 39.
    Every later word is 0, so every later step swaps with position 0. The crafted keystream
    replaces HMAC-SHA256 itself, block k for the message ending in BE64(k) (docs/shuffle.md, 5).
    """
    crafted = [0xFFFFFFFF, 0xFFFFFFF0, 5, 2**32 - 23] + [0] * 60
    tag = b"verbale/deal-v1\x00" + (0).to_bytes(4, "big")

    def fake_digest(key: bytes, msg: bytes, digest: str) -> bytes:
        assert (key, msg[:-8], digest) == (bytes(16), tag, "sha256")
        k = int.from_bytes(msg[-8:], "big")
        return _block(crafted[8 * k:8 * k + 8])

    def fake_blocks(key: bytes, prefix: bytes, first: int, count: int) -> bytes:
        """The shuffle's HMAC blocks (`_keyed_blocks`), each over fake_digest."""
        return b"".join(fake_digest(key, prefix + k.to_bytes(8, "big"), "sha256")
                        for k in range(first, first + count))

    monkeypatch.setattr(shuffle_module, "hmac", SimpleNamespace(digest=fake_digest))
    monkeypatch.setattr(shuffle_module, "_keyed_blocks", fake_blocks)
    expected = list(range(40))
    swaps = [(39, 5), (38, (2**32 - 23) % 39)] + [(i, 0) for i in range(37, 0, -1)]
    for i, j in swaps:
        expected[i], expected[j] = expected[j], expected[i]
    assert (2**32 - 23) % 39 == 38
    assert shuffled_indices(Seed(bytes(16))) == tuple(expected)


# ---- the deal vectors of section 10 ----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DealVector:
    name: str
    deck: int
    game: str
    players: int
    dealer: int
    options: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    table: tuple[str, ...]
    briscola: str | None
    stock: tuple[str, ...]
    next_hands: tuple[tuple[str, ...], ...]


def _cards(text: str) -> tuple[str, ...]:
    return () if text == "-" else tuple(text.split())


def _by_seat(text: str) -> tuple[tuple[str, ...], ...]:
    return () if text == "-" else tuple(tuple(part.split()) for part in text.split("/"))


def _deal_vector(block: str) -> DealVector:
    f = {key: values[0] for key, values in _fields(block).items()}
    deck = re.fullmatch(r"vector (\d+)", f["deck"])
    assert deck is not None, f"docs/shuffle.md: bad deal-vector deck {f['deck']!r}"
    return DealVector(
        name=f["vector"], deck=int(deck[1]), game=f["game"], players=int(f["players"]),
        dealer=int(f["dealer"]), options=_cards(f["options"]), hands=_by_seat(f["hands"]),
        table=_cards(f["table"]), briscola=None if f["briscola"] == "-" else f["briscola"],
        stock=_cards(f["stock"]), next_hands=_by_seat(f["next hands"]))


DEAL_VECTORS = [_deal_vector(block) for block in _fenced("deal-vector")]


def test_the_deal_vectors_cover_both_games_and_every_deal_option() -> None:
    assert {v.game for v in DEAL_VECTORS} == {"cirulla", "briscola"}
    assert {v.players for v in DEAL_VECTORS} == {2, 4}
    options = {option for v in DEAL_VECTORS for option in v.options}
    assert {"deal_order=alternata", "direction=clockwise", "deal_order=uno-alla-volta"} <= options


@pytest.mark.parametrize("v", DEAL_VECTORS, ids=[v.name for v in DEAL_VECTORS])
def test_deal_vector(v: DealVector) -> None:
    shuffle = next(s for s in VECTORS if s.number == v.deck)
    deck = shuffled_deck(Seed.from_hex(shuffle.effective), shuffle.attempt)
    assert tuple(c.code for c in deck) == shuffle.deck

    if v.game == "cirulla":
        ruleset = ruleset_from_options(v.options)
        seating = Seating(v.players, ruleset.direction)
        hands, table, stock = distribute(deck, ruleset, seating, v.dealer)
        later, _ = next_hands(stock, seating, v.dealer)
        assert tuple(codes(h) for h in later) == v.next_hands
        briscola = None
    else:
        assert not v.options and not v.next_hands
        dealt = deal_event(Seating(v.players), v.dealer, 0, Seed.from_hex(shuffle.effective))
        hands, table, stock = dealt.hands, dealt.table, dealt.stock
        briscola = None if dealt.briscola is None else dealt.briscola.code
    assert tuple(codes(h) for h in hands) == v.hands
    assert codes(table) == v.table and briscola == v.briscola and codes(stock) == v.stock


def codes(cards: tuple[Card, ...]) -> tuple[str, ...]:
    return tuple(c.code for c in cards)
