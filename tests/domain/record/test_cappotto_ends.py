"""Issue 8: a cappotto ends the match at once (C11), through the record: commands in, events out.

000: "Se un giocatore riesce a prendere tutte le carte di denari (quadri) effettua un cappotto e
la partita termina immediatamente con la sua vittoria." With the format's `cappotto_ends` the
play that puts the tenth denaro in a side's pile ends the smazzata and the match there; the
cards not played are listed in the outcome. `cappotto_waits_end` is the other reading: the
smazzata goes on to its end. A cappotto completed by the cards left on the table at the end (C9)
counts as well. Cappotto is Cirulla only (000), at 2 and 4 players.

The positions are bot matches from fixed match seeds (found by a bounded search): at 2 players
seed 896 takes the tenth denaro at play 24 and seed 32 only with the cards left on the table;
at 4 players seed 2023 takes it at play 31.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import uuid4

import pytest

from domain.cards import DECK, Card, Suit
from domain.cirulla.engine import smazzata_score
from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import BOTS, NAMES, DemoMatch, seeded_match
from domain.events import CardPlayed, SmazzataDealt, SmazzataEnded
from domain.game import PlayCard
from domain.match_format import MatchFormat, MatchFormatError
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG, format_options, parse_format
from domain.record.commands import (
    CreateMatch,
    DealLayout,
    MatchCommand,
    RecordAbandon,
    RecordTimeout,
    RevealMatchSeed,
    TranscribeDeal,
)
from domain.record.decide import decide
from domain.record.events import (
    MatchEnded,
    MatchSeedRevealed,
    Provenance,
    SeedRevealed,
    TimeControl,
)
from domain.record.match import MatchEvent, Phase, evolve, initial
from domain.record.refusal import RecordRefused
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed
from projections.auditor.audit import audit_lines
from projections.store.app import MatchStore
from projections.store.export import export_jsonl
from replay_web.cli_store import record_match

START = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)
AT_ONCE = MatchFormat.parse("1smazzate", "cirulla", cappotto_ends=True)
WAITING = MatchFormat.parse("1smazzate", "cirulla", cappotto_ends=True, cappotto_waits_end=True)
MID_SMAZZATA = {2: (896, 24), 4: (2023, 31)}   # players: (match seed, the play of the tenth)
BY_THE_LEFTOVER = 32                            # 2 players: the table's cards make the cappotto
Action = tuple[tuple[MatchEvent, ...], datetime]


def _denari(cards: tuple[Card, ...] | list[Card]) -> int:
    return sum(1 for card in cards if card.suit is Suit.DENARI)


def _demo(fmt: MatchFormat, players: int, seed: int) -> DemoMatch:
    return seeded_match("cirulla", fmt, STANDARD, NAMES[:players], Seed(seed.to_bytes(16, "big")))


def _actions(demo: DemoMatch, trouble: Incidents | None = None) -> list[Action]:
    table = Table(demo.match_seed, BOTS["cirulla"], trouble or Incidents())
    return [(events, at) for events, at, _ in play_locally(CATALOG, demo.setup, table, START)]


def _flat(actions: list[Action]) -> list[tuple[MatchEvent, datetime]]:
    return [(event, at) for events, at in actions for event in events]


def _plays_before_the_end(actions: list[Action]) -> int:
    return sum(isinstance(e, CardPlayed) for events, _ in actions for e in events)


def _piles(actions: list[Action]) -> tuple[list[Card], list[Card]]:
    """The piles as the play events show them (captures only; no leftover)."""
    piles: tuple[list[Card], list[Card]] = ([], [])
    for events, _ in actions:
        for event in events:
            if isinstance(event, CardPlayed) and event.capture:
                piles[event.seat % 2].extend((*event.capture, event.card))
    return piles


def _table(actions: list[Action]) -> list[Card]:
    """The cards on the table after the last play, as the play events show them."""
    table: list[Card] = []
    for events, _ in actions:
        for event in events:
            if isinstance(event, SmazzataDealt):
                table = list(event.table)
            elif isinstance(event, CardPlayed):
                table = [c for c in table if c not in event.capture] if event.capture else [
                    *table, event.card]
    return table


@pytest.mark.parametrize("players", [2, 4])
def test_effettua_un_cappotto_e_la_partita_termina_immediatamente(players: int) -> None:
    """000: "effettua un cappotto e la partita termina immediatamente con la sua vittoria":
    the play of the tenth denaro is followed, in the same action, by the SmazzataEnded of that
    moment (the unplayed cards listed) and MatchEnded(reason "cappotto")."""
    seed, tenth = MID_SMAZZATA[players]
    actions = _actions(_demo(AT_ONCE, players, seed))
    cut = next(i for i, (events, _) in enumerate(actions)
               if any(isinstance(e, SmazzataEnded) for e in events))
    events, _ = actions[cut]
    played, ended, result = events
    assert isinstance(played, CardPlayed) and isinstance(ended, SmazzataEnded)
    assert isinstance(result, MatchEnded)
    assert _plays_before_the_end(actions) == tenth < 36
    outcome = ended.outcome
    assert outcome is not None and outcome.cappotto == played.seat % 2
    assert outcome.cappotto_ends_match and ended.leftover_to is None
    assert result.reason == "cappotto" and result.winner == outcome.cappotto
    assert result.settlement is not None and result.settlement.how == "cappotto"
    assert result.smazzate == 1 and result.scores == ended.scores
    piles = _piles(actions)
    assert _denari(piles[outcome.cappotto]) == 10
    # Every card is in a pile, on the table (nobody's: C9 is for the last play) or unplayed.
    dealt = next(e for events, _ in actions for e in events if isinstance(e, SmazzataDealt))
    assert len(outcome.unplayed) == 40 - len(dealt.table) - tenth
    assert not set(outcome.unplayed) & (set(piles[0]) | set(piles[1]))
    assert sorted((*piles[0], *piles[1], *outcome.unplayed, *_table(actions))) == list(DECK)
    # The smazzata's seed and then the match seed are revealed afterwards, each on its own.
    after = [events for events, _ in actions[cut + 1:]]
    assert [[type(e) for e in ev] for ev in after] == [[SeedRevealed], [MatchSeedRevealed]]


def test_the_score_of_a_smazzata_cut_short_counts_the_piles_as_they_are() -> None:
    """C11: the smazzata cut short counts what the piles, scope and accusi hold at that play;
    the cappotto side wins the match whatever the points."""
    seed, _ = MID_SMAZZATA[2]
    recorded = _flat(_actions(_demo(AT_ONCE, 2, seed)))
    state = initial(CATALOG)
    for event, at in recorded:
        if isinstance(event, SmazzataEnded):
            game = state.game
            break
        state = evolve(state, event, at)
    ended = next(e for e, _ in recorded if isinstance(e, SmazzataEnded))
    breakdown = smazzata_score(game)
    assert ended.scores == breakdown.totals and ended.breakdown == breakdown.rows


@pytest.mark.parametrize("players", [2, 4])
def test_the_waiting_reading_plays_the_smazzata_to_its_end(players: int) -> None:
    """`cappotto_waits_end`: the match ends with the cappotto's smazzata, played to its end."""
    seed, _ = MID_SMAZZATA[players]
    actions = _actions(_demo(WAITING, players, seed))
    assert _plays_before_the_end(actions) == 36
    ended = next(e for events, _ in actions for e in events if isinstance(e, SmazzataEnded))
    assert ended.outcome is not None and ended.outcome.unplayed == ()
    assert ended.outcome.cappotto is not None and ended.outcome.cappotto_ends_match
    reveal = next(events for events, _ in actions if isinstance(events[0], SeedRevealed))
    assert len(reveal) == 2 and isinstance(reveal[1], MatchEnded)
    assert reveal[1].reason == "cappotto" and reveal[1].winner == ended.outcome.cappotto


