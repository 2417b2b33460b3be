"""docs/shuffle.md, written again: seed commitments, the players' contributions mixed in, the
shuffle of a seed's attempt, the smazzata seeds and first dealer a match seed gives, the deal of
a shuffled deck by game, and the redeal rule of Cirulla's table."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import Any

UNKNOWN = "??"
"""A card the record does not know (a transcribed deal)."""
CODES = [rank + suit for suit in "dcbs" for rank in "A234567FCR"]


def commit(seed: bytes) -> str:
    return hashlib.sha256(b"verbale/commit-v1\x00" + seed).hexdigest()


def mix(house: bytes, contributions: Sequence[bytes]) -> bytes:
    if not contributions:
        return house
    material = b"verbale/mix-v1\x00"
    for part in (house, *contributions):
        material += len(part).to_bytes(4, "big") + part
    return hashlib.sha256(material).digest()


def _words(seed: bytes, attempt: int) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.digest(seed, b"verbale/deal-v1\x00" + attempt.to_bytes(4, "big")
                            + counter.to_bytes(8, "big"), "sha256")
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset:offset + 4], "big")
        counter += 1


def shuffle(seed: bytes, attempt: int) -> list[str]:
    """The 40 card codes from the top of the deck (position 0) down."""
    order = list(range(40))
    stream = _words(seed, attempt)
    for i in range(39, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        word = next(stream)
        while word >= limit:
            word = next(stream)
        j = word % (i + 1)
        order[i], order[j] = order[j], order[i]
    return [CODES[k] for k in order]


def smazzata_seed(match_seed: bytes, number: int) -> bytes:
    return hashlib.sha256(b"verbale/smazzata-v1\x00" + len(match_seed).to_bytes(4, "big")
                          + match_seed + number.to_bytes(4, "big")).digest()


def first_dealer(match_seed: bytes, players: int) -> int:
    return hashlib.sha256(b"verbale/dealer-v1\x00" + match_seed).digest()[0] % players


def seats_from(first: int, players: int, step: int) -> list[int]:
    return [(first + step * k) % players for k in range(players)]


def deal(game: str, players: int, dealer: int, ruleset: dict[str, Any],
         deck: Sequence[str]) -> dict[str, Any]:
    """docs/shuffle.md section 10: hands by seat, table, briscola and stock of a shuffled deck."""
    step = play_step(game, ruleset)
    order = seats_from(dealer + step, players, step)
    hands: list[list[str]] = [[] for _ in range(players)]
    n = players
    if game == "cirulla" and ruleset.get("deal_order") == "alternata":
        table = [deck[r * (n + 1)] for r in range(3)] + [deck[3 * n + 3]]
        for r in range(3):
            for k, seat in enumerate(order):
                hands[seat].append(deck[r * (n + 1) + 1 + k])
    else:
        for position in range(3 * n):
            hands[order[position % n]].append(deck[position])
        table = list(deck[3 * n:3 * n + 4]) if game == "cirulla" else []
    if game == "briscola":
        return {"hands": hands, "table": [], "briscola": deck[3 * n],
                "stock": list(deck[3 * n + 1:])}
    return {"hands": hands, "table": table, "briscola": None, "stock": list(deck[3 * n + 4:])}


def play_step(game: str, ruleset: dict[str, Any]) -> int:
    """The way the deal and the turn go round the seats: 1, or -1 at a Cirulla table that plays
    clockwise."""
    return -1 if game == "cirulla" and ruleset.get("direction") == "clockwise" else 1


def redeal_reason(ruleset: dict[str, Any], table: Sequence[str]) -> str | None:
    rule = ruleset.get("redeal", "due-assi")
    aces = sum(card[0] == "A" for card in table)
    kings = sum(card[0] == "R" for card in table)
    if rule == "due-assi" and aces >= 2:
        return f"{aces} assi in tavola"
    if rule == "tre-re" and kings >= 3:
        return f"{kings} re in tavola"
    return None


def seed_bytes(text: Any) -> bytes:
    if not isinstance(text, str):
        raise ValueError(f"seed {text!r} is not a hex string")
    raw = bytes.fromhex(text.strip().lower().removeprefix("0x"))
    if len(raw) < 16:
        raise ValueError(f"seed {text!r} has fewer than 128 bits")
    return raw
