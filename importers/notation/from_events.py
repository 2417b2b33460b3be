"""A stored match as a hand record: its domain events in stream order become a WrittenMatch.

Any match can be written down, simulated, live or transcribed: the tags come from MatchCreated
(and a transcribed header's TagsTranscribed), the result from the last MatchEnded, and every
smazzata from its deal attempts, its plays and accusi, the incidents beside them and the seed
revealed after it. What follows from the rules by itself (new hands, tricks, draws, the dealer's
table accuso, the scores) is not written: reading the record back through the rules gives it
again. A play's seat is written only when the play was out of turn, and an irregular play keeps
the marker of the irregularity the record noted on it. An incident stays in its smazzata until
that smazzata is closed (its seed revealed, or with no seed its end), as a reading of the record
(replay.py) closes it after its last line; one after the next seed's commitment goes before the
next smazzata's first play (a reading commits and deals first); what comes after the last one is
written after `End`.
A ruling's `refers_to` (a version of the stored stream) is written as the type of the event
at that version and its ordinal among the events of that type (`refers SeedRevealed 1`), which
an import, numbering its events otherwise, finds again. The events the record does not write
(the match seed's SeedContributed and MatchSeedRevealed, a score sheet's ScoreClaimed) are not
counted, and a ruling about one of them is written without its `refers`: an import would not
have the event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import msgspec

from domain.cards import is_known
from domain.cirulla.accusi import PLAYER_KINDS
from domain.events import AccusoDeclared, CardPlayed, SmazzataDealt, SmazzataEnded
from domain.match_format import MatchFormat, MatchFormatError
from domain.record.catalog import CATALOG, parse_format
from domain.record.events import (
    Abandoned,
    IrregularityNoted,
    MatchCreated,
    MatchEnded,
    MatchResumed,
    MatchSeedRevealed,
    RulingRecorded,
    ScoreClaimed,
    SeedCommitted,
    SeedContributed,
    SeedRevealed,
    TagsTranscribed,
    TimeoutRecorded,
)
from domain.record.match import MatchEvent, MatchState, evolve, initial
from domain.text import say
from importers.notation.model import (
    CLAIMED_BY_RECORD,
    Move,
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenIncident,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.writer import ordered_tags

StoredEvent = MatchEvent | TagsTranscribed | ScoreClaimed
"""What a match's stream holds (the record's own facts and the transcription's)."""

FORMAT_FLAGS = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
                "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp", "cappotto_waits_end")
"""The match format's options, written after its kind in the Format tag (`21pt ko`)."""

PLAYER_ACCUSI = PLAYER_KINDS
"""The accusi a player declares; the dealer's quindici and trenta follow from the table."""

_MARKERS = {"turn order": "fuori-turno", "C16 presa obbligata": "presa-mancata",
            "prese (regole a-c)": "presa-sbagliata", "asso (regola d)": "presa-sbagliata",
            "C14 matta": "presa-sbagliata", "hand": "carta-sbagliata",
            "carta in mano": "carta-sbagliata", "C8 accuso obbligatorio": "accuso-mancato"}
_UNWRITABLE = re.compile(r"\r\n|[\x00-\x08\x0a-\x1f\x7f-\x9f]")   # breaks, controls
_NO_TIME = datetime(2000, 1, 1, tzinfo=UTC)   # the fold's clock plays no part in the turn


def format_text(fmt: MatchFormat) -> str:
    """The Format tag: the format's canonical text, then the name of each option it sets."""
    return " ".join([fmt.text, *(flag for flag in FORMAT_FLAGS if getattr(fmt, flag))])


def parse_format_text(text: str, game: str) -> MatchFormat:
    """The match format of a Format tag (`format_text`'s inverse; MatchFormatError if bad)."""
    words = text.split()
    if not words:
        return MatchFormat.parse("", game)   # raises, naming what is accepted
    flags = words[1:]
    unknown = [w for w in flags if w not in FORMAT_FLAGS]
    if unknown:
        raise MatchFormatError(say("match format option {option}: expected one of {options}",
                                   option=repr(unknown[0]), options=", ".join(FORMAT_FLAGS)))
    return MatchFormat.parse(words[0], game, **{flag: True for flag in flags})


