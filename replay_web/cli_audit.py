"""`verbale audit FILE.jsonl`: the outside auditor (projections/auditor/) on an export.

The auditor imports nothing of verbale, so its report keeps each message as an English template
and its parameters (`projections.auditor.report.Message`); the report is shown here through the
catalogue (`_`), the templates marked `N_` in projections/auditor/. `--json` stays in English:
it is for programs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from projections.auditor.audit import audit
from projections.auditor.reading import read_file
from projections.auditor.report import UnreadableExport
from projections.auditor.sessions import audit_tournament
from replay_web.cli import cli
from replay_web.i18n import _


@cli.command("audit")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--keys", "keys_files", multiple=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The export of an arbiter's keys stream (verify names it 'keys of arbiter "
                   "NAME'; 'verbale export --match ID' writes it): the rulings' signatures are "
                   "then verified too. Once per arbiter.")
@click.option("--match", "match_files", multiple=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="With a tournament's export: the export of one of its matches, whose "
                   "committed match seed is then compared with what its revealed session "
                   "gives. Once per match.")
def audit_command(file: Path, as_json: bool, keys_files: tuple[Path, ...] = (),
                  match_files: tuple[Path, ...] = ()) -> None:
    """Re-check an export (`verbale export`) without verbale's rules engines: the chain, the
    seeds and their commitments, the match seed, every deal against the shuffle, the draws from
    the stock and the scores (docs/events.md, docs/shuffle.md). A tournament's export: its chain
    and its seed commitment, every revealed session against it (docs/shuffle.md section 15).
    One line per check; exit status 1 if a check failed, 2 if the file is not an export."""
    try:
        lines = read_file(file)
        keys = [read_file(path) for path in keys_files]
        matches = [read_file(path) for path in match_files]
    except UnreadableExport as error:
        click.echo(_("verbale audit: {message}").format(message=error.explain(_)), err=True)
        sys.exit(2)
    if lines[0].type == "TournamentCreated":
        report = audit_tournament(lines, str(file), matches)
    else:
        report = audit(lines, str(file), keys)
    if as_json:
        click.echo(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        for line in report.render(_):
            click.echo(line)
    if not report.ok:
        sys.exit(1)
