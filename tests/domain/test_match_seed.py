"""Per-smazzata seeds and the first dealer, derived from the match seed."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.match_seed import first_dealer, smazzata_seed
from domain.shuffle import Seed, commitment

DOC_TEXT = (Path(__file__).resolve().parents[2] / "docs" / "shuffle.md").read_text(encoding="utf-8")

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


# ---- the vectors of docs/shuffle.md, section 2 -----------------------------------------------

@dataclass(frozen=True, slots=True)
class MatchSeedVector:
    name: str
    match_seed: str
    commitment: str
    dealer_digest: str
    first_dealer: dict[int, int]
    smazzate: dict[int, tuple[str, str]]
    """smazzata number -> (its seed, its commitment)."""


def _match_seed_vector(block: str) -> MatchSeedVector:
    fields: dict[str, list[str]] = {}
    key = ""
    for line in block.splitlines():
        head, sep, rest = line.partition(":")
        if sep and not line.startswith(" "):
            key = head.strip()
            fields[key] = rest.split()
        else:
            fields[key] += line.split()
    dealers = re.fullmatch(r"2 players (\d), 4 players (\d)", " ".join(fields["first dealer"]))
    assert dealers is not None, f"docs/shuffle.md: bad first dealer in {block!r}"
    smazzate = {int(k.removeprefix("smazzata ")): (v[0], v[1]) for k, v in fields.items()
                if k.startswith("smazzata ") and len(v) == 2}
    assert len(smazzate) == sum(k.startswith("smazzata ") for k in fields)
    return MatchSeedVector(
        name=fields["vector"][0], match_seed=fields["match seed"][0],
        commitment=fields["commitment"][0], dealer_digest=fields["dealer digest"][0],
        first_dealer={2: int(dealers[1]), 4: int(dealers[2])}, smazzate=smazzate)


MATCH_SEED_VECTORS = [_match_seed_vector(block) for block in
                      re.findall(r"^```match-seed-vector\n(.*?)^```", DOC_TEXT, flags=re.S | re.M)]
by_match_seed_vector = pytest.mark.parametrize("v", MATCH_SEED_VECTORS,
                                               ids=[v.name for v in MATCH_SEED_VECTORS])


def test_the_document_has_match_seed_vectors_for_both_parities_of_the_first_dealer() -> None:
    assert len(MATCH_SEED_VECTORS) >= 3
    assert {v.first_dealer[2] for v in MATCH_SEED_VECTORS} == {0, 1}
    assert any(2**32 - 1 in v.smazzate for v in MATCH_SEED_VECTORS)


@by_match_seed_vector
def test_match_seed_vector(v: MatchSeedVector) -> None:
    seed = Seed.from_hex(v.match_seed)
    assert commitment(seed) == v.commitment
    digest = hashlib.sha256(b"verbale/dealer-v1\x00" + seed.value).hexdigest()
    assert digest == v.dealer_digest
    for players, dealer in v.first_dealer.items():
        assert first_dealer(seed, players) == dealer == bytes.fromhex(digest)[0] % players
    for number, (smazzata, promise) in v.smazzate.items():
        assert smazzata_seed(seed, number).hex == smazzata
        assert commitment(smazzata_seed(seed, number)) == promise


def test_the_tag_table_lists_the_section_2_tags_with_their_bytes() -> None:
    for tag in (b"verbale/smazzata-v1\x00", b"verbale/dealer-v1\x00"):
        name = tag[:-1].decode("ascii")
        assert re.search(rf"`{name}` `00` \| `{tag.hex()}` \|", DOC_TEXT), name
