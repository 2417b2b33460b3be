"""The audit log's commands (docs/audit-log.md): `verbale keygen`, `verbale checkpoint` (on
demand, or once per tournament round that is over), `verbale prove` (a match's inclusion proof,
or the consistency of two checkpoints), and what `verbale verify --against` says.

The store is only read: a checkpoint is a file beside the store, signed with a key that never
enters it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import click
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from domain.record.audit import Severity
from projections.audit_log.checkpoint import (
    Signed,
    key_id,
    keygen,
    load_private,
    load_public,
    read_checkpoint,
    verify,
)
from projections.audit_log.proofs import (
    Made,
    checkpoint_store,
    consistency_proof,
    match_proof,
    read_heads,
    write_checkpoint,
)
from projections.audit_log.rounds import Round, covering, round_file, round_files, rounds_of
from projections.audit_log.verify_against import Against, verify_against
from projections.store.app import MatchStore
from replay_web.cli import CommandFailed, UsageProblem, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext, translate
from replay_web.match_ids import check_match_text, resolve_match
from replay_web.tables import Grid, echo_json, show

_FILE = click.Path(dir_okay=False, path_type=Path)


@cli.command("keygen")
@click.argument("path", type=_FILE)
def keygen_command(path: Path) -> None:
    """Make the key that signs the audit log's checkpoints: the private key at PATH (readable
    by its owner only) and the public key at PATH.pub. Neither file is ever overwritten. Keep
    the private key away from the database and its backups; give the public key to whoever
    keeps the checkpoints."""
    files = keygen(path)
    click.echo(_("private key written to {private} (keep it away from the database and its "
                 "backups)").format(private=files.private))
    click.echo(_("public key written to {public}: give it to whoever checks the "
                 "checkpoints").format(public=files.public))


@cli.command("checkpoint")
@click.option("--key", "key_path", type=_FILE, required=True,
              help="The private key made by 'verbale keygen'.")
@click.option("-o", "--output", type=_FILE, default=None,
              help="Write the checkpoint to FILE, its heads to FILE.heads (default: "
                   "checkpoint-TIME.txt in --dir).")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True, help="Where the checkpoints are kept.")
@click.option("--after-round", is_flag=True,
              help="One checkpoint for each tournament round that is over and has none yet in "
                   "--dir, named TOURNAMENT-round-N.txt.")
@click.option("--tournament", "tournament_text", default=None,
              help="With --after-round: only this tournament (its id, the start of it, or its "
                   "name).")
@click.option("--round", "round_number", type=click.IntRange(1), default=None,
              help="With --after-round and --tournament: only this round; refused while a "
                   "match of it is in play.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
@database_option
def checkpoint_command(key_path: Path, output: Path | None, directory: Path, after_round: bool,
                       tournament_text: str | None, round_number: int | None, as_json: bool,
                       database: str | None) -> None:
    """Sign a checkpoint of the audit log: the number of events stored, the root of the
    Merkle tree over them and the time, written with the heads of every stream beside it. The
    store is only read. With --after-round, a checkpoint for each round that is over."""
    if not after_round and (tournament_text is not None or round_number is not None):
        raise UsageProblem(_("--tournament and --round choose rounds for --after-round"))
    if after_round and output is not None:
        raise UsageProblem(_("--after-round names its files itself, in --dir: -o cannot be "
                             "used with it"))
    if round_number is not None and tournament_text is None:
        raise UsageProblem(_("--round needs --tournament"))
    key = load_private(key_path)
    store = open_store(database, read_only=True)
    try:
        if after_round:
            _after_round(store, key, directory, tournament_text, round_number, as_json)
            return
        made = checkpoint_store(store, key, datetime.now(UTC))
    finally:
        store.close()
    target = output or directory / f"checkpoint-{_compact(made.signed.checkpoint.time)}.txt"
    heads = write_checkpoint(made, _made_room(target))
    if as_json:
        echo_json(_made_json(made, target, heads))
        return
    click.echo(_said(made))
    click.echo(_("written to {file}, the heads of its streams to {heads}").format(
        file=target, heads=heads))


def _made_room(target: Path) -> Path:
    """`target`, its folder created if missing."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandFailed(_("cannot write {file}: {reason}").format(
            file=target, reason=error.strerror or error)) from None
    return target


