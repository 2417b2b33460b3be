"""The outside auditor: re-checks an export with only docs/events.md and docs/shuffle.md.

It imports nothing of verbale and nothing outside the standard library (an import-linter contract
in pyproject.toml keeps it so): every rule it applies is one the two documents state, written
again here from them. It is what `verbale audit FILE.jsonl` runs, and it shows that an auditor
without verbale's code can check a match. It checks

- `chain`: versions 1..n, each `previous_hash` and each `hash` (SHA-256 of the canonical JSON of
  the record without `hash`: every other key counts, `recorded_by` included);
- `seeds`: each revealed seed against its commitment, the order of commitments, contributions,
  deals and reveals;
- `match seed`: when a match seed is revealed, its commitment, the first dealer and every
  smazzata seed derived from it (docs/shuffle.md section 2);
- `deals`: every dealt attempt against the shuffle of its seed and the game's deal order
  (docs/shuffle.md sections 4-10), the redeals and the dealer of each smazzata; a transcribed deal
  (no seed) is noted as "shuffle unverifiable";
- `draws`: Cirulla's `HandDealt` and Briscola's `CardsDrawn` take the stock in order;
- `scores`: each `SmazzataEnded` has its game's breakdown and `scores` follow from it.

It does not replay the plays: that needs a rules engine (`verbale verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENESIS = "0" * 64
UNKNOWN = "??"
RECORD_KEYS = ("stream", "version", "type", "class_version", "timestamp", "previous_hash",
               "data", "hash")
CODES = [rank + suit for suit in "dcbs" for rank in "A234567FCR"]
CIRULLA_CATEGORIES = ("scope", "settebello", "primiera", "denari", "carte", "grande", "piccola",
                      "accusi")
BRISCOLA_CATEGORIES = ("punti", "prese", "carte")
BRISCOLA_OPTIONAL = ("vinco subito",)

OK, FAILED, SKIPPED = "OK", "FAILED", "SKIPPED"
CHECKS = ("chain", "seeds", "match seed", "deals", "draws", "scores")
GAMES = ("cirulla", "briscola")
SHOWN = 20
"""Problems printed per check; the JSON report lists every one."""


class UnreadableExport(ValueError):
    """Input that is not an export: names the file and, when it can, the line."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {message}")
        self.source, self.line, self.message = source, line, message


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the export: its number in the file (from 1) and its record."""

    number: int
    record: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.record["type"])

    @property
    def data(self) -> dict[str, Any]:
        data = self.record["data"]
        return data if isinstance(data, dict) else {}


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    status: str
    summary: str
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status != FAILED


@dataclass(frozen=True, slots=True)
class Report:
    source: str
    events: int
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def check(self, name: str) -> Check:
        return next(check for check in self.checks if check.name == name)

    def render(self) -> list[str]:
        """One line per check (name, OK/FAILED/SKIPPED, summary), its problems and notes
        indented below it, and a last line with the verdict."""
        lines = []
        for check in self.checks:
            lines.append(f"{check.name:<11} {check.status:<8} {check.summary}")
            lines.extend(f"    {problem}" for problem in check.problems[:SHOWN])
            if len(check.problems) > SHOWN:
                lines.append(f"    ... and {len(check.problems) - SHOWN} more (--json lists all)")
            lines.extend(f"    note: {note}" for note in check.notes)
        failed = [c.name for c in self.checks if not c.ok]
        verdict = "OK" if not failed else f"FAILED ({', '.join(failed)})"
        lines.append(f"{self.source}: {self.events} events, {verdict}")
        return lines

    def as_json(self) -> dict[str, Any]:
        return {"file": self.source, "events": self.events, "ok": self.ok,
                "checks": [{"name": c.name, "status": c.status, "summary": c.summary,
                            "problems": list(c.problems), "notes": list(c.notes)}
                           for c in self.checks]}


# ---- reading ----------------------------------------------------------------------------------

def read_export(texts: Iterable[str], source: str = "export") -> list[Line]:
    """The lines of an export, each a JSON object with the keys of a record; UnreadableExport
    naming the line otherwise."""
    lines = []
    for number, text in enumerate(texts, start=1):
        if not text.strip():
            raise UnreadableExport(source, number, "empty line (an export has one JSON object "
                                   "per line)")
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise UnreadableExport(source, number, f"not JSON: {error.msg} at column "
                                   f"{error.colno}") from None
        if not isinstance(record, dict):
            raise UnreadableExport(source, number, f"not a record: a JSON "
                                   f"{type(record).__name__}, not an object")
        missing = [key for key in RECORD_KEYS if key not in record]
        if missing:
            raise UnreadableExport(source, number, f"not a record: no {', '.join(missing)}")
        if not isinstance(record["version"], int) or not isinstance(record["type"], str) \
                or not isinstance(record["data"], dict):
            raise UnreadableExport(source, number, "not a record: `version` must be an integer, "
                                   "`type` a string and `data` an object")
        lines.append(Line(number, record))
    if not lines:
        raise UnreadableExport(source, None, "no events: the file is empty")
    return lines


def read_file(path: Path, source: str | None = None) -> list[Line]:
    name = source or str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise UnreadableExport(name, None, f"cannot read it: {error.strerror or error}") from None
    texts = []
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        try:
            texts.append(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            raise UnreadableExport(name, number, "not UTF-8") from None
    if texts and texts[-1] == "":
        texts.pop()   # the newline that ends the last line
    return read_export(texts, name)


def audit_lines(texts: Iterable[str], source: str = "export") -> Report:
    return audit(read_export(texts, source), source)


# ---- docs/shuffle.md, written again -----------------------------------------------------------

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
    step = _step(game, ruleset)
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


def _step(game: str, ruleset: dict[str, Any]) -> int:
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


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def _same(expected: Any, recorded: Any) -> bool:
    """Equal, where a card the record does not know (`??`) matches any card."""
    if isinstance(expected, list) and isinstance(recorded, list):
        return len(expected) == len(recorded) and all(map(_same, expected, recorded))
    return bool(expected == recorded or UNKNOWN in (expected, recorded))


def _seed_bytes(text: Any) -> bytes:
    if not isinstance(text, str):
        raise ValueError(f"seed {text!r} is not a hex string")
    raw = bytes.fromhex(text.strip().lower().removeprefix("0x"))
    if len(raw) < 16:
        raise ValueError(f"seed {text!r} has fewer than 128 bits")
    return raw


# ---- the checks -------------------------------------------------------------------------------

_MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError)


@dataclass
class _Findings:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def check(self, name: str, summary: str, skipped: bool = False) -> Check:
        status = FAILED if self.problems else (SKIPPED if skipped else OK)
        return Check(name, status, summary, tuple(self.problems), tuple(self.notes))

    def malformed(self, line: Line, error: Exception) -> None:
        self.problems.append(f"line {line.number}: {line.type} data not as docs/events.md says: "
                             f"{type(error).__name__} {error}")


def audit(lines: Sequence[Line], source: str = "export") -> Report:
    chain = check_chain(lines)
    first = lines[0]
    if first.type != "MatchCreated":
        why = f"line 1 is {first.type}, not MatchCreated: not a match"
        rest = [Check(name, SKIPPED, why) for name in CHECKS[1:]]
        return Report(source, len(lines), (chain, *rest))
    match = _Match(lines)
    if match.game not in GAMES or match.players not in (2, 4):
        why = (f"line 1: a {match.players}-player {match.game} match: docs/events.md describes "
               f"{' and '.join(GAMES)} at 2 or 4 players")
        rest = [Check(name, FAILED, "not a game these documents describe", (why,))
                for name in ("deals", "draws", "scores")]
        return Report(source, len(lines), (chain, match.seeds(), match.match_seed(), *rest))
    return Report(source, len(lines), (chain, match.seeds(), match.match_seed(), match.deals(),
                                       match.draws(), match.scores()))


def check_chain(lines: Sequence[Line]) -> Check:
    found = _Findings()
    previous = GENESIS
    stream = lines[0].record["stream"]
    for line in lines:
        record = dict(line.record)
        claimed = record.pop("hash")
        if record["version"] != line.number:
            found.problems.append(f"line {line.number}: version {record['version']}, expected "
                                  f"{line.number} (versions 1, 2, ... without gaps)")
        if record["stream"] != stream:
            found.problems.append(f"line {line.number}: stream {record['stream']}, not {stream}")
        if record["previous_hash"] != previous:
            found.problems.append(f"line {line.number}: previous_hash is not the hash of line "
                                  f"{line.number - 1}" if line.number > 1 else
                                  "line 1: previous_hash is not 64 zeros")
        if hashlib.sha256(canonical(record)).hexdigest() != claimed:
            found.problems.append(f"line {line.number}: hash does not match the line's content")
        previous = claimed
    return found.check("chain", f"{len(lines)} events of stream {stream}, head {previous}")


class _Match:
    """A match's export, indexed for the checks that follow the chain."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self.lines = lines
        self.created = lines[0].data
        self.game = str(self.created.get("game"))
        players = self.created.get("players")
        self.players = len(players) if isinstance(players, list) else 0
        ruleset = self.created.get("ruleset")
        self.ruleset: dict[str, Any] = ruleset if isinstance(ruleset, dict) else {}
        self.commitments: dict[int, tuple[Line, str]] = {}
        self.revealed: dict[int, tuple[Line, bytes]] = {}
        self.contributions: dict[int, dict[int, bytes]] = {}
        self.bad_seeds = _Findings()
        self._index_seeds()

    def of_type(self, *types: str) -> Iterator[Line]:
        return (line for line in self.lines if line.type in types)

    def _index_seeds(self) -> None:
        found = self.bad_seeds
        for line in self.of_type("SeedCommitted", "SeedRevealed", "SeedContributed"):
            data = line.data
            try:
                number = int(data["smazzata"])
                if line.type == "SeedCommitted":
                    if number in self.commitments:
                        found.problems.append(f"line {line.number}: smazzata {number} committed "
                                              "a second time")
                    self.commitments.setdefault(number, (line, str(data["commitment"]).lower()))
                elif line.type == "SeedRevealed":
                    if number in self.revealed:
                        found.problems.append(f"line {line.number}: smazzata {number} revealed "
                                              "a second time")
                    self.revealed.setdefault(number, (line, _seed_bytes(data["seed"])))
                else:
                    seat = int(data["seat"])
                    given = self.contributions.setdefault(number, {})
                    if seat in given or not 0 <= seat < self.players:
                        found.problems.append(f"line {line.number}: contribution of seat {seat} "
                                              f"to smazzata {number}: no such seat, or its second")
                    given.setdefault(seat, bytes.fromhex(str(data["contribution"])))
            except _MALFORMED as error:
                found.malformed(line, error)

    def _effective(self, number: int) -> bytes:
        given = self.contributions.get(number, {})
        return mix(self.revealed[number][1], [given[seat] for seat in sorted(given)])

    # -- seeds ----------------------------------------------------------------------------------

    def seeds(self) -> Check:
        found = self.bad_seeds
        first_deal: dict[int, Line] = {}
        for line in self.of_type("SmazzataDealt"):
            try:
                number = int(line.data["number"])
                first_deal.setdefault(number, line)
                promise = line.data["seed_commitment"]
                if promise is not None and promise != self.commitments.get(number, (0, None))[1]:
                    found.problems.append(f"line {line.number}: the deal's seed_commitment is not "
                                          f"the SeedCommitted of smazzata {number}")
            except _MALFORMED as error:
                found.malformed(line, error)
        for number, (line, _) in sorted(self.commitments.items()):
            dealt = first_deal.get(number)
            if dealt is not None and dealt.number < line.number:
                found.problems.append(f"line {line.number}: smazzata {number} committed after "
                                      f"its deal (line {dealt.number})")
        for line in self.of_type("SeedContributed"):
            key = line.data.get("smazzata")
            committed = self.commitments.get(key) if isinstance(key, int) else None
            dealt = first_deal.get(key) if isinstance(key, int) else None
            if committed is None or committed[0].number > line.number or (
                    dealt is not None and dealt.number < line.number):
                found.problems.append(f"line {line.number}: a contribution to smazzata {key} "
                                      "must come after its SeedCommitted and before its deal")
        for number, (line, seed) in sorted(self.revealed.items()):
            committed = self.commitments.get(number)
            if committed is None or committed[0].number > line.number:
                found.problems.append(f"line {line.number}: smazzata {number} revealed without "
                                      "an earlier SeedCommitted")
            elif not hmac.compare_digest(commit(seed), committed[1]):
                found.problems.append(f"line {line.number}: the seed of smazzata {number} does "
                                      f"not match its commitment (line {committed[0].number})")
            if not self._ended_before(number, line) and not self._ends_the_match(line):
                found.problems.append(f"line {line.number}: smazzata {number} revealed before "
                                      "its end")
        for number in sorted(set(self.commitments) - set(self.revealed)):
            found.notes.append(f"smazzata {number}: seed committed, not revealed yet")
        if not self.commitments and not self.revealed:
            return found.check("seeds", "no seed committed (a transcribed match?)", skipped=True)
        return found.check("seeds", f"{len(self.revealed)} of "
                           f"{_count(len(self.commitments), 'committed seed', 'committed seeds')} "
                           "revealed, each matching its commitment")

    def _ended_before(self, number: int, reveal: Line) -> bool:
        return any(line.number < reveal.number and line.data.get("number") == number
                   for line in self.of_type("SmazzataEnded"))

    def _ends_the_match(self, reveal: Line) -> bool:
        """The reveal is in the action that ends the match: a MatchEnded follows it with the same
        timestamp (docs/events.md section 3)."""
        at = reveal.record["timestamp"]
        return any(line.number > reveal.number and line.record["timestamp"] == at
                   for line in self.of_type("MatchEnded"))

    # -- match seed -----------------------------------------------------------------------------

    def match_seed(self) -> Check:
        found = _Findings()
        promise = self.created.get("match_seed_commitment")
        reveals = list(self.of_type("MatchSeedRevealed"))
        if not reveals:
            if promise is None:
                return found.check("match seed", "no match seed committed", skipped=True)
            found.notes.append("MatchCreated commits to a match seed; no MatchSeedRevealed yet")
            return found.check("match seed", "match seed committed, not revealed", skipped=True)
        line = reveals[0]
        for extra in reveals[1:]:
            found.problems.append(f"line {extra.number}: a second MatchSeedRevealed")
        try:
            seed = _seed_bytes(line.data["seed"])
        except _MALFORMED as error:
            found.malformed(line, error)
            return found.check("match seed", "the revealed match seed is unreadable")
        if promise is None:
            found.problems.append(f"line {line.number}: a match seed is revealed but MatchCreated "
                                  "commits to none")
        elif not hmac.compare_digest(commit(seed), str(promise).lower()):
            found.problems.append(f"line {line.number}: the match seed does not match "
                                  "MatchCreated.match_seed_commitment")
        if not any(ended.number < line.number for ended in self.of_type("MatchEnded")):
            found.problems.append(f"line {line.number}: the match seed is revealed before the "
                                  "match ended")
        if self.players in (2, 4) and self.created.get("first_dealer") != first_dealer(
                seed, self.players):
            found.problems.append(f"line 1: first_dealer {self.created.get('first_dealer')} is "
                                  f"not the one drawn from the match seed, "
                                  f"{first_dealer(seed, self.players)}")
        for number, (committed, value) in sorted(self.commitments.items()):
            if commit(smazzata_seed(seed, number)) != value:
                found.problems.append(f"line {committed.number}: the commitment of smazzata "
                                      f"{number} is not that of its seed from the match seed")
        for number, (revealed, known) in sorted(self.revealed.items()):
            if smazzata_seed(seed, number) != known:
                found.problems.append(f"line {revealed.number}: the seed of smazzata {number} is "
                                      "not the one derived from the match seed")
        return found.check("match seed", f"matches its commitment; the first dealer and "
                           f"{len(self.commitments)} smazzata seeds derive from it")

    # -- deals ----------------------------------------------------------------------------------

    def deals(self) -> Check:
        found = _Findings()
        verified = unverifiable = 0
        last: dict[int, tuple[int, Line]] = {}
        annulled = {(line.data.get("number"), line.data.get("attempt")): line
                    for line in self.of_type("DealAnnulled")}
        step = _step(self.game, self.ruleset)
        for line in self.of_type("SmazzataDealt"):
            data = line.data
            try:
                number, attempt, dealer = int(data["number"]), int(data["attempt"]), \
                    int(data["dealer"])
                where = f"line {line.number}: smazzata {number} attempt {attempt}"
                before = last.get(number)
                if attempt != (0 if before is None else before[0] + 1):
                    found.problems.append(f"{where}: attempts run 0, 1, 2, ... per smazzata")
                if before is not None and (number, before[0]) not in annulled:
                    found.problems.append(f"{where}: attempt {before[0]} was not annulled")
                last[number] = (attempt, line)
                if self.players in (2, 4) and isinstance(self.created.get("first_dealer"), int):
                    wanted = (self.created["first_dealer"] + step * number) % self.players
                    if dealer != wanted:
                        found.problems.append(f"{where}: dealer {dealer}, expected seat {wanted} "
                                              "(the dealer passes on in the direction of play)")
                self._check_redeal(found, where, data, (number, attempt) in annulled)
                if data["seed_commitment"] is None:
                    unverifiable += 1
                    found.notes.append(f"{where}: transcribed deal, shuffle unverifiable")
                    continue
                if number not in self.revealed:
                    found.notes.append(f"{where}: seed not revealed yet, deal not checked")
                    continue
                deck = shuffle(self._effective(number), attempt)
                wanted_deal = deal(self.game, self.players, dealer, self.ruleset, deck)
                wrong = [key for key, value in wanted_deal.items() if data[key] != value]
                if wrong:
                    found.problems.append(f"{where}: {', '.join(wrong)} do not follow from the "
                                          "revealed seed")
                verified += 1
            except _MALFORMED as error:
                found.malformed(line, error)
        for (which, tried), line in annulled.items():
            if not any(d.data.get("number") == which and d.data.get("attempt") == tried
                       and d.number < line.number for d in self.of_type("SmazzataDealt")):
                found.problems.append(f"line {line.number}: annuls smazzata {which} attempt "
                                      f"{tried}, which was not dealt before it")
        if not last and not found.problems:
            return found.check("deals", "no SmazzataDealt in the export", skipped=True)
        summary = f"{_count(verified, 'dealt attempt', 'dealt attempts')} re-derived from the seeds"
        if unverifiable:
            summary += f", {unverifiable} transcribed (shuffle unverifiable)"
        return found.check("deals", summary)

    def _check_redeal(self, found: _Findings, where: str, data: dict[str, Any],
                      was_annulled: bool) -> None:
        if self.game != "cirulla":
            if was_annulled:
                found.problems.append(f"{where}: Briscola has no redeal")
            return
        table = data["table"]
        if UNKNOWN in table:
            return
        reason = redeal_reason(self.ruleset, table)
        if was_annulled and reason is None:
            found.problems.append(f"{where}: annulled, but redeal={self.ruleset.get('redeal')} "
                                  f"does not annul the table {' '.join(table)}")
        elif reason is not None and not was_annulled:
            found.problems.append(f"{where}: {reason}, the deal should have been annulled "
                                  f"(redeal={self.ruleset.get('redeal')})")

    # -- draws from the stock ------------------------------------------------------------------

    def draws(self) -> Check:
        found = _Findings()
        pile: list[str] = []
        seats: list[int] = []
        winner: int | None = None
        count = 0
        step = _step(self.game, self.ruleset)
        for line in self.lines:
            data = line.data
            try:
                if line.type == "SmazzataDealt":
                    pile = list(data["stock"]) + ([data["briscola"]] if self.game == "briscola"
                                                  else [])
                    seats = seats_from(int(data["dealer"]) + step, self.players, step)
                    winner = None
                elif line.type == "TrickTaken":
                    winner = int(data["seat"])
                elif line.type == "HandDealt":
                    n = self.players
                    wanted: list[list[str]] = [[] for _ in range(n)]
                    for position, card in enumerate(pile[:3 * n]):
                        wanted[seats[position % n]].append(card)
                    pile = pile[3 * n:]
                    if not _same(wanted, data["hands"]):
                        found.problems.append(f"line {line.number}: HandDealt is not the next "
                                              f"{3 * n} stock cards dealt from the dealer's side")
                    count += 1
                elif line.type == "CardsDrawn":
                    if winner is None:
                        found.problems.append(f"line {line.number}: CardsDrawn before any "
                                              "TrickTaken of the smazzata")
                        continue
                    order = seats_from(winner, self.players, 1)
                    wanted_draws = [[seat, card] for seat, card in zip(order, pile, strict=False)]
                    pile = pile[self.players:]
                    if not _same(wanted_draws, data["draws"]):
                        found.problems.append(f"line {line.number}: CardsDrawn is not the next "
                                              "stock cards, the trick winner first")
                    count += 1
            except _MALFORMED as error:
                found.malformed(line, error)
        what = "HandDealt" if self.game == "cirulla" else "CardsDrawn"
        if count == 0 and not found.problems:
            return found.check("draws", f"no {what} in the export", skipped=True)
        return found.check("draws", f"{count} {what} {'takes' if count == 1 else 'take'} the "
                           "stock in order")

    # -- scores ---------------------------------------------------------------------------------

    def scores(self) -> Check:
        found = _Findings()
        count = 0
        for line in self.of_type("SmazzataEnded"):
            try:
                rows = [(str(name), int(a), int(b)) for name, a, b in line.data["breakdown"]]
                names = tuple(name for name, _, _ in rows)
                scores = [int(s) for s in line.data["scores"]]
                if self.game == "cirulla":
                    wanted = [sum(r[1] for r in rows), sum(r[2] for r in rows)]
                    if names != CIRULLA_CATEGORIES:
                        found.problems.append(f"line {line.number}: categories {names}, expected "
                                              f"{CIRULLA_CATEGORIES}")
                else:
                    wanted = [rows[0][1], rows[0][2]] if rows else []
                    if names[:3] != BRISCOLA_CATEGORIES or not set(names[3:]) <= set(
                            BRISCOLA_OPTIONAL):
                        found.problems.append(f"line {line.number}: categories {names}, expected "
                                              f"{BRISCOLA_CATEGORIES} then perhaps "
                                              f"{BRISCOLA_OPTIONAL}")
                if scores != wanted:
                    found.problems.append(f"line {line.number}: scores {scores}, but the "
                                          f"breakdown gives {wanted}")
                count += 1
            except _MALFORMED as error:
                found.malformed(line, error)
        if count == 0 and not found.problems:
            return found.check("scores", "no SmazzataEnded in the export", skipped=True)
        rule = ("the sums of the breakdown" if self.game == "cirulla"
                else "the card points (the `punti` row)")
        return found.check("scores", f"{_count(count, 'SmazzataEnded', 'SmazzataEnded')}: "
                           f"scores are {rule}")
