"""The `deals` check (every dealt attempt against the shuffle of its seed and the game's deal
order, docs/shuffle.md sections 4-10, the redeals and the dealer of each smazzata; a transcribed
deal, with no seed, is noted as "shuffle unverifiable") and the `draws` check (Cirulla's
`HandDealt` and Briscola's `CardsDrawn` take the stock in order)."""

from __future__ import annotations

from typing import Any

from .match import Match
from .report import MALFORMED, N_, Check, Findings, Line, Message, say
from .shuffle import UNKNOWN, deal, play_step, redeal_reason, seats_from, shuffle


def check_deals(match: Match) -> Check:
    """The `deals` check."""
    found = Findings()
    shuffled: list[str] = []
    last: dict[int, tuple[int, Line]] = {}
    annulled = {(line.data.get("number"), line.data.get("attempt")): line
                for line in match.of_type("DealAnnulled")}
    for line in match.of_type("SmazzataDealt"):
        try:
            shuffled.append(_check_attempt(match, found, line, last, annulled))
        except MALFORMED as error:
            found.malformed(line, error)
    _check_annulled(match, found, annulled)
    if not last and not found.problems:
        return found.check("deals", say(N_("no SmazzataDealt in the export")),
                           skipped=True)
    return found.check("deals", _deals_summary(shuffled.count(VERIFIED),
                                               shuffled.count(TRANSCRIBED)))


VERIFIED, TRANSCRIBED, WAITING = "verified", "transcribed", "waiting"
"""What became of a dealt attempt's shuffle: checked, unverifiable, or its seed not revealed."""


def _check_attempt(match: Match, found: Findings, line: Line,
                   last: dict[int, tuple[int, Line]],
                   annulled: dict[tuple[Any, Any], Line]) -> str:
    """One SmazzataDealt: its attempt's number, its dealer, its redeal and its shuffle."""
    data = line.data
    number, attempt, dealer = int(data["number"]), int(data["attempt"]), int(data["dealer"])
    where = say(N_("line {line}: smazzata {smazzata} attempt {attempt}"),
                line=line.number, smazzata=number, attempt=attempt)
    before = last.get(number)
    if attempt != (0 if before is None else before[0] + 1):
        found.problem(N_("{where}: attempts run 0, 1, 2, ... per smazzata"), where=where)
    if before is not None and (number, before[0]) not in annulled:
        found.problem(N_("{where}: attempt {previous} was not annulled"),
                      where=where, previous=before[0])
    last[number] = (attempt, line)
    if match.players in (2, 4) and isinstance(match.created.get("first_dealer"), int):
        direction = play_step(match.game, match.ruleset)
        wanted = (match.created["first_dealer"] + direction * number) % match.players
        if dealer != wanted:
            found.problem(N_("{where}: dealer {dealer}, expected seat {seat} (the "
                             "dealer passes on in the direction of play)"),
                          where=where, dealer=dealer, seat=wanted)
    _check_redeal(match, found, where, data, (number, attempt) in annulled)
    if data["seed_commitment"] is None:
        found.note(N_("{where}: transcribed deal, shuffle unverifiable"), where=where)
        return TRANSCRIBED
    if number not in match.revealed:
        found.note(N_("{where}: seed not revealed yet, deal not checked"), where=where)
        return WAITING
    deck = shuffle(match.effective(number), attempt)
    wanted_deal = deal(match.game, match.players, dealer, match.ruleset, deck)
    wrong = [key for key, value in wanted_deal.items() if data[key] != value]
    if wrong:
        found.problem(N_("{where}: {keys} do not follow from the revealed seed"),
                      where=where, keys=", ".join(wrong))
    return VERIFIED


def _check_annulled(match: Match, found: Findings,
                    annulled: dict[tuple[Any, Any], Line]) -> None:
    """Each DealAnnulled annuls an attempt dealt before it."""
    for (which, tried), line in annulled.items():
        if not any(d.data.get("number") == which and d.data.get("attempt") == tried
                   and d.number < line.number for d in match.of_type("SmazzataDealt")):
            found.problem(N_("line {line}: annuls smazzata {smazzata} attempt {attempt}, "
                             "which was not dealt before it"), line=line.number,
                          smazzata=which, attempt=tried)