def _compact(time: str) -> str:
    """`20261125T130000Z` from a checkpoint's time."""
    return time.partition(".")[0].replace("-", "").replace(":", "") + "Z"


def _said(made: Made) -> str:
    done = made.signed.checkpoint
    return ngettext("checkpoint of {size} event, root {root}, at {time}",
                    "checkpoint of {size} events, root {root}, at {time}", done.size).format(
                        size=done.size, root=done.root, time=done.time)


def _made_json(made: Made, target: Path, heads: Path) -> dict[str, Any]:
    done = made.signed.checkpoint
    return {"file": str(target), "heads": str(heads), "origin": done.origin, "size": done.size,
            "root": done.root, "time": done.time}


def _after_round(store: MatchStore, key: Ed25519PrivateKey, directory: Path,
                 tournament_text: str | None, round_number: int | None, as_json: bool) -> None:
    """A checkpoint for each round over and not yet checkpointed in `directory` (all get the
    same one, made now); the rounds in play are listed, not checkpointed."""
    rounds = rounds_of(store)
    if tournament_text is not None:
        only = _tournament(rounds, tournament_text)
        rounds = [r for r in rounds if r.tournament == only]
    if round_number is not None:
        rounds = [r for r in rounds if r.number == round_number]
        _one_round_due(rounds, tournament_text or "", round_number, directory)
    due = [r for r in rounds if r.over and covering(directory, r) is None]
    made = checkpoint_store(store, key, datetime.now(UTC)) if due else None
    written: dict[Round, tuple[Path, Path]] = {}
    for found in due:
        assert made is not None
        target = round_file(directory, found, len(round_files(directory, found)) + 1)
        written[found] = (target, write_checkpoint(made, _made_room(target)))
    _report_rounds(rounds, written, made, directory, as_json)


def _tournament(rounds: list[Round], text: str) -> UUID:
    """The tournament `--tournament` names among those with rounds: its id, the start of its
    id, or its name; a usage problem if none or several."""
    names = {r.tournament: r.name for r in rounds}
    digits = text.strip().replace("-", "").lower()
    found = [t for t, name in names.items() if name == text.strip()] or (
        [t for t in names if t.hex.startswith(digits)] if len(digits) >= 4 else [])
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageProblem(_("--tournament {text}: no tournament with a match in a round has "
                             "this id or name").format(text=text))
    raise UsageProblem(_("--tournament {text}: several tournaments: {candidates}; give more "
                         "of the id").format(text=text, candidates=", ".join(map(str, found))))


def _one_round_due(rounds: list[Round], tournament: str, number: int, directory: Path) -> None:
    if not rounds:
        raise UsageProblem(_("tournament {tournament} has no match in round {round}").format(
            tournament=tournament, round=number))
    found = rounds[0]
    if not found.over:
        raise CommandFailed(ngettext(
            "round {round} of {name} is still in play ({matches} has not ended): no checkpoint "
            "made", "round {round} of {name} is still in play ({matches} have not ended): no "
            "checkpoint made", len(found.in_play)).format(
                round=number, name=found.name,
                matches=", ".join(str(m) for m in found.in_play)))
    done = covering(directory, found)
    if done is not None:
        raise CommandFailed(_("round {round} of {name} has its checkpoint already: "
                              "{file}").format(round=number, name=found.name, file=done))


