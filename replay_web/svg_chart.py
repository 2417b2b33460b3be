"""The running totals of a match as an inline SVG line chart, drawn on the server.

One polyline per side from the start (0 points before the first smazzata) through the total
after each smazzata, with a distinct colour and marker shape each, so the chart also reads in
grey. The plot area is drawn as a `rect` of class `plot-area`, and every point lies inside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

_LEFT, _RIGHT, _TOP, _BOTTOM = 40, 14, 30, 28
_COLOURS = ("#1f5fa8", "#c2410c")
_FONT = 'font-family="sans-serif" font-size="11"'


def _num(value: float) -> str:
    """At most one decimal and no trailing zero, so that equal inputs give equal bytes."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _nice_step(raw: float) -> int:
    """The smallest step of the form 1, 2 or 5 times a power of ten that is at least `raw`."""
    power = 1
    while True:
        for m in (1, 2, 5):
            if m * power >= raw:
                return m * power
        power *= 10


@dataclass(frozen=True)
class _Frame:
    """The plot area in SVG units and the data ranges it shows."""

    x0: int
    y0: int
    x1: int
    y1: int
    count: int
    lo: int
    hi: int
    step: int

    def x(self, smazzata: int) -> float:
        return self.x0 + (self.x1 - self.x0) * smazzata / max(self.count, 1)

    def y(self, points: float) -> float:
        return self.y1 - (self.y1 - self.y0) * (points - self.lo) / (self.hi - self.lo)


def _frame(series: Sequence[tuple[int, int]], target: int | None, width: int,
           height: int) -> _Frame:
    values = [0, *(v for pair in series for v in pair)]
    if target is not None:
        values.append(target)
    lo, hi = min(values), max(values)
    step = _nice_step(max(hi - lo, 1) / 5)
    lo = math.floor(lo / step) * step
    hi = max(math.ceil(hi / step) * step, lo + step)
    return _Frame(_LEFT, _TOP, max(width - _RIGHT, _LEFT + 1), max(height - _BOTTOM, _TOP + 1),
                  len(series), lo, hi, step)


def _axes(f: _Frame, x_label: str) -> str:
    """Plot area, horizontal grid with point ticks, smazzata ticks and the axis caption."""
    out = [f'<rect class="plot-area" x="{f.x0}" y="{f.y0}" width="{f.x1 - f.x0}" '
           f'height="{f.y1 - f.y0}" fill="#fafafa" stroke="#999"/>']
    for value in range(f.lo, f.hi + 1, f.step):
        y = _num(f.y(value))
        colour = "#666" if value == 0 else "#ddd"
        out.append(f'<path d="M{f.x0} {y}H{f.x1}" stroke="{colour}"/>'
                   f'<text x="{f.x0 - 5}" y="{y}" dy="4" text-anchor="end" {_FONT}>'
                   f"{value}</text>")
    x_step = _nice_step(f.count / 10) if f.count else 1
    for smazzata in range(x_step, f.count + 1, x_step):
        x = _num(f.x(smazzata))
        out.append(f'<path d="M{x} {f.y1}v4" stroke="#666"/><text x="{x}" y="{f.y1 + 15}" '
                   f'text-anchor="middle" {_FONT}>{smazzata}</text>')
    out.append(f'<text x="{f.x1}" y="{f.y1 + 26}" text-anchor="end" {_FONT} fill="#555">'
               f"{escape(x_label)}</text>")
    return "".join(out)


def _marker(side: int, x: str, y: str) -> str:
    if side == 0:
        return f'<circle cx="{x}" cy="{y}" r="3"/>'
    return f'<rect x="{x}" y="{y}" width="6" height="6" transform="translate(-3 -3)"/>'


def _line(f: _Frame, series: Sequence[tuple[int, int]], side: int) -> str:
    points = [(_num(f.x(k)), _num(f.y(pair[side]))) for k, pair in enumerate(series, 1)]
    path = " ".join(f"{x},{y}" for x, y in [(_num(f.x(0)), _num(f.y(0))), *points])
    markers = "".join(_marker(side, x, y) for x, y in points)
    colour = _COLOURS[side]
    return (f'<g class="side{side}"><polyline points="{path}" fill="none" stroke="{colour}" '
            f'stroke-width="2"/><g fill="{colour}">{markers}</g></g>')


def _target(f: _Frame, target: int) -> str:
    y = _num(f.y(target))
    return (f'<g class="target"><path d="M{f.x0} {y}H{f.x1}" stroke="#2a7d2a" '
            f'stroke-width="1.5" stroke-dasharray="6 4"/><text x="{f.x0 + 4}" y="{y}" dy="-4" '
            f'{_FONT} fill="#2a7d2a">{target}</text></g>')


def _shorten(label: str, limit: int) -> str:
    return label if len(label) <= limit else label[:max(limit - 1, 1)] + "…"


def _legend(f: _Frame, labels: tuple[str, str]) -> str:
    half = (f.x1 - f.x0) / 2
    limit = max(int((half - 30) / 6), 4)
    out = []
    for side, label in enumerate(labels):
        x = f.x0 + side * half
        colour = _COLOURS[side]
        out.append(f'<path d="M{_num(x)} 14h18" stroke="{colour}" stroke-width="2"/>'
                   f'<g fill="{colour}">{_marker(side, _num(x + 9), "14")}</g>'
                   f'<text x="{_num(x + 24)}" y="18" {_FONT}>'
                   f"{escape(_shorten(label, limit))}</text>")
    return f'<g class="legend">{"".join(out)}</g>'


def _default_desc(series: Sequence[tuple[int, int]], labels: tuple[str, str],
                  empty_text: str) -> str:
    if not series:
        return empty_text
    last = series[-1]
    return f"{labels[0]}: {last[0]}; {labels[1]}: {last[1]}"


def running_totals_svg(series: Sequence[tuple[int, int]], labels: tuple[str, str], *,
                       target: int | None = None, title: str, empty_text: str = "",
                       desc: str | None = None, x_label: str = "smazzata",
                       width: int = 480, height: int = 200) -> Markup:
    """Both sides' totals after each smazzata (`series[k]` is after smazzata k + 1).

    All text comes from the caller, already translated, and is escaped here; `desc` defaults
    to the final totals.
    """
    f = _frame(series, target, width, height)
    text = _default_desc(series, labels, empty_text) if desc is None else desc
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" class="chart">'
             f"<title>{escape(title)}</title><desc>{escape(text)}</desc>",
             _axes(f, x_label), _legend(f, labels)]
    if target is not None:
        parts.append(_target(f, target))
    if series:
        parts.extend(_line(f, series, side) for side in (0, 1))
    else:
        parts.append(f'<text class="empty" x="{_num((f.x0 + f.x1) / 2)}" '
                     f'y="{_num((f.y0 + f.y1) / 2)}" text-anchor="middle" {_FONT} fill="#555">'
                     f"{escape(empty_text)}</text>")
    parts.append("</svg>")
    return Markup("".join(parts))