def test_a_cappotto_made_by_the_cards_left_on_the_table_still_counts() -> None:
    """C9 and C11: the last capture's side takes the table after the 36th play; if that gives
    it the tenth denaro, it is a cappotto and ends the match."""
    actions = _actions(_demo(AT_ONCE, 2, BY_THE_LEFTOVER))
    assert _plays_before_the_end(actions) == 36
    ended = next(e for events, _ in actions for e in events if isinstance(e, SmazzataEnded))
    outcome = ended.outcome
    assert outcome is not None and outcome.cappotto is not None and outcome.unplayed == ()
    assert ended.leftover_to == outcome.cappotto
    assert _denari(_piles(actions)[outcome.cappotto]) < 10   # the table made the difference
    result = next(e for events, _ in actions for e in events if isinstance(e, MatchEnded))
    assert result.reason == "cappotto" and result.winner == outcome.cappotto


@pytest.mark.parametrize("trouble", [Incidents(timeout_at=24), Incidents(abandon_at=24)])
def test_after_a_cappotto_that_ended_the_match_no_timeout_or_abandon_can_follow(
        trouble: Incidents) -> None:
    """Issue 8: a side that made cappotto and then timed out lost by forfeit; with
    `cappotto_ends` the match is already over, so no timeout or abandon is recorded."""
    seed, tenth = MID_SMAZZATA[2]
    recorded = _flat(_actions(_demo(AT_ONCE, 2, seed), trouble))
    result = next(e for e, _ in recorded if isinstance(e, MatchEnded))
    assert result.reason == "cappotto" and _plays_before_the_end([(tuple(
        e for e, _ in recorded), START)]) == tenth
    state = initial(CATALOG)
    for event, at in recorded:
        state = evolve(state, event, at)
        if isinstance(event, MatchEnded):
            break
    assert state.phase is Phase.ENDED
    later = recorded[-1][1] + timedelta(hours=1)
    seed_of = Seed(seed.to_bytes(16, "big"))
    for command in (RecordTimeout(seat=0, seed=seed_of),
                    RecordAbandon(seat=1, reason="ritiro", seed=seed_of)):
        with pytest.raises(RecordRefused, match="the match is over"):
            decide(state, command, later)
    # The match seed waits for the smazzata's seed.
    with pytest.raises(RecordRefused, match="revealed before the match seed"):
        decide(state, RevealMatchSeed(seed_of), later)


