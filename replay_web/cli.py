"""The `verbale` console command: a thin layer over domain, projections and importers.

Each feature registers its own click commands from its own module; this module only groups them.
"""

from __future__ import annotations

import sys

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="verbale")
def cli() -> None:
    """verbale: record, replay and audit Italian card games."""


@cli.group()
def simulate() -> None:
    """Play a simulated match with a simple bot and print its log."""


@cli.group()
def legal() -> None:
    """The arbiter's quick check: every legal play in a position."""


def _register() -> None:
    # Imported for their side effect of adding commands to the groups above.
    from replay_web import (
        cli_audit,  # noqa: F401
        cli_briscola,  # noqa: F401
        cli_cirulla,  # noqa: F401
        cli_store,  # noqa: F401
    )


def main() -> None:
    _register()
    try:
        cli.main(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        sys.exit(130)
