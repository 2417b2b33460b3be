"""Random recorded matches for the read models' properties: plans drawn by hypothesis, the
actions each plan makes, and a store that records them.

A plan is pure data (game, table size, format, match seed, an incident, rulings, where it stops,
whether it is transcribed or in a tournament); `actions` turns it into the commands a table makes
(the demo's bots, domain/record/simulate.py), with the rulings put in at their step and those
planned after the last step recorded after the end (they restate the result). A transcribed plan
deals without seeds, each deal written out as the seeded shuffle would have made it (a scorer's
full record, domain/record/decide_transcribed.py). The cappotto plans use the match seeds of
tests/domain/record/test_cappotto_ends.py, which make a cappotto in the first smazzata.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from uuid import UUID

from hypothesis import strategies as st

from domain.cirulla.ruleset import STANDARD, TAVERNA
from domain.demo.matches import BOTS, NAMES, seeded_match
from domain.events import SmazzataDealt
from domain.match_format import MatchFormat
from domain.match_seed import smazzata_seed
from domain.record.catalog import CATALOG
from domain.record.commands import (
    CreateMatch,
    DealLayout,
    MatchCommand,
    RecordRuling,
    TranscribeDeal,
)
from domain.record.decide import decide
from domain.record.envelope import RecordedBy
from domain.record.events import Provenance
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.simulate import Incidents, Table, next_command
from domain.shuffle import Seed
from projections.store.app import Loaded, MatchStore
from projections.store.facts import TOPIC_OF
from tests.replacing import replace

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ARBITER = RecordedBy("arbiter", "Rossi")
TABLE = RecordedBy("simulator", "verbale tests")
CAPPOTTO_SEEDS = {2: (896, 32), 4: (2023,)}
"""Match seeds whose first smazzata (STANDARD ruleset, the bots) ends in a cappotto."""
CIRULLA_FORMATS = ("7pt", "11pt", "1smazzate", "2smazzate", "3smazzate")
BRISCOLA_FORMATS = ("punti", "1smazzate", "2smazzate", "3smazzate")
Action = tuple[MatchCommand, datetime]


@dataclass(frozen=True, slots=True)
class RulingPlan:
    """A ruling made before the match's action `step` (after the end if it has fewer): an
    annulment of the counted smazzata `pick` picks (modulo their number), or an adjustment."""

    step: int
    annul: bool
    adjustment: tuple[int, int] = (0, 0)
    pick: int = 0


@dataclass(frozen=True, slots=True)
class MatchPlan:
    game: str
    players: int
    fmt: MatchFormat
    seed: int
    taverna: bool = False
    incidents: Incidents = field(default_factory=Incidents)
    rulings: tuple[RulingPlan, ...] = ()
    stop: int | None = None        # recorded up to this many actions: left in progress
    transcribed: bool = False
    in_tournament: bool = False


@st.composite
def rulings(draw: st.DrawFn) -> RulingPlan:
    annul = draw(st.booleans())
    adjustment = (0, 0) if annul else draw(st.tuples(st.integers(-8, 8), st.integers(-8, 8)))
    return RulingPlan(draw(st.integers(0, 400)), annul, adjustment, draw(st.integers(0, 5)))


@st.composite
def incidents(draw: st.DrawFn, transcribed: bool, players: int) -> Incidents:
    """A timeout or an abandon at a random play, or (not in a transcribed match, whose deals
    come with no seed phases) an abandon between smazzate."""
    kinds = ("none", "none", "timeout", "abandon") + (() if transcribed else ("between",))
    kind = draw(st.sampled_from(kinds))
    if kind == "timeout":
        return Incidents(timeout_at=draw(st.integers(0, 120)))
    if kind == "abandon":
        return Incidents(abandon_at=draw(st.integers(0, 120)))
    if kind == "between":
        return Incidents(abandon_between=(draw(st.integers(0, 2)),
                                          draw(st.sampled_from(("commit", "deal", "reveal"))),
                                          draw(st.integers(0, players - 1))))
    return Incidents()


@st.composite
def match_plans(draw: st.DrawFn) -> MatchPlan:
    game = draw(st.sampled_from(("cirulla", "briscola")))
    players = draw(st.sampled_from((2, 4)))
    transcribed = draw(st.integers(0, 4)) == 0
    cappotto = game == "cirulla" and not transcribed and draw(st.integers(0, 3)) == 0
    if cappotto:
        seed = draw(st.sampled_from(CAPPOTTO_SEEDS[players]))
        fmt = MatchFormat.parse(draw(st.sampled_from(CIRULLA_FORMATS)), game,
                                ko=draw(st.booleans()), cappotto_ends=True,
                                cappotto_waits_end=draw(st.booleans()))
    else:
        seed = draw(st.integers(1, 2**32))
        fmt = _format(draw, game)
    stop = draw(st.one_of(st.none(), st.none(), st.integers(1, 150)))
    return MatchPlan(game, players, fmt, seed,
                     taverna=game == "cirulla" and not cappotto and draw(st.booleans()),
                     incidents=draw(incidents(transcribed, players)),
                     rulings=tuple(draw(st.lists(rulings(), max_size=3))), stop=stop,
                     transcribed=transcribed, in_tournament=draw(st.integers(0, 2)) == 0)


def _format(draw: st.DrawFn, game: str) -> MatchFormat:
    if game == "cirulla":
        return MatchFormat.parse(draw(st.sampled_from(CIRULLA_FORMATS)), game,
                                 ko=draw(st.booleans()), cappotto_ends=draw(st.booleans()))
    name = draw(st.sampled_from(BRISCOLA_FORMATS))
    return MatchFormat.parse(name, game, ko=name != "punti" and draw(st.booleans()),
                             vinco_subito=draw(st.booleans()),
                             smazzate_pari=name == "2smazzate")


def setup_of(plan: MatchPlan, tournament: str | None = None, place: int = 0) -> CreateMatch:
    """The plan's CreateMatch; in a tournament, at round `place` // 4 + 1, table `place` % 4
    + 1; names going round the demo's, so that lines meet again."""
    ruleset = None if plan.game == "briscola" else (TAVERNA if plan.taverna else STANDARD)
    names = tuple(NAMES[(plan.seed + k) % 4] for k in range(plan.players)) \
        if plan.in_tournament else NAMES[:plan.players]
    demo = seeded_match(plan.game, plan.fmt, ruleset, names, _seed(plan.seed))
    setup = demo.setup
    if plan.transcribed:
        setup = replace(setup, provenance=Provenance("transcribed", source="foglio.txt",
                                                     importer="tests"),
                        match_seed_commitment=None)
    if tournament is not None:
        setup = replace(setup, tournament=tournament, round=place // 4 + 1, table=place % 4 + 1)
    return setup


def _seed(number: int) -> Seed:
    return Seed(number.to_bytes(16, "big"))


def actions(plan: MatchPlan, setup: CreateMatch) -> list[Action]:
    """Every action of the plan after its CreateMatch, each with its moment."""
    state = _after(initial(CATALOG), setup, START)
    table = Table(_seed(plan.seed), BOTS[plan.game], plan.incidents)
    planned = sorted(plan.rulings, key=lambda r: r.step)
    made: list[Action] = []
    at = START
    while plan.stop is None or len(made) < plan.stop:
        if planned and planned[0].step <= len(made):
            state = _rule(state, planned.pop(0), at, made)
            continue
        step = _next(plan, state, table, at)
        if step is None:
            break
        command, at, table = step
        state = _after(state, command, at)
        made.append((command, at))
    for ruling in planned if plan.stop is None else ():
        state = _rule(state, ruling, at, made)
    return made


def _next(plan: MatchPlan, state: MatchState, table: Table,
          at: datetime) -> tuple[MatchCommand, datetime, Table] | None:
    if plan.transcribed and state.phase is Phase.COMMIT:
        return _transcribed_deal(state), at + timedelta(seconds=7), table
    return next_command(state, table, at)


def _transcribed_deal(state: MatchState) -> TranscribeDeal:
    """The deal as the seeded shuffle makes it, written out by a scorer (no seed recorded)."""
    assert state.seating is not None
    seed = smazzata_seed(Seed(b"\x7a" * 16), state.smazzata)
    dealt = [e for e in state.engine.deal(state.ruleset, state.seating, state.dealer,
                                          state.smazzata, seed) if isinstance(e, SmazzataDealt)]
    layouts = [DealLayout(d.hands, d.table, d.stock, d.briscola) for d in dealt]
    return TranscribeDeal(layouts[-1], annulled=tuple(layouts[:-1]), dealer=state.dealer)


def _rule(state: MatchState, plan: RulingPlan, at: datetime,
          made: list[Action]) -> MatchState:
    """Add the planned ruling to `made` if the record allows it (an annulment needs a counted
    smazzata); return the state after it."""
    counted = [e.number for e in state.ended if e.number not in state.annulled]
    if state.phase is Phase.NEW or (plan.annul and not counted):
        return state
    if plan.annul:
        ruling = RecordRuling("Rossi", "carte viste", "annul-smazzata",
                              smazzata=counted[plan.pick % len(counted)])
    else:
        ruling = RecordRuling("Rossi", "conteggio corretto", "adjust-score",
                              adjustment=plan.adjustment, refers_to=state.version)
    made.append((ruling, at))
    return _after(state, ruling, at)


def _after(state: MatchState, command: MatchCommand, at: datetime) -> MatchState:
    for event in decide(state, command, at):
        state = evolve(state, event, at)
    return state


def by_of(command: MatchCommand) -> RecordedBy:
    return ARBITER if isinstance(command, RecordRuling) else TABLE


@dataclass
class Recording:
    """The plans being recorded into `store`, chunk by chunk, streams interleaved."""

    store: MatchStore
    plans: Sequence[MatchPlan]
    streams: list[UUID] = field(default_factory=list)
    pending: list[list[Action]] = field(default_factory=list)
    tournaments: dict[str, Loaded] = field(default_factory=dict)

    def start(self) -> None:
        """Create the tournaments, then every match (its CreateMatch, and in a tournament its
        place in the schedule, in one transaction)."""
        for game in sorted({p.game for p in self.plans if p.in_tournament}):
            stream = self.store.create_tournament(f"Torneo di {game}", game, START, ARBITER)
            self.tournaments[game] = self.store.load_tournament(stream)
        for index, plan in enumerate(self.plans):
            stream = UUID(int=index + 1 << 64 | plan.seed)
            if plan.in_tournament:
                held = self.tournaments[plan.game]
                setup = setup_of(plan, str(held.stream), index)
                self.tournaments[plan.game], _ = self.store.schedule_and_create(
                    held.stream, stream, setup, START, TABLE, held)
            else:
                setup = setup_of(plan)
                self.store.create_match(setup, START, TABLE, stream)
            self.streams.append(stream)
            self.pending.append(actions(plan, setup))

    def append(self, pick: int, size: int) -> bool:
        """Record the next `size` actions of the `pick`-th match still unfinished (one
        transaction); False once every match is recorded."""
        left = [i for i, rest in enumerate(self.pending) if rest]
        if not left:
            return False
        index = left[pick % len(left)]
        chunk, self.pending[index] = self.pending[index][:size], self.pending[index][size:]
        self.store.execute_batch([(self.streams[index],
                                   [(c, at, by_of(c)) for c, at in chunk])])
        return True

    def finish(self) -> None:
        while self.append(0, 10_000):
            pass


def match_streams(store: MatchStore) -> Iterator[UUID]:
    created = TOPIC_OF["MatchCreated"]
    for stream in store.streams():
        if store.stored(stream)[0].topic == created:
            yield stream


def _parsed(text: str, game: str, **flags: bool) -> MatchFormat:
    return MatchFormat.parse(text, game, **flags)


FIXED_PLANS = (
    MatchPlan("cirulla", 2, _parsed("2smazzate", "cirulla", ko=True), 11,
              rulings=(RulingPlan(30, False, (3, -2)), RulingPlan(999, True, pick=1)),
              in_tournament=True),
    MatchPlan("cirulla", 2, _parsed("1smazzate", "cirulla", cappotto_ends=True), 896),
    MatchPlan("cirulla", 4, _parsed("7pt", "cirulla"), 12, incidents=Incidents(timeout_at=20),
              in_tournament=True),
    MatchPlan("briscola", 2, _parsed("3smazzate", "briscola"), 13,
              incidents=Incidents(abandon_between=(1, "commit", 1)),
              rulings=(RulingPlan(500, True),), in_tournament=True),
    MatchPlan("briscola", 4, _parsed("punti", "briscola", vinco_subito=True), 14,
              incidents=Incidents(abandon_at=10)),
    MatchPlan("cirulla", 2, _parsed("1smazzate", "cirulla"), 15, transcribed=True,
              rulings=(RulingPlan(999, False, (-4, 2)),)),
    MatchPlan("briscola", 2, _parsed("1smazzate", "briscola"), 16, stop=40),
)
"""One plan of each kind: the deterministic run on both databases."""


def record_unprojected(url: str) -> int:
    """Record one fixed match into the store at `url` with no catch-up after it: how many
    events the read models are then behind."""
    store = MatchStore(url=url)
    try:
        before = store.recorder.max_notification_id() or 0
        recording = Recording(store, FIXED_PLANS[1:2])
        recording.start()
        recording.finish()
        return (store.recorder.max_notification_id() or 0) - before
    finally:
        store.close()