def _report_rounds(rounds: list[Round], written: dict[Round, tuple[Path, Path]],
                   made: Made | None,
                   directory: Path, as_json: bool) -> None:
    def state(found: Round) -> str:
        if found in written:
            return "written"
        return "checkpointed" if found.over else "in-play"

    def file(found: Round) -> Path | None:
        return written[found][0] if found in written else covering(directory, found)

    if as_json:
        echo_json({"checkpoint": None if made is None else _made_json(
                       made, *next(iter(written.values()))),
                   "rounds": [{"tournament": str(r.tournament), "name": r.name,
                               "round": r.number, "matches": len(r.matches),
                               "in_play": [str(m) for m in r.in_play], "state": state(r),
                               "file": None if file(r) is None else str(file(r))}
                              for r in rounds]})
        return
    words = {"written": _("checkpoint written"), "checkpointed": _("checkpointed before"),
             "in-play": _("in play: no checkpoint yet")}
    if rounds:
        show(Grid([_("tournament"), _("round"), _("matches"), _("in play"), _("checkpoint")],
                  [[r.name, str(r.number), str(len(r.matches)), str(len(r.in_play)),
                    f"{words[state(r)]}: {file(r)}" if r.over else words[state(r)]]
                   for r in rounds], numeric=(1, 2, 3)))
    if made is not None:
        click.echo(_said(made))
    elif not rounds:
        click.echo(_("no tournament round holds a match: no checkpoint made"))
    else:
        click.echo(_("no round has ended since its last checkpoint: no checkpoint made"))


@cli.command("prove")
@click.option("--match", "match_text", default=None,
              help="The inclusion proof of every event of this match (its id or the start of "
                   "it) in --checkpoint.")
@click.option("--checkpoint", "checkpoint_path", type=_FILE, default=None,
              help="The checkpoint the match is proved in.")
@click.option("--consistency", nargs=2, type=_FILE, default=None, metavar="OLD NEW",
              help="The proof that checkpoint OLD's events are the first of checkpoint NEW's.")
@click.option("-o", "--output", type=_FILE, default=None,
              help="Write the proof to FILE, all or nothing (default: standard output).")
@database_option
def prove_command(match_text: str | None, checkpoint_path: Path | None,
                  consistency: tuple[Path, Path] | None, output: Path | None,
                  database: str | None) -> None:
    """Prove from the store, as JSON that docs/verify_checkpoint.py checks without verbale:
    that a match's events are in a checkpoint (--match ID --checkpoint FILE), or that an older
    checkpoint's events are the first of a newer one's (--consistency OLD NEW). The store is
    only read; no proof is made when it no longer holds what the checkpoint signed."""
    if (match_text is None) == (consistency is None) or \
            (match_text is None) != (checkpoint_path is None):
        raise UsageProblem(_("give --match ID --checkpoint FILE, or --consistency OLD NEW"))
    if match_text is not None:
        check_match_text(match_text)
    signed = [read_checkpoint(path) for path in
              ((checkpoint_path,) if consistency is None else consistency) if path is not None]
    store = open_store(database, read_only=True)
    try:
        if match_text is not None:
            stream = resolve_match(store, match_text)
            proof = match_proof(store, signed[0].checkpoint, stream)
            said = ngettext("inclusion proof of {n} event of match {stream} in the checkpoint "
                            "of {size} events", "inclusion proof of {n} events of match "
                            "{stream} in the checkpoint of {size} events",
                            len(proof["events"])).format(n=len(proof["events"]), stream=stream,
                                                         size=proof["tree_size"])
        else:
            proof = consistency_proof(store, signed[0].checkpoint, signed[1].checkpoint)
            said = _("consistency proof of the checkpoint of {old} events in the one of {new} "
                     "events").format(old=proof["old_size"], new=proof["new_size"])
    finally:
        store.close()
    _write_proof(proof, said, output)


