"""A match's export indexed for the checks that follow the chain (`Match`), and the two checks of
its seeds: `seeds` (each revealed seed against its commitment, the order of commitments,
contributions, deals and reveals) and `match seed` (when a match seed is revealed: its
commitment, the first dealer and every smazzata seed derived from it, docs/shuffle.md
section 2)."""

from __future__ import annotations

import hmac
from collections.abc import Iterator, Sequence
from typing import Any

from .report import MALFORMED, N_, Check, Findings, Line, say
from .shuffle import commit, first_dealer, mix, seed_bytes, smazzata_seed


class Match:
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
        self.bad_seeds = Findings()
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
                    self.revealed.setdefault(number, (line, seed_bytes(data["seed"])))
                else:
                    seat = int(data["seat"])
                    given = self.contributions.setdefault(number, {})
                    if seat in given or not 0 <= seat < self.players:
                        found.problem(N_("line {line}: contribution of seat {seat} to "
                                         "smazzata {smazzata}: no such seat, or its second"),
                                      line=line.number, seat=seat, smazzata=number)
                    given.setdefault(seat, bytes.fromhex(str(data["contribution"])))
            except MALFORMED as error:
                found.malformed(line, error)

    def effective(self, number: int) -> bytes:
        given = self.contributions.get(number, {})
        return mix(self.revealed[number][1], [given[seat] for seat in sorted(given)])

    def ended_before(self, number: int, reveal: Line) -> bool:
        return any(line.number < reveal.number and line.data.get("number") == number
                   for line in self.of_type("SmazzataEnded"))

    def ends_the_match(self, reveal: Line) -> bool:
        """The reveal is in the action that ends the match: a MatchEnded follows it with the same
        timestamp (docs/events.md section 3)."""
        at = reveal.record["timestamp"]
        return any(line.number > reveal.number and line.record["timestamp"] == at
                   for line in self.of_type("MatchEnded"))

    def over_at(self, line: Line) -> bool:
        """The match is over before `line`: a MatchEnded before it, and no MatchResumed (a
        ruling that put the match back in play) between that and it."""
        ended = [e.number for e in self.of_type("MatchEnded") if e.number < line.number]
        resumed = [e.number for e in self.of_type("MatchResumed") if e.number < line.number]
        return bool(ended) and max(ended) > max(resumed, default=0)


def check_seeds(match: Match) -> Check:
    """The `seeds` check."""
    found = match.bad_seeds
    first_deal = _deals_against_commitments(match, found)
    for line in match.of_type("SeedContributed"):
        key = line.data.get("smazzata")
        committed = match.commitments.get(key) if isinstance(key, int) else None
        dealt = first_deal.get(key) if isinstance(key, int) else None
        if committed is None or committed[0].number > line.number or (
                dealt is not None and dealt.number < line.number):
            found.problem(N_("line {line}: a contribution to smazzata {smazzata} must "
                             "come after its SeedCommitted and before its deal"),
                          line=line.number, smazzata=key)
    _reveals_against_commitments(match, found)
    if not match.commitments and not match.revealed:
        return found.check("seeds", say(N_("no seed committed (a transcribed match?)")),
                           skipped=True)
    summary = (N_("{revealed} of {committed} committed seed revealed, each matching its "
                  "commitment") if len(match.commitments) == 1 else
               N_("{revealed} of {committed} committed seeds revealed, each matching its "
                  "commitment"))
    return found.check("seeds", say(summary, revealed=len(match.revealed),
                                    committed=len(match.commitments)))


def _deals_against_commitments(match: Match, found: Findings) -> dict[int, Line]:
    """Each deal names its smazzata's commitment, made before the smazzata's first deal; the
    first deal of each smazzata."""
    first_deal: dict[int, Line] = {}
    for line in match.of_type("SmazzataDealt"):
        try:
            number = int(line.data["number"])
            first_deal.setdefault(number, line)
            promise = line.data["seed_commitment"]
            if promise is not None and promise != match.commitments.get(number, (0, None))[1]:
                found.problem(N_("line {line}: the deal's seed_commitment is not the "
                                 "SeedCommitted of smazzata {smazzata}"), line=line.number,
                              smazzata=number)
        except MALFORMED as error:
            found.malformed(line, error)
    for number, (line, _) in sorted(match.commitments.items()):
        dealt = first_deal.get(number)
        if dealt is not None and dealt.number < line.number:
            found.problem(N_("line {line}: smazzata {smazzata} committed after its deal "
                             "(line {deal})"), line=line.number, smazzata=number,
                          deal=dealt.number)
    return first_deal


