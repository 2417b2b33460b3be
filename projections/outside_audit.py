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
- `scores`: each `SmazzataEnded` has its game's breakdown and `scores` follow from it; each
  `ScoreClaimed` names an ended smazzata and some of its categories (a claimed score that
  differs from the breakdown is a note: the paper disagrees, the record is not wrong for it).
- `rulings`: each `RulingRecorded` is signed (docs/events.md: class_version 2, a `signature`
  with a key id of 64 and a signature of 128 hex digits); a ruling nobody signed fails, but for
  one a transcribed match's importer read from the paper (a note). Given the exports of the
  arbiters' keys streams (`verbale audit --keys`), each signature is verified as well: by a key
  of the ruling's arbiter valid at its moment, over the ruling, the match and the head it
  extends, with Ed25519 written again here from RFC 8032 (verification only).
  The other types (`TagsTranscribed`, ...) take part in the chain only.

It does not replay the plays: that needs a rules engine (`verbale verify`).

Its words are English, kept as a `Message`: a template with `{name}` placeholders and its
parameters, so that `verbale --lang it audit` can show them from verbale's catalogue
(replay_web/cli_audit.py, docs/i18n.md) while this module imports none of it. Every template is
wrapped in `N_` (it returns it as it is), the keyword Babel extracts it by.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
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


def N_(template: str) -> str:
    """Marks a message template for extraction (the Babel keyword `N_`); returns it unchanged."""
    return template


OK, FAILED, SKIPPED = N_("OK"), N_("FAILED"), N_("SKIPPED")
CHECKS = (N_("chain"), N_("seeds"), N_("match seed"), N_("deals"), N_("draws"), N_("scores"),
          N_("rulings"))
GAMES = ("cirulla", "briscola")
SHOWN = 20
"""Problems printed per check; the JSON report lists every one."""
NOTE = N_("note: {note}")


