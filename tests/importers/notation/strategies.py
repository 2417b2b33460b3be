"""Valid sample records and Hypothesis strategies of malformed ones, for the reader's fuzz tests
(test_reader_fuzz.py and the long fuzz run)."""

from __future__ import annotations

from hypothesis import strategies as st

CIRULLA_2P_PARTIAL = """\
[Game "cirulla"]
[Event "Circolo \\"Il Ponte\\""]
[Date "2026.??.??"]
[Players "Anna, Bruno"]
[Arbiter "Carla"]

Smazzata 1            ; the first hand of the evening
Dealer 1
Table 7d 3c ?? Rc
Hand 2 Ad 5s ??
1. 2: Ad   1: 7c x 7d =7 #
2. 5s      2c !fuori-turno   { the table let it go }
3. ?? x 3c+2c   Fb
Timeout 1 12.5s
Claimed scope 1-0 settebello 0-1 primiera 1-0 denari 0-0 carte 1-0
"""

CIRULLA_4P = """\
[Game "cirulla"]
[Players "Anna, Bruno, Carla, Dario"]
[Format "11"]
[FirstDealer "4"]

Smazzata 1
Mazziere 4
Seme 00ff17
Tavola Rd Rc Rb Rs
Tavola 4d 5c 6b 7s
Mano 1 Ad 2d 3d
Mano 2 Ac 2c 3c
Mano 3 Ab 2b 3b
Mano 4 As 2s 3s
Tallone 4c 5d ?? 6s
Accuso 1 cirulla Ad 2d 3d
1. Ad x 4d+5c+6b+7s # Ac Ab As
2. 2d 2c 2b 2s x 2d
3. 3d 3c 3b 3s
Punteggio scope 2-0 carte 1-0

Smazzata 2
Mazziere 1
Tavola ?? ?? ?? ??
1. 1: 7c =5 2: Rd
Abbandono 3 "malore" 40s
Fine
Decisione "Carla" penalty smazzata 2 adjust 0-3 refers Abandoned 1 "abbandono"
"""

BRISCOLA_2P_CLAIM = """\
[Game "briscola"]
[Players "Anna, Bruno"]
[Result "61-59"]

Deal 1
Dealer 2
Briscola 7♦
Hand 1 K♥ Qp 3♣
Stock ?? ?? ??
1. K♥ 3♣
2. 2: Qp As
Claimed punti 61-59 prese 11-9 vinco_subito 0-0
"""

BRISCOLA_4P = """\
[Game "briscola"]
[Players "Anna, Bruno, Carla, Dario"]
[Visibility "carte_viste"]

smazzata 1
DEALER 3
briscola Rc
1. Ad 3d Rd Cd
2. 7b Ab 2b 6b
Ruling "arbitro" warning "parlato al compagno"
Claimed punti 70-50 prese 6-4 carte 20-20
"""

VALID_RECORDS: list[str] = [CIRULLA_2P_PARTIAL, CIRULLA_4P, BRISCOLA_2P_CLAIM, BRISCOLA_4P]
"""Records the reader accepts in strict mode, one per game and table size."""

_ALPHABET = st.sampled_from(list("\n\r\t []\"\\{};:#=!x+-.?0123456789adcbsRFCJQKàè♦♥♣♠\x00\x85"))


@st.composite
def _mutated(draw: st.DrawFn, record: str) -> str:
    """One random edit of a valid record: delete, insert or replace a character, truncate,
    or swap two lines."""
    edit = draw(st.sampled_from(["delete", "insert", "replace", "truncate", "swap"]))
    at = draw(st.integers(0, len(record) - 1))
    if edit == "delete":
        return record[:at] + record[at + 1:]
    if edit == "insert":
        return record[:at] + draw(_ALPHABET) + record[at:]
    if edit == "replace":
        return record[:at] + draw(_ALPHABET) + record[at + 1:]
    if edit == "truncate":
        return record[:at]
    lines = record.split("\n")
    first, second = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[first], lines[second] = lines[second], lines[first]
    return "\n".join(lines)


@st.composite
def _repeatedly_mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(VALID_RECORDS + ["\n".join(VALID_RECORDS)]))
    for _ in range(draw(st.integers(1, 4))):
        text = draw(_mutated(text)) if text else text
    return text


def malformed_texts() -> st.SearchStrategy[str]:
    """Text a reader must survive: anything, and valid records with random edits."""
    return st.one_of(st.text(), st.text(_ALPHABET), _repeatedly_mutated(),
                     st.sampled_from(VALID_RECORDS).map(lambda r: r.replace("\n", "\r\n")))


def _latin1(text: str) -> bytes:
    return text.encode("latin-1", errors="replace")


def malformed_bytes() -> st.SearchStrategy[bytes]:
    """Bytes a reader must survive: anything, records with accents in latin-1, BOM, and UTF-8
    of mutated records cut at a random byte."""
    accented = st.sampled_from(VALID_RECORDS).map(
        lambda r: r.replace("Anna", "Annà").replace("Bruno", "Brunè"))
    cut = st.tuples(_repeatedly_mutated(), st.integers(0, 2000)).map(
        lambda pair: pair[0].encode("utf-8")[:pair[1]])
    return st.one_of(st.binary(), accented.map(_latin1), cut,
                     accented.map(lambda r: b"\xef\xbb\xbf" + r.encode("utf-8")))
