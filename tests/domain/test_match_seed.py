"""Per-smazzata seeds and the first dealer, derived from the match seed."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.match_seed import first_dealer, smazzata_seed
from domain.shuffle import Seed

seeds = st.binary(min_size=16, max_size=32).map(Seed)


@given(seeds, st.integers(0, 1000))
def test_smazzata_seed_follows_its_specification(seed: Seed, number: int) -> None:
    material = (b"verbale/smazzata-v1\x00" + len(seed.value).to_bytes(4, "big") + seed.value
                + number.to_bytes(4, "big"))
    assert smazzata_seed(seed, number).value == hashlib.sha256(material).digest()


@given(seeds, st.integers(0, 1000), st.integers(0, 1000))
def test_each_smazzata_of_a_match_has_its_own_seed(seed: Seed, a: int, b: int) -> None:
    assert (smazzata_seed(seed, a) == smazzata_seed(seed, b)) == (a == b)


def test_il_mazziere_viene_stabilito_casualmente_dal_sistema() -> None:
    """004/000: "Quando il gioco ha inizio, il mazziere viene stabilito casualmente dal
    sistema": drawn from the match seed, so every seat can be first dealer."""
    for players in (2, 4):
        drawn = {first_dealer(Seed(bytes([k]) * 16), players) for k in range(64)}
        assert drawn == set(range(players))


@given(seeds)
def test_first_dealer_is_the_first_hash_byte_modulo_the_players(seed: Seed) -> None:
    byte = hashlib.sha256(b"verbale/dealer-v1\x00" + seed.value).digest()[0]
    assert first_dealer(seed, 2) == byte % 2
    assert first_dealer(seed, 4) == byte % 4


def test_bad_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="smazzata number -1"):
        smazzata_seed(Seed(bytes(16)), -1)
    with pytest.raises(ValueError, match="2 or 4 players, not 3"):
        first_dealer(Seed(bytes(16)), 3)