Lookup = Callable[[str], str]
"""A template in the reader's language, from its English (a catalogue's `gettext`)."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message of the report: its English template (`{name}` placeholders) and parameters.
    A parameter that is a `Message` is shown, and translated, with it; any other (a line number,
    a card code, a hash) as it is."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lookup: Lookup | None = None) -> str:
        """The message filled in: in English, or with each template looked up by `lookup` (a
        translation that breaks a placeholder gives the English)."""
        params = {name: value.text(lookup) if isinstance(value, Message) else value
                  for name, value in self.params.items()}
        if lookup is not None:
            try:
                return lookup(self.template).format(**params)
            except (KeyError, IndexError, ValueError):
                pass
        return self.template.format(**params)

    def __str__(self) -> str:
        return self.text()


def _say(template: str, /, **params: Any) -> Message:
    return Message(template, params)


class UnreadableExport(ValueError):
    """Input that is not an export: names the file and, when it can, the line."""

    def __init__(self, source: str, line: int | None, reason: Message) -> None:
        self.source, self.line, self.reason = source, line, reason
        self.message = reason.text()
        super().__init__(self.explain())

    def explain(self, lookup: Lookup | None = None) -> str:
        """`FILE:LINE: reason` (or `FILE: reason`), the reason looked up by `lookup`."""
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.reason.text(lookup)}"


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
    """A check's name (one of CHECKS), status (OK, FAILED, SKIPPED), summary, problems and
    notes; `summary`, `problems` and `notes` are their English texts."""

    name: str
    status: str
    summary_message: Message
    problem_messages: tuple[Message, ...] = ()
    note_messages: tuple[Message, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status != FAILED

    @property
    def summary(self) -> str:
        return self.summary_message.text()

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(problem.text() for problem in self.problem_messages)

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(note.text() for note in self.note_messages)


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

    def render(self, lookup: Lookup | None = None) -> list[str]:
        """One line per check (name, OK/FAILED/SKIPPED, summary), its problems and notes
        indented below it, and a last line with the verdict: in English, or with every template
        looked up by `lookup` (the names and statuses too, their columns as wide as they need)."""
        def word(text: str) -> str:
            return text if lookup is None else lookup(text)

        names = max(len(word(name)) for name in CHECKS) + 1
        statuses = max(len(word(status)) for status in (OK, FAILED, SKIPPED)) + 1
        lines = []
        for check in self.checks:
            lines.append(f"{word(check.name):<{names}} {word(check.status):<{statuses}} "
                         f"{check.summary_message.text(lookup)}")
            lines.extend(f"    {problem.text(lookup)}"
                         for problem in check.problem_messages[:SHOWN])
            if len(check.problem_messages) > SHOWN:
                more = _say(N_("... and {count} more (--json lists all)"),
                            count=len(check.problem_messages) - SHOWN)
                lines.append(f"    {more.text(lookup)}")
            for note in check.note_messages:
                lines.append(f"    {_say(NOTE, note=note).text(lookup)}")
        failed = [word(c.name) for c in self.checks if not c.ok]
        verdict = (_say(N_("{source}: {events} events, OK"), source=self.source,
                        events=self.events) if not failed else
                   _say(N_("{source}: {events} events, FAILED ({checks})"), source=self.source,
                        events=self.events, checks=", ".join(failed)))
        lines.append(verdict.text(lookup))
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
            raise UnreadableExport(source, number, _say(N_(
                "empty line (an export has one JSON object per line)")))
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise UnreadableExport(source, number, _say(N_(
                "not JSON: {error} at column {column}"), error=error.msg,
                column=error.colno)) from None
        if not isinstance(record, dict):
            raise UnreadableExport(source, number, _say(N_(
                "not a record: a JSON {kind}, not an object"), kind=type(record).__name__))
        missing = [key for key in RECORD_KEYS if key not in record]
        if missing:
            raise UnreadableExport(source, number, _say(N_("not a record: no {keys}"),
                                                        keys=", ".join(missing)))
        if not isinstance(record["version"], int) or not isinstance(record["type"], str) \
                or not isinstance(record["data"], dict):
            raise UnreadableExport(source, number, _say(N_(
                "not a record: `version` must be an integer, `type` a string and `data` an "
                "object")))
        lines.append(Line(number, record))
    if not lines:
        raise UnreadableExport(source, None, _say(N_("no events: the file is empty")))
    return lines


def read_file(path: Path, source: str | None = None) -> list[Line]:
    name = source or str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise UnreadableExport(name, None, _say(N_("cannot read it: {reason}"),
                                                reason=error.strerror or error)) from None
    texts = []
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        try:
            texts.append(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            raise UnreadableExport(name, number, _say(N_("not UTF-8"))) from None
    if texts and texts[-1] == "":
        texts.pop()   # the newline that ends the last line
    return read_export(texts, name)


def audit_lines(texts: Iterable[str], source: str = "export",
                keys: Iterable[Iterable[str]] = ()) -> Report:
    return audit(read_export(texts, source), source,
                 [read_export(k, f"keys {n}") for n, k in enumerate(keys, start=1)])


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
    problems: list[Message] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)

    def problem(self, template: str, /, **params: Any) -> None:
        self.problems.append(Message(template, params))

    def note(self, template: str, /, **params: Any) -> None:
        self.notes.append(Message(template, params))

    def check(self, name: str, summary: Message, skipped: bool = False) -> Check:
        status = FAILED if self.problems else (SKIPPED if skipped else OK)
        return Check(name, status, summary, tuple(self.problems), tuple(self.notes))

    def malformed(self, line: Line, error: Exception) -> None:
        self.problem(N_("line {line}: {type} data not as docs/events.md says: {error_type} "
                        "{error}"), line=line.number, type=line.type,
                     error_type=type(error).__name__, error=error)


def audit(lines: Sequence[Line], source: str = "export",
          keys: Sequence[Sequence[Line]] = ()) -> Report:
    """The report on a match's export; `keys`, the exports of arbiters' keys streams, let the
    `rulings` check verify each ruling's signature too."""
    chain = check_chain(lines)
    first = lines[0]
    if first.type != "MatchCreated":
        why = _say(N_("line 1 is {type}, not MatchCreated: not a match"), type=first.type)
        rest = [Check(name, SKIPPED, why) for name in CHECKS[1:]]
        return Report(source, len(lines), (chain, *rest))
    match = _Match(lines)
    if match.game not in GAMES or match.players not in (2, 4):
        why = _say(N_("line 1: a {players}-player {game} match: docs/events.md describes "
                      "cirulla and briscola at 2 or 4 players"), players=match.players,
                   game=match.game)
        rest = [Check(name, FAILED, _say(N_("not a game these documents describe")), (why,))
                for name in ("deals", "draws", "scores")]
        return Report(source, len(lines), (chain, match.seeds(), match.match_seed(), *rest,
                                           check_rulings(lines, keys)))
    return Report(source, len(lines), (chain, match.seeds(), match.match_seed(), match.deals(),
                                       match.draws(), match.scores(), check_rulings(lines, keys)))