def marker(rule: str) -> str:
    """The notation's marker of an irregularity noted under `rule`."""
    if rule in _MARKERS:
        return _MARKERS[rule]
    # A rule named by whoever noted an irregularity the known cards could not show.
    lowered = rule.lower()
    if "turn" in lowered:   # turn order, turno
        return "fuori-turno"
    if "obbligata" in lowered:
        return "presa-mancata"
    return "carta-sbagliata" if "mano" in lowered or "hand" in lowered else "presa-sbagliata"


@dataclass(slots=True)
class _Smazzata:
    number: int
    dealer: int
    attempts: list[WrittenLayout] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    seeded: bool = False
    closed: bool = False   # ended, and its seed (if it has one) revealed


@dataclass(slots=True)
class _Builder:
    state: MatchState = field(default_factory=lambda: initial(CATALOG))
    created: MatchCreated | None = None
    header: tuple[tuple[str, str], ...] = ()
    result: MatchEnded | None = None
    smazzate: list[_Smazzata] = field(default_factory=list)
    pending: list[WrittenIncident] = field(default_factory=list)   # after a smazzata's end
    split: int | None = None   # how many were pending when the next seed was committed
    early: list[WrittenIncident] = field(default_factory=list)     # before the last deal
    written_seeds: set[int] = field(default_factory=set)   # the smazzate with a Seed line
    seeds: dict[int, str] = field(default_factory=dict)
    claims: dict[int, WrittenClaim] = field(default_factory=dict)
    plays: dict[int, tuple[int, int]] = field(default_factory=dict)   # version -> where
    kinds: dict[int, tuple[str, int]] = field(default_factory=dict)   # version -> (type, nth)
    counts: dict[str, int] = field(default_factory=dict)              # type -> events so far


def written_from_events(events: Sequence[StoredEvent]) -> WrittenMatch:
    """The hand record of a stored match (its events in stream order, the first MatchCreated)."""
    builder = _Builder(written_seeds=seeds_written(events))
    for version, event in enumerate(events, start=1):
        _count(builder, event, version)
        _take(builder, event, version)
        if not isinstance(event, TagsTranscribed | ScoreClaimed):
            builder.state = evolve(builder.state, event, _NO_TIME)
    if builder.created is None:
        raise ValueError(say("a match's events begin with MatchCreated"))
    _flush_early(builder)
    return WrittenMatch(tags=_tags(builder, builder.created),
                        smazzate=tuple(_smazzata(builder, s) for s in builder.smazzate),
                        after=tuple(builder.pending))


def _take(builder: _Builder, event: StoredEvent, version: int) -> None:
    """What `event` adds to the record; the state is still the one before it."""
    if isinstance(event, MatchCreated):
        builder.created = event
    elif isinstance(event, TagsTranscribed):
        builder.header = event.tags
    elif isinstance(event, MatchEnded):
        builder.result = event
    elif isinstance(event, MatchResumed):
        builder.result = None   # a ruling resumed the match: that result no longer holds
    elif isinstance(event, SmazzataDealt):
        _dealt(builder, event)
    elif isinstance(event, CardPlayed):
        _played(builder, event, version)
    elif isinstance(event, AccusoDeclared):
        if event.kind in PLAYER_ACCUSI:
            _move(builder, WrittenAccuso(event.seat, event.kind, event.cards, event.matta_value))
    elif isinstance(event, IrregularityNoted):
        _noted(builder, event)
    elif isinstance(event, TimeoutRecorded | Abandoned | RulingRecorded):
        _incident(builder, incident(event, builder.kinds))
    elif isinstance(event, SmazzataEnded):
        current = builder.smazzate[-1]
        current.closed = not current.seeded
    elif isinstance(event, SeedRevealed):
        _revealed(builder, event)
    elif isinstance(event, SeedCommitted):
        builder.split = len(builder.pending)
    elif isinstance(event, ScoreClaimed) and _own_claim(event):
        builder.claims[event.smazzata] = claim(event)


