"""`verbale tournament create|seat|standings|import|penalty`: a Sicilian Tarocchi tournament
(source 003, docs/tarocchi.md) run by its director.

create draws two secret seeds from the operating system (the seating draw of art. 2 and the
tie-break draw of art. 9), records their commitments with the places, and writes the seeds to a
file only its owner may read (never overwritten). seat reveals the seating seed for turn I and
seats turns II-IV as the tournament's recomposition says (revealing the tie-break seed first
when a tie only the draw breaks stands in the way). The sheets arrive as files: `tournament
import` reads them (CSV and the tag style; several files make one import, the header of a new
tournament in one of them), prints the per-line report, and stores all or nothing. A penalty of
art. 7-8 is an arbiter's ruling against a player in a smazzata. standings reads the read models.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import cast
from uuid import UUID, uuid4

import click

from domain.game import RuleViolation
from domain.record.envelope import RecordedBy
from domain.shuffle import Seed, SeedError
from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    ImposePenalty,
    RevealSorteggio,
    SeatTurn,
    TarocchiCommand,
)
from domain.tarocchi.decide import TarocchiRefused
from domain.tarocchi.entrants import Entrant
from domain.tarocchi.events import TarocchiTournamentCreated
from domain.tarocchi.penalties import CATALOGUE
from domain.tarocchi.seats import ROMAN, TURNS
from domain.tarocchi.state import TarocchiState
from domain.text import say
from projections.arbiter_signing import signer_for
from projections.store.app import MatchStore
from projections.store.signatures import Signer
from projections.store.tarocchi import (
    NotATarocchiTournament,
    decided,
    execute_signed_penalty,
    execute_tarocchi,
    is_tarocchi,
    load_tarocchi,
)
from replay_web.cli import UsageProblem, cli, database_option
from replay_web.cli_arbiter import accounts, password_stdin_option
from replay_web.cli_database import open_store
from replay_web.cli_tournament_text import (
    Resolve,
    echo_seating,
    echo_standings,
    export_sheets,
    import_files,
    parse_entrants,
    standings_json,
)
from replay_web.i18n import _, translate_error
from replay_web.match_ids import resolve_match
from replay_web.read_models import catch_up_read_models
from replay_web.secret_file import write_secret_file

_FILE = click.Path(dir_okay=False, path_type=Path)
SEED_BYTES = 32
RECOMPOSITION = {"preconstituted": "precostituito", "standings": "classifica",
                 "precostituito": "precostituito", "classifica": "classifica"}
FINAL = {"bands": "fasce", "preconstituted": "precostituito", "fasce": "fasce",
         "precostituito": "precostituito"}


def house() -> RecordedBy:
    return RecordedBy("house", "verbale tournament")


@cli.group("tournament")
def tournament() -> None:
    """Sicilian Tarocchi tournaments (003): create, seat each turn, import the sheets, record
    an arbiter's penalty, print the standings."""


@tournament.command("create")
@click.argument("name")
@click.option("--players", "players_file", type=click.Path(exists=True, dir_okay=False,
                                                           path_type=Path),
              help="A file with one place a line: a player, or a team as 'Team (A + B)'.")
@click.option("--player", "players", multiple=True,
              help="A place (repeat it): a player, or a team as 'Team (A + B)'.")
@click.option("--recomposition", type=click.Choice(sorted(RECOMPOSITION)),
              default="preconstituted", show_default=True,
              help="How turns II and III are seated (art. 3).")
@click.option("--final", type=click.Choice(sorted(FINAL)), default="bands", show_default=True,
              help="How turn IV is seated (art. 3).")
@click.option("--seeds", "seeds_path", type=_FILE, default=None,
              help="Where to write the two secret seeds (default: tarocchi-ID.seeds.json next "
                   "to the current directory's var/); never overwritten.")
