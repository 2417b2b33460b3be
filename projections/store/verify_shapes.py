"""The commonest records read by their shape (issue 13): the stored bytes of a play event, a
deal, a seed's commitment or reveal, or a smazzata's or match's end, matched as a whole against
the canonical JSON its record can only have, and its event built from the matched parts,
without parsing the JSON, encoding it again and decoding the record.

A pattern below accepts only bytes that are canonical JSON (docs/events.md): the record's keys
in their sorted order and no others, no whitespace, integers as canonical JSON writes them (no
leading zero, no "-0"), and every string one that JSON writes without an escape (card codes,
hex, the stream id, the timestamp's digits, words of lowercase letters). The envelope is the one
part of free text: it is taken only when its bytes are, as a whole, the canonical JSON of an
envelope that decodes, which is checked once per distinct envelope and remembered. The bytes are
then the canonical JSON of the record the parts make, and the event is the one the codec decodes
from it: what verify's lean path would have found by `json.loads`, `canonical` and the decoder,
the same values (tests/projections/store/test_verify_shapes.py). Bytes of any other shape
(another event type, an older class_version, a code that is not a card, an envelope with braces
in its text, a word with an accent): None, and the lean path parses them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import NamedTuple

from domain import events as play
from domain.cards import DECK, UNKNOWN, Card
from domain.record import events as record
from domain.record.envelope import EnvelopeError, RecordedBy
from projections.store.codec import decode
from projections.store.facts import FACT_NAMED, TOPIC_OF
from projections.store.verify_fast import canonical


class Shaped(NamedTuple):
    """A record read by its shape: its parts, the event already decoded."""

    kind: str
    event: object
    previous_hash: str
    enveloped: bool
    stream: str
    timestamp: str
    version: int


_INT = rb"(?:0|-?[1-9][0-9]*)"
_CODE = rb'"[0-9A-Za-z?]{2}"'
_CODES = rb"\[(?:" + _CODE + rb"(?:," + _CODE + rb")*)?\]"
_TAIL = (rb',"previous_hash":"(?P<previous>[0-9a-f]{64})"'
         rb'(?:,"recorded_by":(?P<envelope>\{[^{}]*\}))?'
         rb',"stream":"(?P<stream>[0-9a-f-]{36})","timestamp":"(?P<timestamp>[0-9T:.Z+-]{1,40})"'
         rb',"type":"%s","version":(?P<version>' + _INT + rb")\}")
_CARDS = {f'"{c.code}"'.encode(): c for c in (*DECK, UNKNOWN)}


class _Unknown(Exception):
    """A part that is not what the event takes (a code that is no card)."""


def _cards(listed: bytes) -> tuple[Card, ...]:
    """The cards of a matched list of codes, `["7d","Fd"]`."""
    if len(listed) == 2:
        return ()
    try:
        return tuple([_CARDS[code] for code in listed[1:-1].split(b",")])
    except KeyError:
        raise _Unknown from None


def _card(code: bytes) -> Card:
    card = _CARDS.get(code)
    if card is None:
        raise _Unknown
    return card


Built = Callable[[re.Match[bytes]], object]


def _card_played(m: re.Match[bytes]) -> object:
    matta_value = m.group("matta_value")
    return play.CardPlayed(int(m.group("seat")), _card(m.group("card")),
                           _cards(m.group("capture")),
                           None if matta_value == b"null" else int(matta_value),
                           m.group("scopa") == b"true")


def _trick_taken(m: re.Match[bytes]) -> object:
    return play.TrickTaken(int(m.group("seat")), _cards(m.group("cards")),
                           int(m.group("points")))


_HAND = re.compile(_CODES)


def _hand_dealt(m: re.Match[bytes]) -> object:
    return play.HandDealt(tuple([_cards(hand.group(0))
                                 for hand in _HAND.finditer(m.group("hands"), 1)]))


_DRAW = re.compile(rb"\[(" + _INT + rb"),(" + _CODE + rb")\]")


def _cards_drawn(m: re.Match[bytes]) -> object:
    return play.CardsDrawn(tuple([(int(draw.group(1)), _card(draw.group(2)))
                                  for draw in _DRAW.finditer(m.group("draws"))]))


_ONE_DRAW = rb"\[" + _INT + rb"," + _CODE + rb"\]"
_HANDS = rb"\[(?:" + _CODES + rb"(?:," + _CODES + rb")*)?\]"
_HEX = rb'"[0-9a-f]{1,128}"'


def _text(quoted: bytes) -> str:
    """A matched string with nothing to unescape (its pattern allows no backslash)."""
    return quoted[1:-1].decode("ascii")


def _seed_committed(m: re.Match[bytes]) -> object:
    return record.SeedCommitted(int(m.group("smazzata")), _text(m.group("commitment")))


def _seed_revealed(m: re.Match[bytes]) -> object:
    return record.SeedRevealed(int(m.group("smazzata")), _text(m.group("seed")))


def _accuso_declared(m: re.Match[bytes]) -> object:
    matta_value = m.group("matta_value")
    return play.AccusoDeclared(int(m.group("seat")), _text(m.group("kind")),
                               _cards(m.group("cards")), int(m.group("points")),
                               None if matta_value == b"null" else int(matta_value))


def _smazzata_dealt(m: re.Match[bytes]) -> object:
    commitment, briscola = m.group("seed_commitment"), m.group("briscola")
    return play.SmazzataDealt(
        int(m.group("number")), int(m.group("dealer")), int(m.group("attempt")),
        None if commitment == b"null" else _text(commitment),
        tuple([_cards(hand.group(0)) for hand in _HAND.finditer(m.group("hands"), 1)]),
        _cards(m.group("table")), _cards(m.group("stock")),
        None if briscola == b"null" else _card(briscola))

_WORD = rb'"[a-z_ ]{1,40}"'
_PAIR = rb"\[" + _INT + rb"," + _INT + rb"\]"
_ROW = rb"\[" + _WORD + rb"," + _INT + rb"," + _INT + rb"\]"
_ROWS = re.compile(rb'\[("[a-z_ ]{1,40}"),(' + _INT + rb"),(" + _INT + rb")\]")


def _maybe(value: bytes) -> int | None:
    return None if value == b"null" else int(value)


def _pair(value: bytes) -> tuple[int, int]:
    first, second = value[1:-1].split(b",")
    return int(first), int(second)


def _match_seed_revealed(m: re.Match[bytes]) -> object:
    return record.MatchSeedRevealed(_text(m.group("seed")))


def _match_scheduled(m: re.Match[bytes]) -> object:
    return record.MatchScheduled(int(m.group("round")), int(m.group("table")),
                                 _text(m.group("match")))


def _match_ended(m: re.Match[bytes]) -> object:
    settlement = record.MatchSettlement(_text(m.group("how")), int(m.group("mp")),
                                        _text(m.group("unit")), _pair(m.group("points")))
    return record.MatchEnded(_pair(m.group("scores")), _maybe(m.group("winner")),
                             _text(m.group("reason")), int(m.group("smazzate")), settlement)


def _smazzata_ended(m: re.Match[bytes]) -> object:
    outcome = play.SmazzataOutcome(_maybe(m.group("last_capture")), _maybe(m.group("cappotto")),
                                   m.group("ends") == b"true", _maybe(m.group("vinco_subito")),
                                   _cards(m.group("unplayed")))
    rows = tuple([(_text(row.group(1)), int(row.group(2)), int(row.group(3)))
                  for row in _ROWS.finditer(m.group("breakdown"))])
    return play.SmazzataEnded(int(m.group("number")), _pair(m.group("scores")), rows,
                              _maybe(m.group("leftover_to")), outcome)


_NULL_OR_INT = rb"null|" + _INT

# Each event type: the pattern of its `data` at its current class_version, fields in sorted
# order.
_SHAPES: dict[str, tuple[bytes, Built]] = {
    "CardPlayed": (rb'\{"capture":(?P<capture>' + _CODES + rb'),"card":(?P<card>' + _CODE
                   + rb'),"matta_value":(?P<matta_value>null|' + _INT
                   + rb'),"scopa":(?P<scopa>true|false),"seat":(?P<seat>' + _INT + rb")\}",
                   _card_played),
    "TrickTaken": (rb'\{"cards":(?P<cards>' + _CODES + rb'),"points":(?P<points>' + _INT
                   + rb'),"seat":(?P<seat>' + _INT + rb")\}", _trick_taken),
    "HandDealt": (rb'\{"hands":(?P<hands>' + _HANDS + rb")\}", _hand_dealt),
    "CardsDrawn": (rb'\{"draws":(?P<draws>\[(?:' + _ONE_DRAW + rb"(?:," + _ONE_DRAW
                   + rb")*)?\])\}", _cards_drawn),
    "SeedCommitted": (rb'\{"commitment":(?P<commitment>' + _HEX + rb'),"smazzata":(?P<smazzata>'
                      + _INT + rb")\}", _seed_committed),
    "SeedRevealed": (rb'\{"seed":(?P<seed>' + _HEX + rb'),"smazzata":(?P<smazzata>' + _INT
                     + rb")\}", _seed_revealed),
    "AccusoDeclared": (rb'\{"cards":(?P<cards>' + _CODES + rb'),"kind":(?P<kind>"[a-z0-9_]{1,24}")'
                       rb',"matta_value":(?P<matta_value>null|' + _INT + rb'),"points":(?P<points>'
                       + _INT + rb'),"seat":(?P<seat>' + _INT + rb")\}", _accuso_declared),
    "SmazzataDealt": (rb'\{"attempt":(?P<attempt>' + _INT + rb'),"briscola":(?P<briscola>null|'
                      + _CODE + rb'),"dealer":(?P<dealer>' + _INT + rb'),"hands":(?P<hands>'
                      + _HANDS + rb'),"number":(?P<number>' + _INT + rb'),"seed_commitment":'
                      rb"(?P<seed_commitment>null|" + _HEX + rb'),"stock":(?P<stock>' + _CODES
                      + rb'),"table":(?P<table>' + _CODES + rb")\}", _smazzata_dealt),
    "MatchSeedRevealed": (rb'\{"seed":(?P<seed>' + _HEX + rb")\}", _match_seed_revealed),
    "MatchScheduled": (rb'\{"match":(?P<match>"[0-9a-f-]{1,64}"),"round":(?P<round>' + _INT
                       + rb'),"table":(?P<table>' + _INT + rb")\}", _match_scheduled),
    "MatchEnded": (rb'\{"reason":(?P<reason>' + _WORD + rb'),"scores":(?P<scores>' + _PAIR
                   + rb'),"settlement":\{"how":(?P<how>' + _WORD + rb'),"mp":(?P<mp>' + _INT
                   + rb'),"points":(?P<points>' + _PAIR + rb'),"unit":(?P<unit>' + _WORD
                   + rb')\},"smazzate":(?P<smazzate>' + _INT + rb'),"winner":(?P<winner>'
                   + _NULL_OR_INT + rb")\}", _match_ended),
    "SmazzataEnded": (rb'\{"breakdown":(?P<breakdown>\[(?:' + _ROW + rb"(?:," + _ROW
                      + rb')*)?\]),"leftover_to":(?P<leftover_to>' + _NULL_OR_INT
                      + rb'),"number":(?P<number>' + _INT + rb'),"outcome":\{"cappotto":'
                      rb"(?P<cappotto>" + _NULL_OR_INT + rb'),"cappotto_ends_match":'
                      rb'(?P<ends>true|false),"last_capture":(?P<last_capture>' + _NULL_OR_INT
                      + rb'),"unplayed":(?P<unplayed>' + _CODES + rb'),"vinco_subito":'
                      rb"(?P<vinco_subito>" + _NULL_OR_INT + rb')\},"scores":(?P<scores>'
                      + _PAIR + rb")\}", _smazzata_ended),
}
_PATTERNS: dict[str, tuple[re.Pattern[bytes], Built, str]] = {
    TOPIC_OF[kind]: (re.compile(b'\\{"class_version":%d,"data":' % FACT_NAMED[kind].class_version
                               + data + _TAIL % kind.encode()), build, kind)
    for kind, (data, build) in _SHAPES.items()}


_ENVELOPES: dict[bytes, bool] = {}


def _envelope_sound(span: bytes) -> bool:
    """These bytes are the canonical JSON of an envelope that decodes (remembered per bytes)."""
    known = _ENVELOPES.get(span)
    if known is None:
        try:
            value = json.loads(span.decode("utf-8"))
            known = type(value) is dict and canonical(value) == span
            if known:
                decode(RecordedBy, value, "recorded_by")
        except (UnicodeDecodeError, ValueError, EnvelopeError):   # CodecError: a ValueError
            known = False
        if len(_ENVELOPES) < 4096:
            _ENVELOPES[span] = known
    return known


def shaped(state: bytes, topic: str) -> Shaped | None:
    """The record of these bytes, stored under `topic`, by the shape of that topic's event type
    (its `"type"` is then that type), or None (see the module's docstring)."""
    found = _PATTERNS.get(topic)
    if found is None:
        return None
    pattern, build, kind = found
    m = pattern.fullmatch(state)
    if m is None:
        return None
    envelope = m.group("envelope")
    if envelope is not None and not _envelope_sound(envelope):
        return None
    try:
        event = build(m)
    except _Unknown:
        return None
    return Shaped(kind, event, m.group("previous").decode("ascii"), envelope is not None,
                  m.group("stream").decode("ascii"), m.group("timestamp").decode("ascii"),
                  int(m.group("version")))
