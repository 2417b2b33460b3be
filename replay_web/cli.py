"""The `verbale` console command: a thin layer over domain, projections and importers.

Each feature registers its own click commands from its own module; this module only groups them,
loads a command's module when that command is asked for (so that `verbale legal ...` does not
import the event store), and turns every failure into one line and an exit code:

- 0 done; 1 a problem of the environment (the database, the disk, the network) or a check that
  failed; 2 a usage problem (a bad option, a bad value, an unknown match); 3 a bug in verbale
  (`--debug` shows its traceback for a bug report); 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from replay_web.early_workers import start_early
from replay_web.i18n import _, choose_language, localize, translate_error

ENVIRONMENT, USAGE, BUG, INTERRUPTED = 1, 2, 3, 130

# command path -> the module that registers it (imported on first use).
_LAZY: dict[str, dict[str, str]] = {
    "": {"verify": "replay_web.cli_verify", "export": "replay_web.cli_export",
         "audit": "replay_web.cli_audit", "matches": "replay_web.cli_matches",
         "project": "replay_web.cli_project", "rebuild": "replay_web.cli_project",
         "vp": "replay_web.cli_vp", "scores": "replay_web.cli_scores",
         "standings": "replay_web.cli_standings", "player": "replay_web.cli_standings",
         "serve": "replay_web.cli_serve", "import": "replay_web.cli_import",
         "fairness": "replay_web.cli_fairness",
         "tournament": "replay_web.cli_tournament",
         "keygen": "replay_web.cli_auditlog", "checkpoint": "replay_web.cli_auditlog",
         "prove": "replay_web.cli_auditlog",
         **{name: "replay_web.cli_tournament_seeds"
            for name in ("commit-seeds", "reveal-session", "session-seed")}},
    "simulate": {"cirulla": "replay_web.cli_cirulla", "briscola": "replay_web.cli_briscola",
                 "matches": "replay_web.cli_store"},
    "legal": {"cirulla": "replay_web.cli_cirulla", "briscola": "replay_web.cli_briscola"},
    "arbiter": {name: "replay_web.cli_arbiter"
                for name in ("add", "passwd", "remove", "list", "links", "rotate-secret")},
}


database_option = click.option(
    "--database", default=None,
    help="Database URL (default: $VERBALE_DATABASE_URL, else sqlite:///var/verbale.db).")
"""The `--database` option of every command that reads or writes the store."""


class CommandFailed(click.ClickException):
    """A problem of the environment or a failed check: one line, exit code 1."""

    exit_code = ENVIRONMENT


class UsageProblem(click.ClickException):
    """A bad input from the user (not a bad option's syntax, which click reports): exit 2."""

    exit_code = USAGE


class LazyGroup(click.Group):
    """A group whose subcommands' modules are imported only when one of them is used."""

    def _lazy(self) -> dict[str, str]:
        return _LAZY.get("" if self.name == "verbale" else str(self.name), {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self._lazy()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self._lazy():
            importlib.import_module(self._lazy()[cmd_name])
        command = super().get_command(ctx, cmd_name)
        # Help texts are written in English; shown in the language chosen for this run.
        return localize(command) if command is not None else None


class VerbaleGroup(LazyGroup):
    """The top group: runs the command and maps whatever it raises to one line and a code."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        debug = "--debug" in argv
        choose_language(_lang_of(argv))
        start_early(argv)   # verify --jobs: the workers' imports beside this process's
        localize(self)
        try:
            code = super().main(argv, prog_name or "verbale", complete_var,
                                standalone_mode=False, **extra)
        except (click.exceptions.Abort, KeyboardInterrupt):
            _fail(_("verbale: interrupted"), INTERRUPTED)
        except click.ClickException as error:
            _fail(_one_line(error), error.exit_code)
        except click.exceptions.Exit as done:
            code = done.exit_code
        except SystemExit:
            raise
        except BrokenPipeError:
            # The reader went away (`verbale ... | head`): not an error of verbale's.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as error:
            if debug:
                raise
            code_, message = classify(error)
            _fail(_("verbale: {message}").format(message=message), code_)
        sys.exit(code if isinstance(code, int) else 0)


def _lang_of(argv: list[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
    return None


def _one_line(error: click.ClickException) -> str:
    if isinstance(error, click.BadParameter) and error.param_hint is None and error.param:
        error.param_hint = "/".join(getattr(error.param, "opts", []) or [str(error.param.name)])
    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else "verbale"
    if isinstance(error, click.UsageError) and not isinstance(error, click.BadParameter):
        return _("{command}: {message} (see '{command} --help')").format(
            command=command, message=error.format_message())
    return f"{command}: {error.format_message()}"


def classify(error: BaseException) -> tuple[int, str]:
    """The exit code and the one line for an exception no command turned into a message."""
    code = getattr(error, "exit_code", None)
    if isinstance(code, int) and code in (ENVIRONMENT, USAGE):
        return code, translate_error(error)
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return ENVIRONMENT, f"{where}{error.strerror or error}"
    return BUG, _("internal error, a bug in verbale: {kind}: {message} (run again with --debug "
                  "for the traceback)").format(kind=type(error).__name__, message=error)


def _fail(message: str, code: int) -> NoReturn:
    click.echo(_excerpt(message), err=True)
    sys.exit(code)


def _excerpt(message: str, limit: int = 400) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


@click.group(name="verbale", cls=VerbaleGroup,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="verbale")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True,
              help="On an unexpected error, show the Python traceback (for a bug report).")
@click.option("--lang", type=click.Choice(["it", "en"]), expose_value=False, is_eager=True,
              help="Language of the messages (default: from the locale; else English).")
def cli() -> None:
    """verbale: record, replay and audit Italian card games."""


@cli.group(cls=LazyGroup)
def simulate() -> None:
    """Play a simulated match with a simple bot and print its log."""


@cli.group(cls=LazyGroup)
def legal() -> None:
    """The arbiter's quick check: every legal play in a position."""


@cli.group(cls=LazyGroup)
def arbiter() -> None:
    """The viewer's arbiter accounts, and the links that show a match to one seat."""


def _register() -> None:
    """Import every command module (tests and the help of the whole command use it)."""
    for table in _LAZY.values():
        for module in set(table.values()):
            importlib.import_module(module)


def main() -> None:
    cli.main()