@database_option
def create(name: str, players_file: Path | None, players: tuple[str, ...], recomposition: str,
           final: str, seeds_path: Path | None, database: str | None) -> None:
    """Create tournament NAME: its places in registration order, the recompositions, and the
    commitments to two fresh secret seeds (the seating draw and the tie-break draw)."""
    entrants = _entrants(players_file, players)
    seating, sorteggio = Seed(os.urandom(SEED_BYTES)), Seed(os.urandom(SEED_BYTES))
    created = TarocchiTournamentCreated(name, entrants, RECOMPOSITION[recomposition],
                                        FINAL[final], seating.commitment(),
                                        sorteggio.commitment())
    stream = uuid4()
    path = seeds_path or Path("var") / f"tarocchi-{stream}.seeds.json"
    try:
        decided(TarocchiState(), [CreateTarocchiTournament(created)])
    except TarocchiRefused as refused:
        raise UsageProblem(translate_error(refused)) from None
    _write_seeds(path, stream, seating, sorteggio)
    store = open_store(database)
    try:
        execute_tarocchi(store, stream, [CreateTarocchiTournament(created)],
                         datetime.now(UTC), house())
        behind = catch_up_read_models(store, database)
    finally:
        store.close()
    click.echo(_("Tarocchi tournament {name}: {id}").format(name=name, id=stream))
    click.echo(_("{count} places; turns II-III {recomposition}, turn IV {final}").format(
        count=len(entrants), recomposition=created.recomposition, final=created.final))
    click.echo(_("seating seed commitment:   {commitment}").format(
        commitment=created.seating_commitment))
    click.echo(_("tie-break seed commitment: {commitment}").format(
        commitment=created.sorteggio_commitment))
    click.echo(_("the seeds are in {path} (keep it private until they are revealed)").format(
        path=path))
    if behind is not None:
        raise behind