def check_chain(lines: Sequence[Line]) -> Check:
    found = _Findings()
    previous = GENESIS
    stream = lines[0].record["stream"]
    for line in lines:
        record = dict(line.record)
        claimed = record.pop("hash")
        if record["version"] != line.number:
            found.problem(N_("line {line}: version {version}, expected {line} (versions 1, 2, "
                             "... without gaps)"), line=line.number, version=record["version"])
        if record["stream"] != stream:
            found.problem(N_("line {line}: stream {stream}, not {expected}"), line=line.number,
                          stream=record["stream"], expected=stream)
        if record["previous_hash"] != previous:
            if line.number > 1:
                found.problem(N_("line {line}: previous_hash is not the hash of line "
                                 "{previous}"), line=line.number, previous=line.number - 1)
            else:
                found.problem(N_("line 1: previous_hash is not 64 zeros"))
        if hashlib.sha256(canonical(record)).hexdigest() != claimed:
            found.problem(N_("line {line}: hash does not match the line's content"),
                          line=line.number)
        previous = claimed
    return found.check("chain", _say(N_("{events} events of stream {stream}, head {head}"),
                                     events=len(lines), stream=stream, head=previous))


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
                        found.problem(N_("line {line}: smazzata {smazzata} committed a second "
                                         "time"), line=line.number, smazzata=number)
                    self.commitments.setdefault(number, (line, str(data["commitment"]).lower()))
                elif line.type == "SeedRevealed":
                    if number in self.revealed:
                        found.problem(N_("line {line}: smazzata {smazzata} revealed a second "
                                         "time"), line=line.number, smazzata=number)
                    self.revealed.setdefault(number, (line, _seed_bytes(data["seed"])))
                else:
                    seat = int(data["seat"])
                    given = self.contributions.setdefault(number, {})
                    if seat in given or not 0 <= seat < self.players:
                        found.problem(N_("line {line}: contribution of seat {seat} to "
                                         "smazzata {smazzata}: no such seat, or its second"),
                                      line=line.number, seat=seat, smazzata=number)
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
                    found.problem(N_("line {line}: the deal's seed_commitment is not the "
                                     "SeedCommitted of smazzata {smazzata}"), line=line.number,
                                  smazzata=number)
            except _MALFORMED as error:
                found.malformed(line, error)
        for number, (line, _) in sorted(self.commitments.items()):
            dealt = first_deal.get(number)
            if dealt is not None and dealt.number < line.number:
                found.problem(N_("line {line}: smazzata {smazzata} committed after its deal "
                                 "(line {deal})"), line=line.number, smazzata=number,
                              deal=dealt.number)
        for line in self.of_type("SeedContributed"):
            key = line.data.get("smazzata")
            committed = self.commitments.get(key) if isinstance(key, int) else None
            dealt = first_deal.get(key) if isinstance(key, int) else None
            if committed is None or committed[0].number > line.number or (
                    dealt is not None and dealt.number < line.number):
                found.problem(N_("line {line}: a contribution to smazzata {smazzata} must "
                                 "come after its SeedCommitted and before its deal"),
                              line=line.number, smazzata=key)
        for number, (line, seed) in sorted(self.revealed.items()):
            committed = self.commitments.get(number)
            if committed is None or committed[0].number > line.number:
                found.problem(N_("line {line}: smazzata {smazzata} revealed without an "
                                 "earlier SeedCommitted"), line=line.number, smazzata=number)
            elif not hmac.compare_digest(commit(seed), committed[1]):
                found.problem(N_("line {line}: the seed of smazzata {smazzata} does not match "
                                 "its commitment (line {commitment})"), line=line.number,
                              smazzata=number, commitment=committed[0].number)
            if not self._ended_before(number, line) and not self._ends_the_match(line):
                found.problem(N_("line {line}: smazzata {smazzata} revealed before its end"),
                              line=line.number, smazzata=number)
        for number in sorted(set(self.commitments) - set(self.revealed)):
            found.note(N_("smazzata {smazzata}: seed committed, not revealed yet"),
                       smazzata=number)
        if not self.commitments and not self.revealed:
            return found.check("seeds", _say(N_("no seed committed (a transcribed match?)")),
                               skipped=True)
        summary = (N_("{revealed} of {committed} committed seed revealed, each matching its "
                      "commitment") if len(self.commitments) == 1 else
                   N_("{revealed} of {committed} committed seeds revealed, each matching its "
                      "commitment"))
        return found.check("seeds", _say(summary, revealed=len(self.revealed),
                                         committed=len(self.commitments)))

    def _ended_before(self, number: int, reveal: Line) -> bool:
        return any(line.number < reveal.number and line.data.get("number") == number
                   for line in self.of_type("SmazzataEnded"))

    def _ends_the_match(self, reveal: Line) -> bool:
        """The reveal is in the action that ends the match: a MatchEnded follows it with the same
        timestamp (docs/events.md section 3)."""
        at = reveal.record["timestamp"]
        return any(line.number > reveal.number and line.record["timestamp"] == at
                   for line in self.of_type("MatchEnded"))

    def _over_at(self, line: Line) -> bool:
        """The match is over before `line`: a MatchEnded before it, and no MatchResumed (a
        ruling that put the match back in play) between that and it."""
        ended = [e.number for e in self.of_type("MatchEnded") if e.number < line.number]
        resumed = [e.number for e in self.of_type("MatchResumed") if e.number < line.number]
        return bool(ended) and max(ended) > max(resumed, default=0)

    # -- match seed -----------------------------------------------------------------------------

    def match_seed(self) -> Check:
        found = _Findings()
        promise = self.created.get("match_seed_commitment")
        reveals = list(self.of_type("MatchSeedRevealed"))
        if not reveals:
            if promise is None:
                return found.check("match seed", _say(N_("no match seed committed")),
                                   skipped=True)
            found.note(N_("MatchCreated commits to a match seed; no MatchSeedRevealed yet"))
            return found.check("match seed", _say(N_("match seed committed, not revealed")),
                               skipped=True)
        line = reveals[0]
        for extra in reveals[1:]:
            found.problem(N_("line {line}: a second MatchSeedRevealed"), line=extra.number)
        try:
            seed = _seed_bytes(line.data["seed"])
        except _MALFORMED as error:
            found.malformed(line, error)
            return found.check("match seed", _say(N_("the revealed match seed is unreadable")))
        if promise is None:
            found.problem(N_("line {line}: a match seed is revealed but MatchCreated commits to "
                             "none"), line=line.number)
        elif not hmac.compare_digest(commit(seed), str(promise).lower()):
            found.problem(N_("line {line}: the match seed does not match "
                             "MatchCreated.match_seed_commitment"), line=line.number)
        if not self._over_at(line):
            found.problem(N_("line {line}: the match seed is revealed before the match ended"),
                          line=line.number)
        if self.players in (2, 4) and self.created.get("first_dealer") != first_dealer(
                seed, self.players):
            found.problem(N_("line 1: first_dealer {recorded} is not the one drawn from the "
                             "match seed, {drawn}"), recorded=self.created.get("first_dealer"),
                          drawn=first_dealer(seed, self.players))
        # A smazzata committed after the reveal (the match resumed by a ruling, MatchResumed)
        # is dealt from a fresh seed: the match seed gives only those before it.
        for number, (committed, value) in sorted(self.commitments.items()):
            if committed.number < line.number and commit(smazzata_seed(seed, number)) != value:
                found.problem(N_("line {line}: the commitment of smazzata {smazzata} is not that "
                                 "of its seed from the match seed"), line=committed.number,
                              smazzata=number)
        for number, (revealed, known) in sorted(self.revealed.items()):
            if revealed.number < line.number and smazzata_seed(seed, number) != known:
                found.problem(N_("line {line}: the seed of smazzata {smazzata} is not the one "
                                 "derived from the match seed"), line=revealed.number,
                              smazzata=number)
        return found.check("match seed", _say(N_("matches its commitment; the first dealer and "
                                                 "{count} smazzata seeds derive from it"),
                                              count=sum(committed.number < line.number for
                                                        committed, _ in
                                                        self.commitments.values())))

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
                where = _say(N_("line {line}: smazzata {smazzata} attempt {attempt}"),
                             line=line.number, smazzata=number, attempt=attempt)
                before = last.get(number)
                if attempt != (0 if before is None else before[0] + 1):
                    found.problem(N_("{where}: attempts run 0, 1, 2, ... per smazzata"),
                                  where=where)
                if before is not None and (number, before[0]) not in annulled:
                    found.problem(N_("{where}: attempt {previous} was not annulled"),
                                  where=where, previous=before[0])
                last[number] = (attempt, line)
                if self.players in (2, 4) and isinstance(self.created.get("first_dealer"), int):
                    wanted = (self.created["first_dealer"] + step * number) % self.players
                    if dealer != wanted:
                        found.problem(N_("{where}: dealer {dealer}, expected seat {seat} (the "
                                         "dealer passes on in the direction of play)"),
                                      where=where, dealer=dealer, seat=wanted)
                self._check_redeal(found, where, data, (number, attempt) in annulled)
                if data["seed_commitment"] is None:
                    unverifiable += 1
                    found.note(N_("{where}: transcribed deal, shuffle unverifiable"),
                               where=where)
                    continue
                if number not in self.revealed:
                    found.note(N_("{where}: seed not revealed yet, deal not checked"),
                               where=where)
                    continue
                deck = shuffle(self._effective(number), attempt)
                wanted_deal = deal(self.game, self.players, dealer, self.ruleset, deck)
                wrong = [key for key, value in wanted_deal.items() if data[key] != value]
                if wrong:
                    found.problem(N_("{where}: {keys} do not follow from the revealed seed"),
                                  where=where, keys=", ".join(wrong))
                verified += 1
            except _MALFORMED as error:
                found.malformed(line, error)
        for (which, tried), line in annulled.items():
            if not any(d.data.get("number") == which and d.data.get("attempt") == tried
                       and d.number < line.number for d in self.of_type("SmazzataDealt")):
                found.problem(N_("line {line}: annuls smazzata {smazzata} attempt {attempt}, "
                                 "which was not dealt before it"), line=line.number,
                              smazzata=which, attempt=tried)
        if not last and not found.problems:
            return found.check("deals", _say(N_("no SmazzataDealt in the export")),
                               skipped=True)
        if unverifiable:
            summary = (N_("{count} dealt attempt re-derived from the seeds, {transcribed} "
                          "transcribed (shuffle unverifiable)") if verified == 1 else
                       N_("{count} dealt attempts re-derived from the seeds, {transcribed} "
                          "transcribed (shuffle unverifiable)"))
        else:
            summary = (N_("{count} dealt attempt re-derived from the seeds") if verified == 1
                       else N_("{count} dealt attempts re-derived from the seeds"))
        return found.check("deals", _say(summary, count=verified, transcribed=unverifiable))

    def _check_redeal(self, found: _Findings, where: Message, data: dict[str, Any],
                      was_annulled: bool) -> None:
        if self.game != "cirulla":
            if was_annulled:
                found.problem(N_("{where}: Briscola has no redeal"), where=where)
            return
        table = data["table"]
        if UNKNOWN in table:
            return
        reason = redeal_reason(self.ruleset, table)
        if was_annulled and reason is None:
            found.problem(N_("{where}: annulled, but redeal={redeal} does not annul the table "
                             "{table}"), where=where, redeal=self.ruleset.get("redeal"),
                          table=" ".join(table))
        elif reason is not None and not was_annulled:
            found.problem(N_("{where}: {reason}, the deal should have been annulled "
                             "(redeal={redeal})"), where=where, reason=reason,
                          redeal=self.ruleset.get("redeal"))

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
                        found.problem(N_("line {line}: HandDealt is not the next {count} "
                                         "stock cards dealt from the dealer's side"),
                                      line=line.number, count=3 * n)
                    count += 1
                elif line.type == "CardsDrawn":
                    if winner is None:
                        found.problem(N_("line {line}: CardsDrawn before any TrickTaken of "
                                         "the smazzata"), line=line.number)
                        continue
                    order = seats_from(winner, self.players, 1)
                    wanted_draws = [[seat, card] for seat, card in zip(order, pile, strict=False)]
                    pile = pile[self.players:]
                    if not _same(wanted_draws, data["draws"]):
                        found.problem(N_("line {line}: CardsDrawn is not the next stock "
                                         "cards, the trick winner first"), line=line.number)
                    count += 1
            except _MALFORMED as error:
                found.malformed(line, error)
        what = "HandDealt" if self.game == "cirulla" else "CardsDrawn"
        if count == 0 and not found.problems:
            return found.check("draws", _say(N_("no {event} in the export"), event=what),
                               skipped=True)
        summary = (N_("{count} {event} takes the stock in order") if count == 1 else
                   N_("{count} {event} take the stock in order"))
        return found.check("draws", _say(summary, count=count, event=what))

    # -- scores ---------------------------------------------------------------------------------

    def scores(self) -> Check:
        found = _Findings()
        count = 0
        ended: dict[int, tuple[int, list[tuple[str, int, int]]]] = {}
        for line in self.of_type("SmazzataEnded"):
            try:
                rows = [(str(name), int(a), int(b)) for name, a, b in line.data["breakdown"]]
                ended.setdefault(int(line.data["number"]), (line.number, rows))
                names = tuple(name for name, _, _ in rows)
                scores = [int(s) for s in line.data["scores"]]
                if self.game == "cirulla":
                    wanted = [sum(r[1] for r in rows), sum(r[2] for r in rows)]
                    if names != CIRULLA_CATEGORIES:
                        found.problem(N_("line {line}: categories {names}, expected "
                                         "{expected}"), line=line.number, names=names,
                                      expected=CIRULLA_CATEGORIES)
                else:
                    wanted = [rows[0][1], rows[0][2]] if rows else []
                    if names[:3] != BRISCOLA_CATEGORIES or not set(names[3:]) <= set(
                            BRISCOLA_OPTIONAL):
                        found.problem(N_("line {line}: categories {names}, expected "
                                         "{expected} then perhaps {optional}"),
                                      line=line.number, names=names,
                                      expected=BRISCOLA_CATEGORIES, optional=BRISCOLA_OPTIONAL)
                if scores != wanted:
                    found.problem(N_("line {line}: scores {scores}, but the breakdown gives "
                                     "{expected}"), line=line.number, scores=scores,
                                  expected=wanted)
                count += 1
            except _MALFORMED as error:
                found.malformed(line, error)
        self._claims(found, ended)
        if count == 0 and not found.problems:
            return found.check("scores", _say(N_("no SmazzataEnded in the export")),
                               skipped=True)
        summary = (N_("{count} SmazzataEnded: scores are the sums of the breakdown")
                   if self.game == "cirulla" else
                   N_("{count} SmazzataEnded: scores are the card points (the `punti` row)"))
        return found.check("scores", _say(summary, count=count))

    def _claims(self, found: _Findings,
                ended: Mapping[int, tuple[int, list[tuple[str, int, int]]]]) -> None:
        """Each `ScoreClaimed` (section 4) names an ended smazzata and some of its categories,
        once each; a claimed score that differs from the breakdown is a note (the paper
        disagrees with the record, the record is not wrong for it)."""
        for line in self.of_type("ScoreClaimed"):
            try:
                number = int(line.data["smazzata"])
                where, rows = ended.get(number, (None, []))
                if where is None or where > line.number:
                    found.problem(N_("line {line}: a score claimed for smazzata {smazzata}, "
                                     "which has not ended before it"), line=line.number,
                                  smazzata=number + 1)
                    continue
                computed = {name: (a, b) for name, a, b in rows}
                claimed = [(str(name), int(a), int(b)) for name, a, b in line.data["rows"]]
                names = [name for name, _, _ in claimed]
                if not claimed or len(set(names)) != len(names) or not set(names) <= set(
                        computed) or any(a < 0 or b < 0 for _, a, b in claimed):
                    found.problem(N_("line {line}: claimed categories {names}: each once, "
                                     "among {expected}, never negative"), line=line.number,
                                  names=tuple(names), expected=tuple(computed))
                    continue
                for name, a, b in claimed:
                    if (a, b) != computed[name]:
                        found.note(N_("line {line}: smazzata {smazzata}: claimed {category} "
                                      "{claimed}, computed {computed} (claimed by {who})"),
                                   line=line.number, smazzata=number + 1, category=name,
                                   claimed=f"{a}–{b}", computed="–".join(
                                       str(v) for v in computed[name]),
                                   who=line.data["claimed_by"])
            except _MALFORMED as error:
                found.malformed(line, error)