def _write_proof(proof: dict[str, Any], said: str, output: Path | None) -> None:
    from projections.store.export import write_whole

    text = json.dumps(proof, ensure_ascii=False, indent=2) + "\n"
    if output is None or str(output) == "-":
        click.echo(text, nl=False)
        click.echo(_("{proof}: written to standard output").format(proof=said), err=True)
        return
    try:
        write_whole(output, text.encode("utf-8"))
    except OSError as error:
        raise CommandFailed(_("cannot write {file}: {reason}").format(
            file=output, reason=error.strerror or error)) from None
    click.echo(_("{proof}: written to {file}").format(proof=said, file=output))


# ---- verify --against ---------------------------------------------------------------------


@dataclass(frozen=True)
class Anchor:
    """What `verify --against` compares the store with: a checkpoint whose signature holds,
    its public key, and the heads beside the checkpoint (None: none there)."""

    path: Path
    signed: Signed
    public: Ed25519PublicKey
    heads: str | None

    def compare(self, store: MatchStore) -> Against:
        return verify_against(store, self.signed, self.public, self.heads)


def anchor_of(against: Path | None, public_key: Path | None,
              match_text: str | None) -> Anchor | None:
    """`--against CHECKPOINT --public-key PUB`, read before the store is opened (None when not
    asked); a usage problem when the options do not go together, a failed check (exit 1)
    when the checkpoint is not signed by that key."""
    if against is None:
        if public_key is not None:
            raise UsageProblem(_("--public-key is the key of --against CHECKPOINT"))
        return None
    if public_key is None:
        raise UsageProblem(_("--against needs --public-key, the key the checkpoint was "
                             "signed with"))
    if match_text is not None:
        raise UsageProblem(_("--against compares the whole store with the checkpoint: it "
                             "cannot be used with --match"))
    public, signed = load_public(public_key), read_checkpoint(against)
    verify(signed, public)
    return Anchor(against, signed, public, read_heads(against))


def against_lines(anchor: Anchor, found: Against) -> list[str]:
    """What `verify --against` prints: the checkpoint, each finding, and what was appended."""
    done = found.checkpoint
    lines = [_("against the checkpoint {file}: {size} events at {time}, signature good (key "
               "{key})").format(file=anchor.path, size=done.size, time=done.time,
                                key=key_id(anchor.public).hex())]
    if anchor.heads is None:
        lines.append("    " + _("no heads beside the checkpoint ({file}): a change is caught, "
                                "not the stream it touched").format(
                                    file=anchor.path.name + ".heads"))
    for finding in found.findings:
        message = translate(finding.message)
        if finding.severity is Severity.FINDING:
            message = _("for the arbiter: {message}").format(message=message)
        elif finding.severity is Severity.NOTE:
            message = _("note: {message}").format(message=message)
        lines.append(f"    [{finding.kind}] {message}")   # the message names the stream
    since = ngettext("{n} event stored since", "{n} events stored since",
                     found.appended).format(n=found.appended)
    if found.failed:
        lines.append(ngettext("the store does not hold what the checkpoint signed: {n} finding; "
                              "{since}", "the store does not hold what the checkpoint signed: "
                              "{n} findings; {since}", len(found.findings)).format(
                                  n=len(found.findings), since=since))
        return lines
    new = ngettext("{n} new stream", "{n} new streams", found.new_streams).format(
        n=found.new_streams)
    held = _("the store holds the checkpoint's {size} events unchanged; {since}, {new}").format(
        size=done.size, since=since, new=new)
    flagged = sum(f.severity is Severity.FINDING for f in found.findings)
    if flagged:   # appended to matches that had ended, not by a key the checkpoint holds
        held = _("{summary}; {findings}").format(summary=held, findings=ngettext(
            "{n} finding for the arbiter", "{n} findings for the arbiter",
            flagged).format(n=flagged))
    notes = len(found.findings) - flagged
    if notes:
        held = _("{summary}; {notes}").format(summary=held, notes=ngettext(
            "{n} note", "{n} notes", notes).format(n=notes))
    lines.append(held)
    return lines
