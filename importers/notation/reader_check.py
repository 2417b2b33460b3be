"""The checks of a parsed match that need its tags or the order of its lines, and its assembly.

reader_build.py turned each line into a `Line` or model items; here the game and the number of
players (from the tags) judge seats, categories and layouts, and the lines of each smazzata are
checked in order (Dealer and Seed, then Table or Briscola with their Hand and Stock lines, then
the plays) before the `WrittenMatch` is put together. Rules of play are not judged here
(replay.py does that).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token

from domain.cards import Card
from domain.text import excerpt, say
from importers.notation.model import (
    Move,
    Pos,
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenIncident,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.reader_build import (
    CLAIM_CATEGORIES,
    Line,
    Problem,
    RawMatch,
    accuso_of,
    at,
    claim_of,
    incident_of,
    layout_of,
    number,
    read_cards,
)


def check_tags(tags: list[Tag], problems: list[Problem]) -> tuple[str, int] | None:
    """The game and the number of players, or None (with the problems) when unusable."""
    first = tags[0]
    if first.name != "Game" or first.value not in CLAIM_CATEGORIES:
        problems.append(Problem(first.pos.line, first.pos.column,
                                excerpt(f'[{first.name} "{first.value}"]'),
                                say('a first tag [Game "cirulla"] or [Game "briscola"]')))
        return None
    seen: set[str] = set()
    for tag in tags:
        if tag.name in seen:
            problems.append(Problem(tag.pos.line, tag.pos.column, excerpt(tag.name),
                                    say("each tag once")))
        seen.add(tag.name)
    players = next((t for t in tags if t.name == "Players"), None)
    if players is None:
        problems.append(Problem(first.pos.line, first.pos.column, say("no Players tag"),
                                say('a tag such as [Players "Anna, Bruno"]')))
        return None
    names = [n.strip() for n in players.value.split(",")]
    if len(names) not in (2, 4) or not all(names):
        problems.append(Problem(players.pos.line, players.pos.column, excerpt(players.value),
                                say("2 or 4 player names separated by commas")))
        return None
    first_dealer = next((t for t in tags if t.name == "FirstDealer"), None)
    if first_dealer is not None and first_dealer.value not in [str(s) for s in
                                                               range(1, len(names) + 1)]:
        problems.append(Problem(first_dealer.pos.line, first_dealer.pos.column,
                                excerpt(first_dealer.value), _seat_range(len(names))))
    return first.value, len(names)


def _seat_range(players: int) -> str:
    return say("a seat from 1 to {players}", players=players)


def seat_of(token: Token, players: int, problems: list[Problem]) -> int | None:
    seat = number(token)
    if not 1 <= seat <= players:
        problems.append(at(token, _seat_range(players)))
        return None
    return seat - 1


@dataclass(slots=True)
class Deal:
    """A smazzata being assembled."""

    game: str
    players: int
    problems: list[Problem]
    dealer: int | None = None
    seed: str | None = None
    attempts: list[WrittenLayout] = field(default_factory=list)
    hands: list[dict[int, tuple[Card, ...]]] = field(default_factory=list)
    stocks: list[tuple[Card, ...] | None] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    claim: WrittenClaim | None = None
    layout_written: bool = False  # a Table or Briscola line, even a wrong one

    def problem(self, item: WrittenAccuso | WrittenIncident | WrittenClaim | WrittenLayout
                | Problem) -> bool:
        if isinstance(item, Problem):
            self.problems.append(item)
            return True
        return False

    def layouts(self) -> tuple[WrittenLayout, ...]:
        return tuple(
            WrittenLayout(a.table, a.briscola,
                          tuple(h.get(s) for s in range(self.players)) if h else None, stock,
                          a.pos)
            for a, h, stock in zip(self.attempts, self.hands, self.stocks, strict=True))


def read_line(deal: Deal, line: Line) -> None:
    """Check one line against what came before it and add it to the smazzata."""
    kind, head, args = line.kind, line.head, line.args
    if kind == "plays":
        read_plays(deal, line)
    elif kind in ("dealer", "seed", "table", "briscola") and deal.moves:
        deal.problems.append(at(head, say("a play: Dealer, Seed and Table come before the plays")))
    elif kind == "dealer" or kind == "seed":
        if deal.attempts or (deal.dealer if kind == "dealer" else deal.seed) is not None:
            deal.problems.append(at(head, say("one Dealer and one Seed line before the Table")))
        elif kind == "dealer":
            deal.dealer = seat_of(args[0], deal.players, deal.problems)
        else:
            deal.seed = str(args[0]).lower()
    elif kind in ("table", "briscola"):
        deal.layout_written = True
        layout = layout_of(line, deal.game, deal.players)
        if not deal.problem(layout):
            assert isinstance(layout, WrittenLayout)
            deal.attempts.append(layout)
            deal.hands.append({})
            deal.stocks.append(None)
    elif kind in ("hand", "stock"):
        read_deal_line(deal, line)
    elif kind == "claimed":
        read_claim(deal, line)
    else:
        read_move_line(deal, line)


def read_deal_line(deal: Deal, line: Line) -> None:
    if not deal.attempts:
        deal.problems.append(at(line.head, say("a Table or Briscola line before Hand and Stock")))
    elif deal.moves:
        deal.problems.append(at(line.head, say("a play: Hand and Stock come before the plays")))
    elif line.kind == "stock":
        if deal.stocks[-1] is not None:
            deal.problems.append(at(line.head, say("one Stock line for each Table")))
        deal.stocks[-1] = read_cards(line.args[0])
    else:
        seat = seat_of(line.args[0], deal.players, deal.problems)
        if seat is not None and seat in deal.hands[-1]:
            deal.problems.append(at(line.args[0], say("one Hand line for each seat")))
        elif seat is not None:
            deal.hands[-1][seat] = read_cards(line.args[1])


def read_claim(deal: Deal, line: Line) -> None:
    if deal.claim is not None:
        deal.problems.append(at(line.head, say("one Claimed line for each smazzata")))
        return
    claim = claim_of(line, deal.game)
    if not deal.problem(claim):
        assert isinstance(claim, WrittenClaim)
        deal.claim = claim


def read_plays(deal: Deal, line: Line) -> None:
    if not deal.attempts:
        deal.problems.append(at(line.head, say("a Table or Briscola line before the plays")))
        return
    add = deal.moves.append
    for item in line.args:
        if type(item) is WrittenPlay and item.seat is None:   # as the writer writes plays
            add(item)
        elif isinstance(item, Problem):
            deal.problems.append(item)
        elif item.seat is not None and not 0 <= item.seat < deal.players:
            deal.problems.append(Problem(item.pos.line, item.pos.column,
                                         excerpt(f"{item.seat + 1}:"),
                                         _seat_range(deal.players)))
        else:
            add(item)


def read_move_line(deal: Deal, line: Line) -> None:
    """An accuso or an incident: among the plays, in the order written."""
    item = move_of(line, deal.game, deal.players, deal.problems)
    if item is not None and not deal.problem(item):
        assert isinstance(item, WrittenAccuso | WrittenIncident)
        deal.moves.append(item)


def move_of(line: Line, game: str, players: int,
            problems: list[Problem]) -> WrittenAccuso | WrittenIncident | Problem | None:
    if line.kind == "accuso" and game != "cirulla":
        return at(line.head, say("no Accuso line in Briscola"))
    if line.kind == "ruling":
        return incident_of(line, None)
    seat = seat_of(line.args[0], players, problems)
    if seat is None:
        return None
    return accuso_of(line, seat) if line.kind == "accuso" else incident_of(line, seat)


def build_match(raw: RawMatch, problems: list[Problem], source: str) -> WrittenMatch | None:
    """The match of a parse, checked against its tags; None when its tags are unusable."""
    tags = check_tags(raw.tags, problems)
    if tags is None:
        return None
    game, players = tags
    smazzate = []
    for index, (head, written, lines) in enumerate(raw.smazzate):
        if number(written) != index + 1:
            problems.append(Problem(written.line or 1, written.column or 1, excerpt(str(written)),
                                    say("the smazzata number {number}", number=index + 1)))
        smazzate.append(_smazzata(index, head, lines, game, players, problems))
    after = []
    for line in raw.after:
        item = move_of(line, game, players, problems)
        if isinstance(item, Problem):
            problems.append(item)
        elif isinstance(item, WrittenIncident):
            after.append(item)
    return WrittenMatch(tuple(raw.tags), tuple(smazzate), tuple(after), source, raw.tags[0].pos)


def _smazzata(index: int, head: Token, lines: list[Line], game: str, players: int,
              problems: list[Problem]) -> WrittenSmazzata:
    deal = Deal(game, players, problems)
    for line in lines:
        read_line(deal, line)
    if not deal.layout_written:
        problems.append(Problem(head.line or 1, head.column or 1, excerpt(str(head)),
                                say("a Table line") if game == "cirulla"
                                else say("a Briscola line")))
    return WrittenSmazzata(index, deal.dealer, deal.seed, deal.layouts(), tuple(deal.moves),
                           deal.claim, Pos(head.line or 1, head.column or 1))