def _own_claim(event: ScoreClaimed) -> bool:
    """A claim the record writes: its own; a score sheet's is a paper of its own."""
    return bool(event.rows) and event.claimed_by == CLAIMED_BY_RECORD


def seeds_written(events: Sequence[StoredEvent]) -> set[int]:
    """The smazzate whose seed the record writes: dealt, and their seed revealed (an abandon
    before the deal may reveal the seed of a smazzata never dealt)."""
    dealt = {e.number for e in events if isinstance(e, SmazzataDealt)}
    return {e.smazzata for e in events if isinstance(e, SeedRevealed) and e.smazzata in dealt}


def _count(builder: _Builder, event: StoredEvent, version: int) -> None:
    # Not written: the match seed's events, a score sheet's claim, the commitment to and the
    # reveal of a seed the record does not write.
    if isinstance(event, SeedContributed | MatchSeedRevealed) or (
            isinstance(event, ScoreClaimed) and not _own_claim(event)) or (
            isinstance(event, SeedCommitted | SeedRevealed)
            and event.smazzata not in builder.written_seeds):
        return
    kind = type(event).__name__
    builder.counts[kind] = builder.counts.get(kind, 0) + 1
    builder.kinds[version] = (kind, builder.counts[kind])


def incident(event: TimeoutRecorded | Abandoned | RulingRecorded,
             kinds: Mapping[int, tuple[str, int]]) -> WrittenIncident:
    """The incident as written; `kinds` names each version of the stream before it (a ruling's
    `refers_to` as the event's type and ordinal)."""
    if isinstance(event, TimeoutRecorded):
        return WrittenIncident("timeout", seat=event.seat, elapsed_ms=event.elapsed_ms)
    if isinstance(event, Abandoned):
        return WrittenIncident("abandon", seat=event.seat, elapsed_ms=event.absent_ms,
                               reason=one_line(event.reason))
    return WrittenIncident("ruling", reason=one_line(event.reason),
                           arbiter=one_line(event.arbiter),
                           ruling=event.kind, smazzata=event.smazzata,
                           adjustment=event.adjustment, refers=_refers(event, kinds))


def _refers(event: RulingRecorded, kinds: Mapping[int, tuple[str, int]]) -> tuple[str, int] | None:
    if event.refers_to is None or event.refers_to not in kinds:   # not an event written
        return None
    return kinds[event.refers_to]


def claim(event: ScoreClaimed) -> WrittenClaim:
    """The claim as written: a category of more words joined by `_` (`vinco_subito`), the word
    the notation reads (replay.py's `category_of` reads it back as the breakdown's)."""
    return WrittenClaim(tuple((category.replace(" ", "_"), a, b)
                              for category, a, b in event.rows))


def layout(dealt: SmazzataDealt) -> WrittenLayout:
    """A deal attempt as written: hands and stock only when they name a card."""
    hands = dealt.hands if any(is_known(c) for h in dealt.hands for c in h) else None
    stock = dealt.stock if any(is_known(c) for c in dealt.stock) else None
    return WrittenLayout(table=dealt.table, briscola=dealt.briscola, hands=hands, stock=stock)


def _dealt(builder: _Builder, event: SmazzataDealt) -> None:
    if not builder.smazzate or builder.smazzate[-1].number != event.number:
        # The incidents between two smazzate stay after the plays of the earlier one, but those
        # after the next seed's commitment, like those before the first deal, come before the
        # new smazzata's first play or incident (after the accusi the deal itself declares, as
        # a reading of the record, which commits and deals first, puts them).
        _flush_early(builder)
        split = 0 if not builder.smazzate else (
            len(builder.pending) if builder.split is None else builder.split)
        if builder.smazzate:
            builder.smazzate[-1].moves.extend(builder.pending[:split])
        builder.early = builder.pending[split:]
        builder.smazzate.append(_Smazzata(event.number, event.dealer,
                                          seeded=event.seed_commitment is not None))
        builder.pending.clear()
        builder.split = None
    builder.smazzate[-1].attempts.append(layout(event))


def _revealed(builder: _Builder, event: SeedRevealed) -> None:
    builder.seeds[event.smazzata] = event.seed
    if builder.smazzate and builder.smazzate[-1].number == event.smazzata:
        builder.smazzate[-1].closed = True


