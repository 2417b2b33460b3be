"""Tables of the read-model commands: rich on a terminal, plain aligned columns otherwise (a
pipe, a file, a test), so that what a script reads stays the same whatever the terminal."""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import click


@dataclass(frozen=True, slots=True)
class Grid:
    """A table: its headers, rows of cells, the columns right-aligned (numbers), an optional
    title above it and a footer line below."""

    headers: Sequence[str]
    rows: Sequence[Sequence[str]]
    numeric: Collection[int] = ()
    title: str | None = None
    footer: str | None = None
    no_wrap: Collection[int] = field(default=(0,))


def aligned(lines: Sequence[Sequence[str]], numeric: Collection[int] = ()) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; `numeric` columns to the right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return ["  ".join(cell.rjust(w) if i in numeric else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(line, widths, strict=True))).rstrip()
            for line in lines]


def show(grid: Grid) -> None:
    """Print `grid`: a rich table on a terminal, else its title, aligned lines and footer."""
    if sys.stdout.isatty():
        _rich(grid)
        return
    if grid.title is not None:
        click.echo(grid.title)
    for line in aligned([list(grid.headers), *map(list, grid.rows)], grid.numeric):
        click.echo(line)
    if grid.footer is not None:
        click.echo(grid.footer)


def _rich(grid: Grid) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=grid.title, title_justify="left", show_edge=False, pad_edge=False,
                  header_style="bold")
    for index, title in enumerate(grid.headers):
        table.add_column(title, justify="right" if index in grid.numeric else "left",
                         no_wrap=index in grid.no_wrap, min_width=_least(grid, index))
    for cells in grid.rows:
        table.add_row(*(Text(cell) for cell in cells))   # names are not rich markup
    console = Console()
    console.print(table)
    if grid.footer is not None:
        console.print(grid.footer, style="dim")


def _least(grid: Grid, index: int) -> int:
    """The narrowest a column may be squeezed on a narrow terminal: its widest number whole,
    its longest word up to 6 characters (rich wraps or cuts the rest)."""
    cells = [row[index] for row in grid.rows]
    if index in grid.numeric:
        return max(map(len, cells), default=1)
    return min(max((len(word) for cell in cells for word in cell.split()), default=1), 6)


def echo_json(value: Any) -> None:
    """`--json`: UTF-8 as it is, indented, keys in the order built."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def pair(values: tuple[int, int] | None, sep: str = "-") -> str:
    """`26-16`; empty for none."""
    return "" if values is None else f"{values[0]}{sep}{values[1]}"
