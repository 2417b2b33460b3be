"""The outside auditor's docs/shuffle.md, written again (projections/auditor/shuffle.py), agrees
with the document's own vectors: commitments, mixing, the shuffle, the deal and the match seed's
derivations."""

from __future__ import annotations

from typing import Any

import pytest

import projections.auditor.shuffle as outside
from tests.domain.test_match_seed import MATCH_SEED_VECTORS
from tests.domain.test_shuffle import DEAL_VECTORS, VECTORS


@pytest.mark.parametrize("v", VECTORS, ids=[f"vector{v.number}" for v in VECTORS])
def test_the_auditor_s_shuffle_agrees_with_the_document_s_vectors(v: Any) -> None:
    house = bytes.fromhex(v.seed)
    assert outside.commit(house) == v.commitment
    effective = outside.mix(house, v.contribution_bytes)
    assert effective.hex() == v.effective
    assert tuple(outside.shuffle(effective, v.attempt)) == v.deck


@pytest.mark.parametrize("v", DEAL_VECTORS, ids=[v.name for v in DEAL_VECTORS])
def test_the_auditor_s_deal_agrees_with_the_document_s_deal_vectors(v: Any) -> None:
    deck = next(s.deck for s in VECTORS if s.number == v.deck)
    ruleset = dict(option.split("=") for option in v.options)
    dealt = outside.deal(v.game, v.players, v.dealer, ruleset, deck)
    assert [tuple(h) for h in dealt["hands"]] == list(v.hands)
    assert (tuple(dealt["table"]), dealt["briscola"], tuple(dealt["stock"])) == (
        v.table, v.briscola, v.stock)


@pytest.mark.parametrize("v", MATCH_SEED_VECTORS, ids=[v.name for v in MATCH_SEED_VECTORS])
def test_the_auditor_s_match_seed_agrees_with_the_document_s_vectors(v: Any) -> None:
    seed = bytes.fromhex(v.match_seed)
    assert outside.commit(seed) == v.commitment
    assert {n: outside.first_dealer(seed, n) for n in (2, 4)} == v.first_dealer
    for number, (smazzata, promise) in v.smazzate.items():
        assert outside.smazzata_seed(seed, number).hex() == smazzata
        assert outside.commit(outside.smazzata_seed(seed, number)) == promise
