"""replay_web/cli.py: every failure is one line and an exit code; --debug shows the traceback
of a bug; a command's module is loaded only when that command runs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner, Result

from replay_web import cli as cli_module
from replay_web.cli import BUG, ENVIRONMENT, USAGE, _register, cli

_register()


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["--lang", "en", *args])


def test_a_bug_is_one_line_with_exit_3_and_debug_shows_its_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from replay_web import cli_legal

    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(cli_legal, "parse_hand", broken, raising=False)
    monkeypatch.setattr("domain.cirulla.captures.legal_plays_on", broken)
    monkeypatch.setattr("replay_web.cli_cirulla.legal_plays_on", broken, raising=False)
    result = run("legal", "cirulla", "--table", "4c", "--hand", "4d")
    assert result.exit_code == BUG
    assert result.stderr == ("verbale: internal error, a bug in verbale: ZeroDivisionError: a bug "
                             "(run again with --debug for the traceback)\n")
    debug = CliRunner().invoke(cli, ["--debug", "legal", "cirulla", "--table", "4c", "--hand",
                                     "4d"])
    assert isinstance(debug.exception, ZeroDivisionError)


@pytest.mark.parametrize(("args", "code", "line"), [
    (("nosuch",), USAGE, "verbale: No such command 'nosuch'. (see 'verbale --help')"),
    (("simulate", "cirulla", "--players", "5"), USAGE,
     "verbale simulate cirulla: Invalid value for --players: '5' is not one of '2', '4'."),
    (("legal", "cirulla", "--table", "4c"), USAGE,
     "verbale legal cirulla: Missing option --hand."),
    (("verify", "--database", "sqlite:///never/there.db"), ENVIRONMENT,
     "verbale: store sqlite:///never/there.db: no store there: the file never/there.db does not "
     "exist (nor its directory never); nothing was created"),
])
def test_each_failure_is_one_line_and_its_code(args: tuple[str, ...], code: int,
                                               line: str) -> None:
    result = run(*args)
    assert (result.exit_code, result.stderr) == (code, line + "\n")
    assert result.stdout == ""


def test_a_command_s_module_is_imported_only_when_it_runs() -> None:
    program = ("import sys; from replay_web.cli import main; sys.argv = ['verbale', 'legal', "
               "'cirulla', '--table', '4c', '--hand', '4d']\n"
               "try:\n    main()\nexcept SystemExit:\n    pass\n"
               "print(sorted(m for m in ('psycopg', 'eventsourcing', 'replay_web.cli_store', "
               "'replay_web.cli_verify', 'domain.demo.matches') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines()[-1] == "[]"
    assert cli_module.LazyGroup is not None