def _entrants(players_file: Path | None, players: tuple[str, ...]) -> tuple[Entrant, ...]:
    lines = list(players)
    if players_file is not None:
        try:
            text = players_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageProblem(_("--players {path}: {reason}").format(
                path=players_file, reason=getattr(error, "strerror", None) or error)) from None
        lines += [line.strip() for line in text.splitlines()
                  if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise UsageProblem(_("name the places with --players FILE or --player NAME"))
    try:
        return parse_entrants(lines)
    except ValueError as error:
        raise UsageProblem(translate_error(error)) from None


@tournament.command("seat")
@click.argument("tournament_text", metavar="ID")
@click.option("--turn", type=click.IntRange(1, TURNS), default=None,
              help="The turn to seat (default: the next one).")
@click.option("--seeds", "seeds_path", type=_FILE, default=None,
              help="The seeds file 'tournament create' wrote (for turn I, and for the "
                   "tie-break draw when a tie needs it).")
@database_option
def seat(tournament_text: str, turn: int | None, seeds_path: Path | None,
         database: str | None) -> None:
    """Seat a turn: turn I by the seating draw (the seating seed revealed, checked against its
    commitment), turns II-IV as the tournament's recomposition says; print its tables."""
    store = open_store(database)
    try:
        stream = _resolver(database)(store, tournament_text)
        loaded = load_tarocchi(store, stream)
        state = cast(TarocchiState, loaded.state)
        turn = turn or len(state.turns) + 1
        path = seeds_path or Path("var") / f"tarocchi-{stream}.seeds.json"
        commands = _seating(state, turn, path, stream)
        try:
            after = execute_tarocchi(store, stream, commands, datetime.now(UTC), house(),
                                     loaded)
        except RuleViolation as refused:
            raise UsageProblem(translate_error(refused)) from None
        behind = catch_up_read_models(store, database)
    finally:
        store.close()
    echo_seating(cast(TarocchiState, after.state), turn)
    if behind is not None:
        raise behind


def _seating(state: TarocchiState, turn: int, path: Path, stream: UUID
             ) -> list[TarocchiCommand]:
    if state.draw is None:
        if turn != 1:
            raise UsageProblem(_("turn {turn}: turn I is seated first, by the draw").format(
                turn=turn))
        return [DrawSeating(_read_seeds(path, stream)[0])]
    command = SeatTurn(turn)
    try:
        decided(state, [command])
    except TarocchiRefused as refused:
        if refused.rule != "003 art. 9" or state.sorteggio is not None:
            raise UsageProblem(translate_error(refused)) from None
        return [RevealSorteggio(_read_seeds(path, stream)[1]), command]
    return [command]


def _write_seeds(path: Path, stream: UUID, seating: Seed, sorteggio: Seed) -> None:
    write_secret_file(path, json.dumps({"tournament": str(stream), "seating": seating.hex,
                                        "sorteggio": sorteggio.hex}, indent=1) + "\n", "--seeds")


def _read_seeds(path: Path, stream: UUID) -> tuple[Seed, Seed]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seeds = (Seed.from_hex(data["seating"]), Seed.from_hex(data["sorteggio"]))
        named = UUID(data["tournament"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        reason = translate_error(error) if isinstance(error, SeedError) else str(error)
        raise UsageProblem(_("--seeds {path}: not a seeds file of 'verbale tournament create' "
                             "({reason})").format(path=path, reason=reason)) from None
    if named != stream:
        raise UsageProblem(_("--seeds {path}: the seeds of tournament {named}, not of "
                             "{tournament}").format(path=path, named=named, tournament=stream))
    return seeds


def _resolver(database: str | None) -> Resolve:
    """The tournament a command's ID names in the store: its id, the start of its id, or (from
    the read models) its name or a part of it; a usage problem if none or several."""
    def resolve(store: MatchStore, text: str) -> UUID:
        try:
            stream = resolve_match(store, text)
        except UsageProblem:
            stream = UUID(_named(database, text))
        return _checked(store, stream)
    return resolve


def _named(database: str | None, text: str) -> str:
    from projections.read_models.queries_tarocchi import tarocchi_streams_starting
    from replay_web.read_view import open_read_models

    with open_read_models(database) as engine:
        return _only_tournament(tarocchi_streams_starting(engine, text), text)


def _only_tournament(found: list[str], text: str) -> str:
    if len(found) != 1:
        raise UsageProblem(_("{text}: no Tarocchi tournament has this id or name").format(
            text=text) if not found else _(
            "{text}: several Tarocchi tournaments match: {candidates}").format(
            text=text, candidates=", ".join(found)))
    return found[0]


def _checked(store: MatchStore, stream: UUID) -> UUID:
    if not is_tarocchi(store, stream):
        raise UsageProblem(translate_error(NotATarocchiTournament(say(
            "{stream} is not a stored Tarocchi tournament", stream=str(stream)))))
    return stream


@tournament.command("standings")
@click.argument("tournament_text", metavar="ID")
@click.option("--turn", type=click.IntRange(1, TURNS), default=None,
              help="After which turn (default: the last seated; after turn IV: the final).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of a table.")
@database_option
def standings(tournament_text: str, turn: int | None, as_json: bool,
              database: str | None) -> None:
    """The standings after a turn, in the order of art. 9: punti partita, then the difference
    between punti partita made and conceded, the punti partita made, the solità not lost, the
    extra points, and the draw."""
    from projections.read_models.queries_tarocchi import (
        tarocchi_standings,
        tarocchi_streams_starting,
        tarocchi_tournament,
    )
    from replay_web.read_view import open_read_models

    with open_read_models(database) as engine:
        found = _only_tournament(tarocchi_streams_starting(engine, tournament_text),
                                 tournament_text)
        about = tarocchi_tournament(engine, found)
        assert about is not None
        turn = turn or about.turns
        if not 1 <= turn <= about.turns:
            raise UsageProblem(_("turn {turn} is not seated yet (seated: {seated})").format(
                turn=turn, seated=about.turns))
        lines = tarocchi_standings(engine, about.stream, turn)
    if as_json:
        click.echo(json.dumps(standings_json(about, turn, lines), ensure_ascii=False, indent=2))
        return
    echo_standings(about, turn, lines)


@tournament.command("import")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--into", "tournament_text", default=None, metavar="ID",
              help="Add the sheets to this stored tournament (default: the files hold a new "
                   "tournament's header).")
@click.option("--lenient", is_flag=True,
              help="Report every error, not only the first (nothing is stored either way).")
@click.option("--dry-run", is_flag=True, help="Read and check the sheets; store nothing.")
@database_option
def import_command(files: tuple[Path, ...], tournament_text: str | None, lenient: bool,
                   dry_run: bool, database: str | None) -> None:
    """Import a Tarocchi tournament's sheets (.csv, or the tag style): one report line per
    error and finding, by file and line; all the files enter the store together or not at
    all. The same sheets imported again store nothing. Exit code 1 when refused."""
    import_files(files, tournament_text, lenient, dry_run, database, _resolver(database))


@tournament.command("export")
@click.argument("tournament_text", metavar="ID")
@click.option("--format", "form", type=click.Choice(["tags", "csv"]), default="tags",
              show_default=True, help="The tag style (one file) or CSV (a folder of files).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="The file (tags; default: standard output) or the folder (csv, required).")
@database_option
def export(tournament_text: str, form: str, output: Path | None, database: str | None) -> None:
    """Write a tournament's sheets as they were recorded, in the forms 'tournament import'
    reads: the header (with the revealed seeds), the players' sheets, the table sheets and
    the penalties."""
    store = open_store(database, read_only=True)
    try:
        stream = _resolver(database)(store, tournament_text)
        state = cast(TarocchiState, load_tarocchi(store, stream).state)
    finally:
        store.close()
    if state.draw is None:
        raise UsageProblem(_("the seating is not drawn yet: there is nothing to export"))
    export_sheets(state, form, output)


@tournament.command("penalty")
@click.argument("tournament_text", metavar="ID")
@click.option("--player", type=click.IntRange(1), required=True, help="The player's number.")
@click.option("--turn", type=click.IntRange(1, TURNS), required=True)
@click.option("--smazzata", type=click.IntRange(1, 4), required=True)
@click.option("--article", required=True,
              help="The penalty: its article (7.a, 7.b, 8.a ... 8.f) or its code.")
@click.option("--fate", default=None,
              help="What becomes of the smazzata (default: the first its article allows).")
@click.option("--arbiter", required=True, help="The arbiter's name.")
@click.option("--reason", required=True, help="What happened.")
@click.option("--extra", type=click.IntRange(0), default=0,
              help="8.a: the punti partita already lost that the error adds.")
@click.option("--not-important", is_flag=True,
              help="8.c/8.d: the card shown was not a Re, an Aria or the Picciotti.")
@password_stdin_option
@database_option
def penalty(tournament_text: str, player: int, turn: int, smazzata: int, article: str,
            fate: str | None, arbiter: str, reason: str, extra: int, not_important: bool,
            password_stdin: bool, database: str | None) -> None:
    """Record an arbiter's penalty of art. 7-8 against a player in a smazzata, signed with the
    arbiter's key (their password is asked, hidden): the points follow from the catalogue; the
    standings count it."""
    kind = next((k for k in CATALOGUE.values() if article in (k.article, k.code)), None)
    if kind is None:
        raise UsageProblem(_("--article {article}: expected one of {known}").format(
            article=article, known=", ".join(k.article for k in CATALOGUE.values())))
    command = ImposePenalty(player, turn, smazzata, kind.code, fate or kind.fates[0].value,
                            arbiter, reason, extra, not not_important)
    signer = _signer(database, arbiter, password_stdin)
    store = open_store(database)
    try:
        stream = _resolver(database)(store, tournament_text)
        try:
            after = execute_signed_penalty(store, stream, command, signer, datetime.now(UTC),
                                           RecordedBy("arbiter", arbiter))
        except RuleViolation as refused:
            raise UsageProblem(translate_error(refused)) from None
        behind = catch_up_read_models(store, database)
    finally:
        store.close()
    ruled = cast(TarocchiState, after.state).penalties[-1]
    click.echo(_("penalty {article} ({code}) against player {player}, turn {turn}, smazzata "
                 "{smazzata}: {points} punti partita, the smazzata {fate}").format(
        article=kind.article, code=kind.code, player=player, turn=ROMAN[turn - 1],
        smazzata=smazzata, points=ruled.points, fate=ruled.fate))
    if behind is not None:
        raise behind


def _signer(database: str | None, arbiter: str, from_stdin: bool) -> Signer:
    """`arbiter`'s signing key, opened with their password: the first line of standard input,
    else asked once, hidden (as 'verbale arbiter passwd' reads it); kept nowhere."""
    password = sys.stdin.readline().rstrip("\r\n") if from_stdin \
        else str(click.prompt(_("Password"), hide_input=True, type=str))
    with accounts(database) as engine:
        return signer_for(engine, arbiter, password)