def _deals_summary(verified: int, unverifiable: int) -> Message:
    if unverifiable:
        summary = (N_("{count} dealt attempt re-derived from the seeds, {transcribed} "
                      "transcribed (shuffle unverifiable)") if verified == 1 else
                   N_("{count} dealt attempts re-derived from the seeds, {transcribed} "
                      "transcribed (shuffle unverifiable)"))
    else:
        summary = (N_("{count} dealt attempt re-derived from the seeds") if verified == 1
                   else N_("{count} dealt attempts re-derived from the seeds"))
    return say(summary, count=verified, transcribed=unverifiable)


def _check_redeal(match: Match, found: Findings, where: Message, data: dict[str, Any],
                  was_annulled: bool) -> None:
    if match.game != "cirulla":
        if was_annulled:
            found.problem(N_("{where}: Briscola has no redeal"), where=where)
        return
    table = data["table"]
    if UNKNOWN in table:
        return
    reason = redeal_reason(match.ruleset, table)
    if was_annulled and reason is None:
        found.problem(N_("{where}: annulled, but redeal={redeal} does not annul the table "
                         "{table}"), where=where, redeal=match.ruleset.get("redeal"),
                      table=" ".join(table))
    elif reason is not None and not was_annulled:
        found.problem(N_("{where}: {reason}, the deal should have been annulled "
                         "(redeal={redeal})"), where=where, reason=reason,
                      redeal=match.ruleset.get("redeal"))


def check_draws(match: Match) -> Check:
    """The `draws` check."""
    found = Findings()
    stock = _Stock(match)
    count = 0
    for line in match.lines:
        try:
            count += stock.follow(line, found)
        except MALFORMED as error:
            found.malformed(line, error)
    what = "HandDealt" if match.game == "cirulla" else "CardsDrawn"
    if count == 0 and not found.problems:
        return found.check("draws", say(N_("no {event} in the export"), event=what),
                           skipped=True)
    summary = (N_("{count} {event} takes the stock in order") if count == 1 else
               N_("{count} {event} take the stock in order"))
    return found.check("draws", say(summary, count=count, event=what))


class _Stock:
    """The stock of the smazzata being played, followed line by line: the cards left in it,
    the seats from the dealer's side and the last trick's winner."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.step = play_step(match.game, match.ruleset)
        self.pile: list[str] = []
        self.seats: list[int] = []
        self.winner: int | None = None

    def follow(self, line: Line, found: Findings) -> int:
        """1 when `line` takes cards from the stock (HandDealt, CardsDrawn), checked; else 0."""
        data, players = line.data, self.match.players
        if line.type == "SmazzataDealt":
            self.pile = list(data["stock"]) + (
                [data["briscola"]] if self.match.game == "briscola" else [])
            self.seats = seats_from(int(data["dealer"]) + self.step, players, self.step)
            self.winner = None
        elif line.type == "TrickTaken":
            self.winner = int(data["seat"])
        elif line.type == "HandDealt":
            wanted: list[list[str]] = [[] for _ in range(players)]
            for position, card in enumerate(self.pile[:3 * players]):
                wanted[self.seats[position % players]].append(card)
            self.pile = self.pile[3 * players:]
            if not same(wanted, data["hands"]):
                found.problem(N_("line {line}: HandDealt is not the next {count} "
                                 "stock cards dealt from the dealer's side"),
                              line=line.number, count=3 * players)
            return 1
        elif line.type == "CardsDrawn":
            return self._drawn(line, found)
        return 0

    def _drawn(self, line: Line, found: Findings) -> int:
        if self.winner is None:
            found.problem(N_("line {line}: CardsDrawn before any TrickTaken of "
                             "the smazzata"), line=line.number)
            return 0
        order = seats_from(self.winner, self.match.players, 1)
        wanted = [[seat, card] for seat, card in zip(order, self.pile, strict=False)]
        self.pile = self.pile[self.match.players:]
        if not same(wanted, line.data["draws"]):
            found.problem(N_("line {line}: CardsDrawn is not the next stock "
                             "cards, the trick winner first"), line=line.number)
        return 1


def same(expected: Any, recorded: Any) -> bool:
    """Equal, where a card the record does not know (`??`) matches any card."""
    if isinstance(expected, list) and isinstance(recorded, list):
        return len(expected) == len(recorded) and all(map(same, expected, recorded))
    return bool(expected == recorded or UNKNOWN in (expected, recorded))