# ---- rulings ----------------------------------------------------------------------------------

def _hex(text: Any, digits: int) -> bool:
    return isinstance(text, str) and len(text) == digits and all(
        c in "0123456789abcdef" for c in text)


def check_rulings(lines: Sequence[Line], keys: Sequence[Sequence[Line]] = ()) -> Check:
    """Each `RulingRecorded` carries its arbiter's signature (docs/events.md, RulingRecorded):
    a key id and an Ed25519 signature of the right shape. Unsigned: a failure, but for a
    ruling of a transcribed match written by its importer (the paper is signed: a note). With
    the exports of the arbiters' keys streams (`keys`), each signature is verified too: by a
    key of its arbiter's, valid at the ruling's moment, over the ruling, the match and the head
    it extends."""
    found = _Findings()
    created = lines[0].data if lines else {}
    provenance = created.get("provenance") if isinstance(created, dict) else None
    transcribed = isinstance(provenance, dict) and provenance.get("kind") == "transcribed"
    keyring = _keyring(keys, found)
    count = signed = 0
    for line in lines:
        if line.type != "RulingRecorded":
            continue
        count += 1
        try:
            signature = line.data.get("signature")
            by = line.record.get("recorded_by")
            if signature is None and transcribed and isinstance(by, dict) \
                    and by.get("kind") == "importer":
                found.note(N_("line {line}: a transcribed ruling of arbiter {arbiter}: signed "
                              "on the paper it was read from, not in the record"),
                           line=line.number, arbiter=line.data["arbiter"])
            elif signature is None:
                found.problem(N_("line {line}: nobody signed this ruling of arbiter {arbiter}"),
                              line=line.number, arbiter=line.data["arbiter"])
            elif not (_hex(signature["key"], 64) and _hex(signature["value"], 128)):
                found.problem(N_("line {line}: the signature is not a key id of 64 and a "
                                 "signature of 128 lowercase hex digits"), line=line.number)
            elif keys and not _signed_by(line, keyring, found):
                pass
            else:
                signed += 1
        except _MALFORMED as error:
            found.malformed(line, error)
    if count == 0:
        return found.check("rulings", _say(N_("no RulingRecorded in the export")), skipped=True)
    if keys:
        return found.check("rulings", _say(N_("{signed} of {count} rulings signed by a key of "
                                              "their arbiter, the signatures verified"),
                                           signed=signed, count=count))
    return found.check("rulings", _say(N_("{signed} of {count} rulings signed (whose key signed "
                                          "them: verbale verify, with the arbiters' keys)"),
                                       signed=signed, count=count))