def test_with_the_waiting_reading_a_timeout_after_the_cappotto_is_still_a_forfeit() -> None:
    """The other reading keeps the match open until the smazzata's end (C12 applies)."""
    seed, tenth = MID_SMAZZATA[2]
    recorded = _flat(_actions(_demo(WAITING, 2, seed), Incidents(timeout_at=tenth + 1)))
    result = next(e for e, _ in recorded if isinstance(e, MatchEnded))
    assert result.reason == "timeout"


def _transcribed(players: int, seed: int) -> list[Action]:
    """The seeded match's deal and plays written up by hand: a transcribed match, no seed."""
    seeded = _flat(_actions(_demo(WAITING, players, seed)))
    dealt = next(e for e, _ in seeded if isinstance(e, SmazzataDealt))
    created = seeded[0][0]
    setup = CreateMatch(game="cirulla", ruleset=STANDARD.options(), players=NAMES[:players],
                        match_format=format_options(AT_ONCE),
                        time_control=TimeControl(per_move=None, bank=None, abandon_after=3600),
                        first_dealer=dealt.dealer,
                        provenance=Provenance("transcribed", source="foglio.txt",
                                              importer="test"))
    assert created is not None
    commands: list[MatchCommand] = [
        setup, TranscribeDeal(DealLayout(hands=dealt.hands, table=dealt.table,
                                         stock=dealt.stock), dealer=dealt.dealer)]
    commands += [PlayCard(e.seat, e.card, e.capture, e.matta_value)
                 for e, _ in seeded if isinstance(e, CardPlayed)]
    state, at, actions = initial(CATALOG), START, []
    for command in commands:
        if state.phase is Phase.ENDED:
            break
        at += timedelta(seconds=5)
        events = decide(state, command, at)
        for event in events:
            state = evolve(state, event, at)
        actions.append((events, at))
    return actions


@pytest.mark.parametrize("players", [2, 4])
def test_a_transcribed_match_ends_at_the_cappotto_too(players: int) -> None:
    """The same play in a transcribed match (no seed): play, SmazzataEnded, MatchEnded."""
    seed, tenth = MID_SMAZZATA[players]
    actions = _transcribed(players, seed)
    events, _ = actions[-1]
    assert [type(e) for e in events] == [CardPlayed, SmazzataEnded, MatchEnded]
    assert _plays_before_the_end(actions) == tenth
    result = events[-1]
    assert isinstance(result, MatchEnded) and result.reason == "cappotto"
    report = audit(CATALOG, _flat(actions))
    assert report.ok and report.pending is None
    assert [f.severity for f in report.findings] == [Severity.NOTE]   # shuffle unverifiable


@pytest.mark.parametrize("fmt, players, seed", [
    (AT_ONCE, 2, 896), (AT_ONCE, 4, 2023), (WAITING, 2, 896), (AT_ONCE, 2, BY_THE_LEFTOVER)])
def test_the_record_of_a_cappotto_audits_clean(fmt: MatchFormat, players: int, seed: int,
                                               tmp_path: Path) -> None:
    """`verify`'s replay through decide, and the outside auditor on the export."""
    demo = _demo(fmt, players, seed)
    recorded = _flat(_actions(demo))
    report = audit(CATALOG, recorded)
    assert report.findings == () and report.pending is None
    store = MatchStore(url=f"sqlite:///{tmp_path / 'verbale.db'}", catalog=CATALOG)
    try:
        stream = uuid4()
        loaded = record_match(store, stream, demo, START)
        assert loaded.state.phase is Phase.ENDED
        outside = audit_lines(list(export_jsonl(store, stream)))
        assert outside.ok, "\n".join(outside.render())
    finally:
        store.close()


def test_cappotto_waits_end_is_a_format_option_stored_in_match_created() -> None:
    """The waiting reading is named: the flag round-trips through MatchCreated's options, needs
    `cappotto_ends`, is Cirulla only, and a format stored before it reads it as false."""
    assert AT_ONCE.cappotto_ends_at_once and not WAITING.cappotto_ends_at_once
    assert parse_format("cirulla", format_options(WAITING)) == WAITING
    older = {k: v for k, v in format_options(AT_ONCE).items() if k != "cappotto_waits_end"}
    assert parse_format("cirulla", older) == AT_ONCE
    with pytest.raises(MatchFormatError, match="needs cappotto_ends"):
        MatchFormat.parse("21pt", "cirulla", cappotto_waits_end=True)
    with pytest.raises(MatchFormatError, match="Cirulla rules"):
        MatchFormat.parse("3smazzate", "briscola", cappotto_waits_end=True)
