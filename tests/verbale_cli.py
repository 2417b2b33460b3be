"""The `verbale` command run in the test's process, as the tests of several packages use it."""

from __future__ import annotations

from click.testing import CliRunner

from replay_web.cli import _register, cli


def run(*args: str) -> tuple[int, str]:
    """The exit code and everything printed (standard output and error) of `verbale ARGS`."""
    _register()
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output