# A key: (arbiter, raw public key, registered at, revoked at or None); timestamps as written
# (the record's fixed-width UTC form sorts as text).
_Key = tuple[str, bytes, str, str | None]


def _keyring(exports: Sequence[Sequence[Line]], found: _Findings) -> dict[str, _Key]:
    """The keys registered and revoked in the exports of arbiters' keys streams (each checked
    as a chain first: a broken one gives no keys)."""
    keys: dict[str, _Key] = {}
    for lines in exports:
        if not lines or check_chain(lines).status != OK:
            found.problem(N_("a keys export whose chain does not hold: its keys are not used"))
            continue
        for line in lines:
            try:
                data, at = line.data, str(line.record["timestamp"])
                if line.type == "ArbiterKeyRegistered":
                    public = bytes.fromhex(data["public_key"])
                    if hashlib.sha256(public).hexdigest() == data["key"]:
                        keys[data["key"]] = (str(data["arbiter"]), public, at, None)
                elif line.type == "ArbiterKeyRevoked" and data["key"] in keys:
                    arbiter, public, since, _ = keys[data["key"]]
                    keys[data["key"]] = (arbiter, public, since, at)
            except _MALFORMED as error:
                found.malformed(line, error)
    return keys


def _signed_by(line: Line, keyring: Mapping[str, _Key], found: _Findings) -> bool:
    """The ruling on `line` is signed by a key of its arbiter's, valid at its moment, over
    what docs/events.md says is signed; else a problem is noted."""
    data, record = line.data, line.record
    signature = data["signature"]
    key = keyring.get(signature["key"])
    at = str(record["timestamp"])
    if key is None or key[0] != data["arbiter"] or at < key[2] or (
            key[3] is not None and at >= key[3]):
        found.problem(N_("line {line}: key {key} is not a key of arbiter {arbiter} at the "
                         "ruling's moment (in the keys exports given)"), line=line.number,
                      key=str(signature["key"])[:16], arbiter=data["arbiter"])
        return False
    ruling = {k: v for k, v in data.items() if k != "signature"}
    message = canonical({"head": record["previous_hash"], "match": record["stream"],
                         "purpose": "verbale/ruling-v1", "ruling": ruling})
    if not ed25519_verify(key[1], message, bytes.fromhex(signature["value"])):
        found.problem(N_("line {line}: the signature is not arbiter {arbiter}'s of this ruling "
                         "after this head in this match"), line=line.number,
                      arbiter=data["arbiter"])
        return False
    return True


