"""The fairness report's figures as inline SVG, drawn on the server (projections/fairness/
figures.py says what each plots). No script, no style attribute (the viewer's CSP allows none):
colours are presentation attributes, and every figure has a `title` and a `desc` for readers
that cannot see it. All text comes from the caller, already translated, and is escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from projections.fairness.figures import CARDS, Bars, Heatmap, Interval

_RED, _BLUE, _GREY, _INK, _GREY_INK = "#b91c1c", "#1f5fa8", "#d4d4d4", "#222", "#8a8a8a"


@dataclass(frozen=True, slots=True)
class DealerRow:
    """One dealer's row of a per-dealer figure: his label, rate and 99% interval, whether he
    flags, whether his cell is noise, and the tooltip (already translated)."""

    label: str
    rate: float
    low: float
    high: float
    flagged: bool
    noise: bool
    tip: str
_CLIP = 4.0
_CELL = 9


def _num(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _open(width: float, height: float, title: str, desc: str, figure_id: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(width)} '
            f'{_num(height)}" width="{_num(width)}" height="{_num(height)}" role="img" '
            f'class="chart fairness-figure" id="{escape(figure_id)}">'
            f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>")


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 10) -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" '
            f'font-family="sans-serif" font-size="{size}" fill="{_INK}">{escape(text)}</text>')


def colour(z: float) -> str:
    """White at 0, red for more than expected, blue for fewer, full at |z| = 4."""
    share = min(abs(z), _CLIP) / _CLIP
    target = (185, 28, 28) if z > 0 else (31, 95, 168)
    r, g, b = (round(255 + (t - 255) * share) for t in target)
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap_svg(figure: Heatmap, title: str, desc: str, column_label: str) -> Markup:
    """Cards down (deck order), categories across, each cell coloured by its residual."""
    left, top = 30, 46
    wide = len(figure.columns) > 10
    cell_w = _CELL if wide else 44
    width = left + cell_w * len(figure.columns) + 10
    height = top + _CELL * len(CARDS) + 34
    parts = [_open(width, height, title, desc, f"figure-{figure.test}"),
             _text(left, 12, column_label)]
    for k, label in enumerate(figure.columns):
        if not wide or k % 5 == 0 or k == len(figure.columns) - 1:
            parts.append(_text(left + cell_w * (k + 0.5), top - 6, label, "middle"))
    for row, card in enumerate(CARDS):
        y = top + _CELL * row
        if row % 2 == 0 or not wide:
            parts.append(_text(left - 3, y + _CELL - 1, card, "end", 8))
        for k, z in enumerate(figure.z[row]):
            parts.append(f'<rect x="{left + cell_w * k}" y="{y}" width="{cell_w}" '
                         f'height="{_CELL}" fill="{colour(z)}"/>')
    legend_y = top + _CELL * len(CARDS) + 8
    for k, z in enumerate((-4, -2, 0, 2, 4)):
        x = left + 44 * k
        parts.append(f'<rect x="{x}" y="{legend_y}" width="14" height="10" '
                     f'fill="{colour(z)}" stroke="{_GREY}"/>')
        parts.append(_text(x + 17, legend_y + 9, f"{z:+d}" if z else "0"))
    parts.append("</svg>")
    return Markup("".join(parts))


def bars_svg(figure: Bars, title: str, desc: str, labels: tuple[str, str]) -> Markup:
    """One bar per slot; a dashed line at the expectation, a red one at the level to flag."""
    left, top, bottom, bar = 40, 16, 30, 12
    width = left + bar * len(figure.values) + 10
    height = 180
    ceiling = max(max(figure.values, default=0), figure.limit) * 1.1 or 1.0

    def y(value: float) -> float:
        return height - bottom - (height - bottom - top) * value / ceiling

    parts = [_open(width, height, title, desc, f"figure-{figure.test}")]
    parts.append(f'<line x1="{left}" y1="{_num(y(0))}" x2="{width - 10}" y2="{_num(y(0))}" '
                 f'stroke="{_INK}"/>')
    for k, value in enumerate(figure.values):
        x = left + bar * k + 1
        fill = _RED if value > figure.limit else _BLUE
        parts.append(f'<rect x="{x}" y="{_num(y(value))}" width="{bar - 2}" '
                     f'height="{_num(y(0) - y(value))}" fill="{fill}"><title>'
                     f'{escape(figure.labels[k])}: {value:.1f}</title></rect>')
        if k % 5 == 0:
            parts.append(_text(x + bar / 2, height - bottom + 12, figure.labels[k], "middle"))
    for value, stroke, label in ((figure.expected, _INK, labels[0]),
                                 (figure.limit, _RED, labels[1])):
        parts.append(f'<line x1="{left}" y1="{_num(y(value))}" x2="{width - 10}" '
                     f'y2="{_num(y(value))}" stroke="{stroke}" stroke-dasharray="4 3"/>')
        parts.append(_text(left - 3, y(value) + 3, _num(value), "end"))
        parts.append(_text(width - 12, y(value) - 3, label, "end"))
    parts.append("</svg>")
    return Markup("".join(parts))


def intervals_svg(rows: Sequence[Interval], labels: Sequence[str], title: str, desc: str,
                  figure_id: str, axis: str) -> Markup:
    """Per row: the interval a fair shuffle keeps the value in (grey), the expectation (a
    tick), the value seen (a dot: red outside the interval)."""
    label_w, plot_w, row_h, top = 250, 360, 18, 20
    lo = min(min(r.low, r.observed, r.expected) for r in rows)
    hi = max(max(r.high, r.observed, r.expected) for r in rows)
    pad = (hi - lo) * 0.05 or 1.0
    lo, hi = lo - pad, hi + pad

    def x(value: float) -> float:
        return label_w + plot_w * (value - lo) / (hi - lo)

    height = top + row_h * len(rows) + 26
    parts = [_open(label_w + plot_w + 20, height, title, desc, figure_id)]
    for k, (row, label) in enumerate(zip(rows, labels, strict=True)):
        cy = top + row_h * k + row_h / 2
        parts.append(_text(label_w - 6, cy + 3, label, "end"))
        parts.append(f'<rect x="{_num(x(row.low))}" y="{_num(cy - 4)}" '
                     f'width="{_num(max(x(row.high) - x(row.low), 1))}" height="8" '
                     f'fill="{_GREY}"/>')
        parts.append(f'<line x1="{_num(x(row.expected))}" y1="{_num(cy - 6)}" '
                     f'x2="{_num(x(row.expected))}" y2="{_num(cy + 6)}" stroke="{_INK}"/>')
        fill = _RED if row.outside else _BLUE
        parts.append(f'<circle cx="{_num(x(row.observed))}" cy="{_num(cy)}" r="4" '
                     f'fill="{fill}"><title>{escape(label)}: {row.observed:.4g} '
                     f'({row.low:.4g} … {row.high:.4g})</title></circle>')
    base = top + row_h * len(rows) + 4
    parts.append(f'<line x1="{label_w}" y1="{base}" x2="{label_w + plot_w}" y2="{base}" '
                 f'stroke="{_INK}"/>')
    for value in _ticks(lo, hi):
        parts.append(_text(x(value), base + 12, _num(value) if abs(value) >= 0.1 or value == 0
                           else f"{value:.2g}", "middle"))
    parts.append(_text(label_w + plot_w, base + 22, axis, "end"))
    parts.append("</svg>")
    return Markup("".join(parts))


def _ticks(lo: float, hi: float) -> list[float]:
    raw = (hi - lo) / 4
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step) * step
    return [round(first + k * step, 10) for k in range(int((hi - first) / step) + 1)]


def dealers_svg(rows: Sequence[DealerRow], expected: float, title: str, desc: str,
                figure_id: str, axis: str) -> Markup:
    """One event, one row per dealer: his rate (a dot) with its 99% interval (a line) against
    the event's exact probability (a dashed vertical line). Red: the dealer flags; hollow
    grey: too few deals to say anything (noise); blue otherwise."""
    label_w, plot_w, row_h, top = 110, 230, 16, 8
    hi = max([expected * 2.2, *(r.high for r in rows)]) or 1.0
    hi = min(1.0, hi * 1.05)

    def x(value: float) -> float:
        return label_w + plot_w * min(value, hi) / hi

    height = top + row_h * len(rows) + 30
    parts = [_open(label_w + plot_w + 16, height, title, desc, figure_id)]
    ex = x(expected)
    parts.append(f'<line x1="{_num(ex)}" y1="{top - 4}" x2="{_num(ex)}" '
                 f'y2="{_num(top + row_h * len(rows))}" stroke="{_INK}" '
                 f'stroke-dasharray="3 2" class="expected"/>')
    for k, row in enumerate(rows):
        cy = top + row_h * k + row_h / 2
        colour_ = _RED if row.flagged else (_GREY_INK if row.noise else _BLUE)
        parts.append(_text(label_w - 6, cy + 3, row.label, "end"))
        parts.append(f'<line x1="{_num(x(row.low))}" y1="{_num(cy)}" x2="{_num(x(row.high))}" '
                     f'y2="{_num(cy)}" stroke="{colour_}" stroke-width="2" class="interval" '
                     f'data-dealer="{escape(row.label)}"/>')
        fill = "#fff" if row.noise and not row.flagged else colour_
        parts.append(f'<circle cx="{_num(x(row.rate))}" cy="{_num(cy)}" r="3.5" fill="{fill}" '
                     f'stroke="{colour_}" class="rate" data-dealer="{escape(row.label)}">'
                     f'<title>{escape(row.tip)}</title></circle>')
    base = top + row_h * len(rows) + 4
    parts.append(f'<line x1="{label_w}" y1="{base}" x2="{label_w + plot_w}" y2="{base}" '
                 f'stroke="{_INK}"/>')
    for value in _ticks(0.0, hi):
        if value <= hi:
            parts.append(_text(x(value), base + 12, f"{value:.0%}" if value >= 0.1 or value == 0
                               else f"{value:.1%}", "middle", 9))
    parts.append(_text(label_w + plot_w, base + 23, axis, "end", 9))
    parts.append("</svg>")
    return Markup("".join(parts))
