"""Partial records replay to the same scores: a stored match written down with cards nobody saw
(hands and stock unknown, no seed) still imports, and the rules compute every smazzata's
breakdown and the result it had. The played, captured and shown cards, which the scores depend
on, are always named in a record (docs/events.md section 2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import UNKNOWN, Card
from domain.events import SmazzataEnded
from domain.record.events import result_of
from importers.notation.from_events import written_from_events
from importers.notation.model import Move, WrittenIncident, WrittenLayout, WrittenMatch
from importers.notation.replay import validate
from importers.notation.writer import write
from tests.importers.notation.match_strategies import StoredEvent, stored_matches
from tests.importers.notation.test_round_trip import read_back
from tests.replacing import replace


def _unseen(draw: st.DrawFn, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(UNKNOWN if draw(st.booleans()) else card for card in cards)


@st.composite
def unseen_cards(draw: st.DrawFn, match: WrittenMatch) -> WrittenMatch:
    """The record with no seed, no stock, and each hand's cards unknown at random (a hand may
    be left out whole)."""
    smazzate = []
    for smazzata in match.smazzate:
        attempts = []
        for layout in smazzata.attempts:
            hands = None if layout.hands is None or draw(st.booleans()) else tuple(
                None if hand is None or draw(st.booleans()) else _unseen(draw, hand)
                for hand in layout.hands)
            attempts.append(WrittenLayout(layout.table, layout.briscola, hands, None))
        smazzate.append(replace(smazzata, seed=None, attempts=tuple(attempts),
                                moves=tuple(_unseeded(m) for m in smazzata.moves)))
    return replace(match, smazzate=tuple(smazzate),
                   after=tuple(_unseeded(m) for m in match.after))


def _unseeded(move: Move) -> Move:
    """A ruling that referred to a seed's event refers to nothing once the seeds are gone."""
    if isinstance(move, WrittenIncident) and move.refers is not None and move.refers[0] in (
            "SeedCommitted", "SeedRevealed"):
        return replace(move, refers=None)
    return move


@given(stored_matches(), st.data())
def test_a_partial_record_replays_to_the_same_scores(events: tuple[StoredEvent, ...],
                                                     data: st.DataObject) -> None:
    partial = data.draw(unseen_cards(written_from_events(events)))
    (record,) = read_back(write(partial))
    validation = validate(record, "partial round trip")
    assert validation.actions is not None, validation.report.as_text_lines()
    assert not validation.report.of("error")
    computed = {s.number - 1: tuple((r.category, *r.computed) for r in s.rows
                                    if r.computed is not None)
                for s in validation.report.smazzate if s.ended}
    ended = {e.number: e.breakdown for e in events if isinstance(e, SmazzataEnded)}
    assert computed == ended
    result = result_of(events)
    if result is not None:
        assert validation.report.result_computed == result.scores


CAPPOTTO_ANNULLED = """\
[Game "cirulla"]
[Players "Dario,Anna,Bruno,Carla"]
[Format "7pt cappotto_ends cappotto_waits_end"]
[Ruleset "accuso=automatico asso_su_asso=prende-asso deal_order=uno-alla-volta decino_tre_assi=10 direction=counterclockwise matta_durata=mano piccola_fino_al=6 presa_obbligata=carta primiera=somma redeal=due-assi"]
[FirstDealer "3"]
[Result "5-20"]

Smazzata 1
Dealer 3
Table 5c Fb Ac 5d
1. Cd x 5d+Ac As x 5c+Fb# 3c 6s
2. Fc 6c x 3c+6s 7s x Fc# 5b
3. Fd 3s Ab x Fd+5b+3s# Rd
4. 5s x Rd# 4c Ad x 4c# Rc
5. Cs 2c 3d x 2c+Rc 4s
6. 4b x 4s 4d Rs 7c
7. 7d x 7c Cc x Cs Rb x Rs Cb
8. 2d x 4d+Cb# 6b 6d x 6b# 3b
9. 2b 7b Fs x 7b 2s x 2b
Ruling "Rossi" annul-smazzata smazzata 1 "carte viste"

Smazzata 2
Dealer 4
Table Cd 3b 5b Cs
1. 6d x Cd
Accuso 2 cirulla 2c 3s As
As x 3b+5b+Cs# Rs 5d x Rs#
2. Rc 3s 5s x Rc 4c
3. Cb 2c x 4c+Cb 5c 7b x 5c+3s#
4. Rb 2b Rd x Rb Ac x 2b#
5. Ab 2s 4b 7d x Ab+4b+2s#
6. 4d Fd 7c x Fd 7s
7. Fb x 7s 4s x 4d# Cc Ad x Cc#
8. 6c 6s x 6c# 6b Fc
9. 3d 3c x 3d 2d Fs x 2d+6b
"""  # noqa: E501
"""Found by hypothesis in CI's profile: smazzata 1 ends in a cappotto that ends the match
(cappotto_ends), the arbiter annuls it, and smazzata 2 is played. With seeds the end waits for the
seed's reveal, so the ruling came first; without them the match had ended, and the annulment
resumes it (MatchResumed)."""


def test_an_annulled_cappotto_without_seeds_lets_the_match_go_on() -> None:
    (record,) = read_back(CAPPOTTO_ANNULLED)
    validation = validate(record, "cappotto-annullato.txt")
    assert validation.actions is not None, validation.report.as_text_lines()
    assert not validation.report.of("error") and not validation.report.of("finding")
    assert validation.report.result_computed == (5, 20) == validation.report.result_claimed