def _move(builder: _Builder, move: Move) -> None:
    if not isinstance(move, WrittenAccuso):
        _flush_early(builder)
    builder.smazzate[-1].moves.append(move)


def _flush_early(builder: _Builder) -> None:
    if builder.early and builder.smazzate:
        builder.smazzate[-1].moves.extend(builder.early)
        builder.early.clear()


def _incident(builder: _Builder, written: WrittenIncident) -> None:
    """An incident belongs to the smazzata in progress until it is closed: until its seed is
    revealed (a reading of the record reveals it after the smazzata's last line), or, with no
    seed, until it ends. After that it waits: the next deal puts it after the plays of the
    smazzata before, the end of the record in `after`."""
    if builder.smazzate and not builder.smazzate[-1].closed:
        _move(builder, written)
    else:
        builder.pending.append(written)


def _played(builder: _Builder, event: CardPlayed, version: int) -> None:
    to_move = builder.state.to_move()
    seat = event.seat if event.seat != to_move else None
    _move(builder, WrittenPlay(event.card, seat, event.capture, event.matta_value, event.scopa))
    builder.plays[version] = (len(builder.smazzate) - 1, len(builder.smazzate[-1].moves) - 1)


def _noted(builder: _Builder, event: IrregularityNoted) -> None:
    """The first irregularity noted on a play gives its marker; out of turn, its seat."""
    where = builder.plays.get(event.refers_to)
    if where is None:
        return
    moves = builder.smazzate[where[0]].moves
    play = moves[where[1]]
    assert isinstance(play, WrittenPlay)
    seat = event.seat if marker(event.rule) == "fuori-turno" else play.seat
    moves[where[1]] = msgspec.structs.replace(
        play, seat=seat, irregular=play.irregular or marker(event.rule))


def _smazzata(builder: _Builder, smazzata: _Smazzata) -> WrittenSmazzata:
    return WrittenSmazzata(number=smazzata.number, dealer=smazzata.dealer,
                           seed=builder.seeds.get(smazzata.number),
                           attempts=tuple(smazzata.attempts), moves=tuple(smazzata.moves),
                           claim=builder.claims.get(smazzata.number))


def match_tags(created: MatchCreated) -> tuple[tuple[str, str], ...]:
    """The tags MatchCreated gives, in the strict export order."""
    fmt = parse_format(created.game, created.match_format)
    tags = [("Game", created.game), ("Players", ",".join(created.players)),
            ("Format", format_text(fmt)), ("Ruleset", ruleset_text(created.ruleset))]
    visibility = created.visibility
    if visibility is not None and (visibility.carte_viste or visibility.carte_scoperte):
        flags = [name for name, on in (("carte_viste", visibility.carte_viste),
                                       ("carte_scoperte", visibility.carte_scoperte)) if on]
        tags.append(("Visibility", " ".join(flags)))
    tags.append(("FirstDealer", str(created.first_dealer + 1)))
    return tuple(tags)


def ruleset_text(options: Mapping[str, str]) -> str:
    return " ".join(f"{name}={value}" for name, value in sorted(options.items()))


def result_text(ended: MatchEnded) -> str:
    """The Result tag: the match's scores, side 1 - side 2, as MatchEnded states them."""
    return f"{ended.scores[0]}-{ended.scores[1]}"


def _tags(builder: _Builder, created: MatchCreated) -> tuple[Tag, ...]:
    own = match_tags(created)
    names = {name for name, _ in own}
    # The transcribed header's own Result (what its writers claimed) stands over the computed.
    pairs = [*own, *((n, v) for n, v in builder.header if n not in names)]
    if builder.result is not None and all(n != "Result" for n, _ in pairs):
        pairs.append(("Result", result_text(builder.result)))
    return ordered_tags(tuple(Tag(name, one_line(value)) for name, value in pairs))


def one_line(text: str) -> str:
    """Free text as a quoted string of the notation can hold it: on one line, a line break or
    a control character (but the tab) a space."""
    return _UNWRITABLE.sub(" ", text)
