"""Seeds of a match: one shuffle seed per smazzata and the first dealer, from the match seed.

Every smazzata gets its own seed so that any one of them can be re-derived and audited without
replaying the others: SHA-256("verbale/smazzata-v1" 0x00 || 4-byte length || match seed ||
smazzata number as 4 bytes big-endian). The first dealer ("il mazziere viene stabilito
casualmente dal sistema", 004 and 000) is the first byte of
SHA-256("verbale/dealer-v1" 0x00 || match seed) modulo the number of players: 256 is a multiple
of 2 and 4, so there is no modulo bias.
"""

from __future__ import annotations

import hashlib

from domain.shuffle import Seed
from domain.text import say

_SMAZZATA_TAG = b"verbale/smazzata-v1\x00"
_DEALER_TAG = b"verbale/dealer-v1\x00"


def smazzata_seed(match_seed: Seed, number: int) -> Seed:
    """The shuffle seed of smazzata `number` (0-based) of the match."""
    if not 0 <= number < 2**32:
        raise ValueError(say("smazzata number {number} out of range 0..2^32-1", number=number))
    material = (_SMAZZATA_TAG + len(match_seed.value).to_bytes(4, "big") + match_seed.value
                + number.to_bytes(4, "big"))
    return Seed(hashlib.sha256(material).digest())


def first_dealer(match_seed: Seed, players: int) -> int:
    """The dealer of the first smazzata, drawn from the match seed."""
    if players not in (2, 4):
        raise ValueError(say("a table has 2 or 4 players, not {players}", players=players))
    return hashlib.sha256(_DEALER_TAG + match_seed.value).digest()[0] % players