def _reveals_against_commitments(match: Match, found: Findings) -> None:
    """Each revealed seed gives its earlier commitment and comes after its smazzata's end (or
    with the match's); a committed seed not revealed yet is a note."""
    for number, (line, seed) in sorted(match.revealed.items()):
        committed = match.commitments.get(number)
        if committed is None or committed[0].number > line.number:
            found.problem(N_("line {line}: smazzata {smazzata} revealed without an "
                             "earlier SeedCommitted"), line=line.number, smazzata=number)
        elif not hmac.compare_digest(commit(seed), committed[1]):
            found.problem(N_("line {line}: the seed of smazzata {smazzata} does not match "
                             "its commitment (line {commitment})"), line=line.number,
                          smazzata=number, commitment=committed[0].number)
        if not match.ended_before(number, line) and not match.ends_the_match(line):
            found.problem(N_("line {line}: smazzata {smazzata} revealed before its end"),
                          line=line.number, smazzata=number)
    for number in sorted(set(match.commitments) - set(match.revealed)):
        found.note(N_("smazzata {smazzata}: seed committed, not revealed yet"),
                   smazzata=number)


def check_match_seed(match: Match) -> Check:
    """The `match seed` check."""
    found = Findings()
    promise = match.created.get("match_seed_commitment")
    reveals = list(match.of_type("MatchSeedRevealed"))
    if not reveals:
        if promise is None:
            return found.check("match seed", say(N_("no match seed committed")),
                               skipped=True)
        found.note(N_("MatchCreated commits to a match seed; no MatchSeedRevealed yet"))
        return found.check("match seed", say(N_("match seed committed, not revealed")),
                           skipped=True)
    line = reveals[0]
    for extra in reveals[1:]:
        found.problem(N_("line {line}: a second MatchSeedRevealed"), line=extra.number)
    try:
        seed = seed_bytes(line.data["seed"])
    except MALFORMED as error:
        found.malformed(line, error)
        return found.check("match seed", say(N_("the revealed match seed is unreadable")))
    if promise is None:
        found.problem(N_("line {line}: a match seed is revealed but MatchCreated commits to "
                         "none"), line=line.number)
    elif not hmac.compare_digest(commit(seed), str(promise).lower()):
        found.problem(N_("line {line}: the match seed does not match "
                         "MatchCreated.match_seed_commitment"), line=line.number)
    if not match.over_at(line):
        found.problem(N_("line {line}: the match seed is revealed before the match ended"),
                      line=line.number)
    if match.players in (2, 4) and match.created.get("first_dealer") != first_dealer(
            seed, match.players):
        found.problem(N_("line 1: first_dealer {recorded} is not the one drawn from the "
                         "match seed, {drawn}"), recorded=match.created.get("first_dealer"),
                      drawn=first_dealer(seed, match.players))
    _smazzata_seeds_derived(match, found, line, seed)
    derived = sum(committed.number < line.number for committed, _ in match.commitments.values())
    return found.check("match seed", say(N_("matches its commitment; the first dealer and "
                                            "{count} smazzata seeds derive from it"),
                                         count=derived))


def _smazzata_seeds_derived(match: Match, found: Findings, line: Line, seed: bytes) -> None:
    """Each smazzata committed before the match seed's reveal (`line`) is dealt from the seed
    the match seed gives it; one committed after it (the match resumed by a ruling,
    MatchResumed) from a fresh seed."""
    for number, (committed, value) in sorted(match.commitments.items()):
        if committed.number < line.number and commit(smazzata_seed(seed, number)) != value:
            found.problem(N_("line {line}: the commitment of smazzata {smazzata} is not that "
                             "of its seed from the match seed"), line=committed.number,
                          smazzata=number)
    for number, (revealed, known) in sorted(match.revealed.items()):
        if revealed.number < line.number and smazzata_seed(seed, number) != known:
            found.problem(N_("line {line}: the seed of smazzata {smazzata} is not the one "
                             "derived from the match seed"), line=revealed.number,
                          smazzata=number)
