"""An auditor that has only an export, docs/events.md and docs/shuffle.md: no verbale import.

It checks the hash chain, each revealed seed against its commitment, and each deal against the
shuffle of its seed for the standard deal (3 cards each, one at a time, counterclockwise from the
dealer's right; then Cirulla's 4 table cards, or Briscola's face-up briscola; the rest is the
stock, top first).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator

RANKS = "A234567FCR"
SUITS = "dcbs"
DECK = [rank + suit for suit in SUITS for rank in RANKS]


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def check_chain(lines: list[str]) -> list[str]:
    problems = []
    previous = "0" * 64
    for number, line in enumerate(lines, start=1):
        record = json.loads(line)
        claimed = record.pop("hash")
        if record["version"] != number:
            problems.append(f"line {number}: version {record['version']}")
        if record["previous_hash"] != previous:
            problems.append(f"event {number}: chain broken")
        if hashlib.sha256(canonical(record)).hexdigest() != claimed:
            problems.append(f"event {number}: hash")
        previous = claimed
    return problems


def words(seed: bytes, attempt: int) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.digest(seed, b"verbale/deal-v1\x00" + attempt.to_bytes(4, "big")
                            + counter.to_bytes(8, "big"), "sha256")
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset:offset + 4], "big")
        counter += 1


def shuffled(seed: bytes, attempt: int) -> list[str]:
    order = list(range(40))
    stream = words(seed, attempt)
    for i in range(39, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        word = next(stream)
        while word >= limit:
            word = next(stream)
        j = word % bound
        order[i], order[j] = order[j], order[i]
    return [DECK[k] for k in order]


def expected_deal(game: str, players: int, dealer: int, deck: list[str]) -> dict[str, object]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for served in range(3 * players):
        hands[(dealer + 1 + served % players) % players].append(deck[served])
    rest = deck[3 * players:]
    if game == "briscola":
        return {"hands": hands, "table": [], "briscola": rest[0], "stock": rest[1:]}
    return {"hands": hands, "table": rest[:4], "briscola": None, "stock": rest[4:]}


def check_seeds_and_deals(lines: list[str]) -> tuple[list[str], int]:
    records = [json.loads(line) for line in lines]
    created = records[0]["data"]
    commitments = {r["data"]["smazzata"]: r["data"]["commitment"] for r in records
                   if r["type"] == "SeedCommitted"}
    seeds = {r["data"]["smazzata"]: bytes.fromhex(r["data"]["seed"]) for r in records
             if r["type"] == "SeedRevealed"}
    problems, deals = [], 0
    for number, seed in seeds.items():
        digest = hashlib.sha256(b"verbale/commit-v1\x00" + seed).hexdigest()
        if digest != commitments.get(number):
            problems.append(f"smazzata {number}: seed does not match its commitment")
    for record in records:
        if record["type"] != "SmazzataDealt" or record["data"]["number"] not in seeds:
            continue
        data = record["data"]
        deck = shuffled(seeds[data["number"]], data["attempt"])
        wanted = expected_deal(created["game"], len(created["players"]), data["dealer"], deck)
        if any(data[key] != value for key, value in wanted.items()):
            problems.append(f"event {record['version']}: deal does not follow from the seed")
        deals += 1
    return problems, deals
