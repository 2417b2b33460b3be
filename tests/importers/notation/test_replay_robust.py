"""Whatever a record says, the validation reports on it and never fails: a written match with a
play dropped, a card changed or a seat moved is judged, and the actions exist exactly when the
report has no error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from importers.notation.model import Move, WrittenMatch, WrittenPlay
from importers.notation.replay import validate
from tests.importers.notation.test_replay import simulated, written_from
from tests.replacing import replace

CIRULLA = written_from(simulated("cirulla", "1smazzata", 2), seeds=False)
BRISCOLA = written_from(simulated("briscola", "1smazzata", 4))


def _changed(written: WrittenMatch, index: int, how: int, value: int) -> WrittenMatch:
    smazzata = written.smazzate[0]
    moves: list[Move] = list(smazzata.moves)
    at = index % len(moves)
    move = moves[at]
    if how == 0 or not isinstance(move, WrittenPlay):
        del moves[at]
    elif how == 1:
        moves[at] = replace(move, card=DECK[value % 40])
    elif how == 2:
        moves[at] = replace(move, seat=value % 2)
    else:
        moves[at] = replace(move, capture=move.capture[1:], scopa=not move.scopa)
    return replace(written, smazzate=(replace(smazzata, moves=tuple(moves)),))


@given(st.sampled_from([CIRULLA, BRISCOLA]), st.integers(0, 200), st.integers(0, 3),
       st.integers(0, 200))
def test_a_changed_record_is_judged_not_crashed(written: WrittenMatch, index: int, how: int,
                                                 value: int) -> None:
    validation = validate(_changed(written, index, how, value), "test")
    report = validation.report
    assert (validation.actions is not None) == report.accepted
    assert report.accepted == (report.of("error") == ())
    assert all(f.line >= 0 and f.severity in ("error", "finding", "note")
               for f in report.findings)