# ---- Ed25519 (RFC 8032 section 5.1), verification only, written again from the RFC ----------

_P = 2 ** 255 - 19
_L = 2 ** 252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
Edwards = tuple[int, int, int, int]   # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z


def _edwards_sum(one: Edwards, two: Edwards) -> Edwards:
    """RFC 8032 5.1.4, the addition in extended coordinates (also a doubling)."""
    x1, y1, z1, t1 = one
    x2, y2, z2, t2 = two
    a, b = (y1 - x1) * (y2 - x2) % _P, (y1 + x1) * (y2 + x2) % _P
    c, d = 2 * _D * t1 * t2 % _P, 2 * z1 * z2 % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % _P, g * h % _P, f * g % _P, e * h % _P


def _edwards_times(scalar: int, point: Edwards) -> Edwards:
    """[scalar]point, the bits of the scalar read from the highest down."""
    total: Edwards = (0, 1, 1, 0)   # the neutral element
    for bit in format(scalar, "b"):
        total = _edwards_sum(total, total)
        total = _edwards_sum(total, point) if bit == "1" else total
    return total


def _edwards_decoded(encoded: bytes) -> Edwards | None:
    """RFC 8032 5.1.3: the point of 32 bytes (y, and the sign of x in the top bit), or None."""
    if len(encoded) != 32:
        return None
    number = int.from_bytes(encoded, "little")
    y, sign = number & (2 ** 255 - 1), number >> 255
    if y >= _P:
        return None
    square = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(square, (_P + 3) // 8, _P)
    if (x * x - square) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - square) % _P or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = _P - x
    return x, y, 1, x * y % _P


_BASE = _edwards_decoded((4 * pow(5, _P - 2, _P) % _P).to_bytes(32, "little"))


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether `signature` (64 bytes) is the Ed25519 signature of `message` by `public`
    (32 bytes): [S]B = R + [k]A, k = SHA-512(R || A || message) mod L (RFC 8032 5.1.7)."""
    if len(signature) != 64 or _BASE is None:
        return False
    point_a, point_r = _edwards_decoded(public), _edwards_decoded(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if point_a is None or point_r is None or s >= _L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little")
    left = _edwards_times(s, _BASE)
    right = _edwards_sum(point_r, _edwards_times(k % _L, point_a))
    return (left[0] * right[2] - right[0] * left[2]) % _P == 0 and (
        left[1] * right[2] - right[1] * left[2]) % _P == 0
