"""Inline SVG drawings of the 40 cards, of a face-down card and of the unknown card `??`.

Drawn on the server as plain strings so that pages need no JavaScript, no font or image from
elsewhere, and so that the same card gives the same bytes on every response. Each emblem is
written once below in a 20x20 box centred on the origin and placed by a transform; no ids are
used, so any number of cards may share one HTML page.
"""

from __future__ import annotations

from typing import Literal

from markupsafe import Markup, escape

from domain.cards import SETTEBELLO, Card, Rank, Suit, is_known

SuitStyle = Literal["italian", "french"]

_W, _H = 60, 90
_OPEN = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 90" width="60" height="90" '
         'role="img" class="{cls}"><title>{title}</title>')
_PAPER = ('<rect x=".5" y=".5" width="59" height="89" rx="5" fill="{fill}" stroke="#555" '
          'stroke-width="1"/>')

# Italian emblems, in the colours of the regional packs: gold coin, red cup, cudgel, blue sword.
_DENARI = ('<circle r="9" fill="#e8b730" stroke="#7a5200" stroke-width="1.2"/>'
           '<circle r="5.6" fill="#f7d66b" stroke="#7a5200" stroke-width=".8"/>'
           '<path d="M0-3.4 3.4 0 0 3.4-3.4 0z" fill="#b3261e"/>')
_COPPE = ('<path d="M-7-7.5Q-7 1.5-1.6 3V5.5L-4.6 9H4.6L1.6 5.5V3Q7 1.5 7-7.5z" '
          'fill="#c0392b" stroke="#6e1a12" stroke-width=".8"/>'
          '<ellipse cy="-7.5" rx="7" ry="1.8" fill="#f0c040" stroke="#6e1a12" '
          'stroke-width=".8"/>')
_BASTONI = ('<g transform="rotate(-28)"><path d="M-2 10.5-4.6-7Q0-13 4.6-7L2 10.5z" '
            'fill="#a0703a" stroke="#4f3210" stroke-width=".9"/>'
            '<path d="M-3.6-1.5-6.8-4.5M3.2 2 6.6.5M-2.6 6-5.4 7.6" stroke="#2e7d32" '
            'stroke-width="2.4" stroke-linecap="round"/></g>')
_SPADE = ('<path d="M0-10.8 2.4-7V3.2H-2.4V-7z" fill="#9cc3e6" stroke="#1d4f91" '
          'stroke-width=".9"/><path d="M-6 3h12v2.3H-6zM-1.3 5.3h2.6V9h-2.6z" fill="#1d4f91"/>'
          '<circle cy="9.8" r="1.7" fill="#e0a800" stroke="#1d4f91" stroke-width=".5"/>')
_ITALIAN: dict[Suit, str] = {Suit.DENARI: _DENARI, Suit.COPPE: _COPPE,
                             Suit.BASTONI: _BASTONI, Suit.SPADE: _SPADE}
_ITALIAN_INK: dict[Suit, str] = {Suit.DENARI: "#8a5a00", Suit.COPPE: "#b3261e",
                                 Suit.BASTONI: "#2e6b1f", Suit.SPADE: "#1d4f91"}

_RED, _BLACK = "#c8102e", "#1a1a1a"
_FRENCH: dict[Suit, str] = {
    Suit.DENARI: f'<path d="M0-9.5 7 0 0 9.5-7 0z" fill="{_RED}"/>',
    Suit.COPPE: (f'<path d="M0 8.5C-4 4.5-8.5 1.5-8.5-3A4.3 4.3 0 0 1 0-5.5 4.3 4.3 0 0 1 '
                 f'8.5-3C8.5 1.5 4 4.5 0 8.5z" fill="{_RED}"/>'),
    Suit.BASTONI: (f'<g fill="{_BLACK}"><circle cy="-4.6" r="3.7"/><circle cx="-4.4" cy="1.4" '
                   'r="3.7"/><circle cx="4.4" cy="1.4" r="3.7"/><path d="M0-1 2.6 9H-2.6z"/></g>'),
    Suit.SPADE: (f'<path d="M0-9.5C3-4.5 8.5-1.5 8.5 2.5A3.9 3.9 0 0 1 1 4.5L2.6 9.5H-2.6L-1 4.5'
                 f'A3.9 3.9 0 0 1-8.5 2.5C-8.5-1.5-3-4.5 0-9.5z" fill="{_BLACK}"/>'),
}
_FRENCH_INK: dict[Suit, str] = {Suit.DENARI: _RED, Suit.COPPE: _RED,
                                Suit.BASTONI: _BLACK, Suit.SPADE: _BLACK}

# Pip centres and emblem scale for the numeral cards, within the space the corner indices leave.
_COLS, _ROWS3 = (19, 41), (21, 45, 69)
_PIPS: dict[int, tuple[tuple[float, ...], ...]] = {
    1: ((30, 45),),
    2: ((30, 26), (30, 64)),
    3: ((30, 21), (30, 45), (30, 69)),
    4: ((19, 27), (41, 27), (19, 63), (41, 63)),
    5: ((19, 25), (41, 25), (30, 45), (19, 65), (41, 65)),
    6: tuple((x, y) for y in _ROWS3 for x in _COLS),
    7: (*((x, y) for y in _ROWS3 for x in _COLS), (30, 33)),
}
_PIP_SCALE = {1: 2.0, 2: 1.05, 3: 0.95, 4: 0.95, 5: 0.85, 6: 0.75, 7: 0.68}

_SKIN = 'fill="#f3d2b3" stroke="#5a3b22" stroke-width=".7"'
_GOLD = 'fill="#f0c040" stroke="#7a5200" stroke-width=".6"'
# Headgear by rank; the head is centred at (30, {y}) with radius 5.
_HATS: dict[Rank, str] = {
    Rank.FANTE: '<path d="M24.6 {a}q5.4-7 10.8 0z" fill="{ink}"/>'
                '<path d="M34 {b}l5-4" stroke="{ink}" stroke-width="1.2"/>',
    Rank.CAVALLO: '<path d="M25.2 {a}l1.3-4.4 3.5 2.2 3.5-2.2 1.3 4.4z" ' + _GOLD + '/>',
    Rank.RE: '<path d="M24.5 {a}l-.6-6.2 3 2.8 3.1-4.6 3.1 4.6 3-2.8-.6 6.2z" ' + _GOLD + '/>',
}
_HORSE = ('<g fill="#8b5a2b" stroke="#4a2e12" stroke-width=".7"><path d="M17 57q-3 3-2 9" '
          'fill="none" stroke-width="1.6"/><ellipse cx="29" cy="58" rx="13" ry="6.5"/>'
          '<path d="M37 54 41 43.5l.8-3 1.6 2.4 6.6 3.9-1.5 2.6-4.5-1.4L41.5 58z"/></g>'
          '<path d="M19 62v11M23.5 63.5v10M35 63.5v10M39.5 62v11" stroke="#4a2e12" '
          'stroke-width="2"/>')


def _num(value: float) -> str:
    """A coordinate with at most one decimal and no trailing zero, so output is stable."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _place(emblem: str, x: float, y: float, scale: float) -> str:
    return (f'<g transform="translate({_num(x)} {_num(y)}) scale({scale:g})">'
            f"{emblem}</g>")


def _open(title: str, css_class: str, paper: str = "#fffdf7") -> str:
    head = _OPEN.format(cls=escape(css_class), title=escape(title))
    return head + _PAPER.format(fill=paper)


def default_title(card: Card, suits: SuitStyle) -> str:
    """The card's name from the domain: "sette di denari (settebello)" or "7♦"."""
    if not is_known(card):
        return card.code
    if suits == "french":
        return card.render("french")
    if card == SETTEBELLO:
        return f"{card.italian_name} (settebello)"
    return card.italian_name


def _corners(label: str, ink: str, emblem: str | None) -> str:
    """The rank in the top-left corner and, turned round, in the bottom-right one."""
    index = (f'<text x="7" y="13" font-family="serif" font-size="11" font-weight="bold" '
             f'text-anchor="middle" fill="{ink}">{escape(label)}</text>')
    if emblem is not None:
        index += _place(emblem, 7, 19.5, 0.3)
    return index + f'<g transform="rotate(180 30 45)">{index}</g>'


def _pips(emblem: str, count: int) -> str:
    scale = _PIP_SCALE[count]
    return "".join(_place(emblem, x, y, scale) for x, y in _PIPS[count])


def _figure(rank: Rank, ink: str, emblem: str, italian: bool) -> str:
    """A simple figure: a robed person with a cap (fante), a crown (re), or on horseback."""
    out = f'<rect x="12.5" y="17" width="37.5" height="56" rx="3" fill="#fbf1d6" stroke="{ink}"/>'
    mounted = italian and rank is Rank.CAVALLO
    head = 28 if mounted else 33
    if mounted:
        out += _HORSE + f'<path d="M24 57 26.5 37Q30 34 33.5 37L36 57z" fill="{ink}"/>'
    else:
        out += f'<path d="M21 72 24 43Q30 38 36 43L39 72z" fill="{ink}"/>'
    out += f'<circle cx="30" cy="{head}" r="5" {_SKIN}/>'
    out += _HATS[rank].format(ink=ink, a=head - 2.5, b=head - 4)
    return out + _place(emblem, 18, 34 if mounted else 50, 0.5)


def card_svg(card: Card, suits: SuitStyle, *, title: str | None = None,
             css_class: str = "card") -> Markup:
    """One card face as an inline `<svg>`; `title` (escaped) overrides the domain name."""
    name = default_title(card, suits) if title is None else title
    if not is_known(card):
        return unknown_svg(name, css_class=css_class)
    french = suits == "french"
    emblem = (_FRENCH if french else _ITALIAN)[card.suit]
    ink = (_FRENCH_INK if french else _ITALIAN_INK)[card.suit]
    label = card.render(suits)[:-1]
    if card.rank >= Rank.FANTE:
        body = _figure(card.rank, ink, emblem, italian=not french)
    else:
        body = _pips(emblem, int(card.rank))
    corners = _corners(label, ink, emblem if french else None)
    return Markup(_open(name, css_class) + body + corners + "</svg>")


def _lattice() -> str:
    """Diagonal lines across the inner panel of the back, clipped here rather than by an SVG
    clip path (which would need an id)."""
    x0, y0, x1, y1, step = 6, 6, 54, 84, 6
    parts: list[str] = []
    for c in range(x0 + y0 + step, x1 + y1, step):
        # the line x + y = c, and its mirror image, cut to the panel
        ax, ay = max(x0, c - y1), min(y1, c - x0)
        bx, by = min(x1, c - y0), max(y0, c - x1)
        parts.append(f"M{ax} {ay}L{bx} {by}M{x0 + x1 - ax} {ay}L{x0 + x1 - bx} {by}")
    return "".join(parts)


_BACK_BODY = ('<rect x="5" y="5" width="50" height="80" rx="3" fill="#1f3f7a"/>'
              f'<path d="{_lattice()}" stroke="#6f93cf" stroke-width=".8"/>'
              '<ellipse cx="30" cy="45" rx="12" ry="16" fill="#1f3f7a" stroke="#f0c040" '
              'stroke-width="1.5"/><path d="M30 35 36 45 30 55 24 45z" fill="#f0c040"/>')


def back_svg(title: str, *, css_class: str = "card back") -> Markup:
    """A face-down card; `title` is the caller's (translated) text, e.g. "carta coperta"."""
    return Markup(_open(title, css_class, paper="#ffffff") + _BACK_BODY + "</svg>")


_UNKNOWN_BODY = ('<rect x="9" y="17" width="42" height="56" rx="3" fill="none" stroke="#999" '
                 'stroke-width="1.2" stroke-dasharray="3 2"/><text x="30" y="57" '
                 'font-family="serif" font-size="36" font-weight="bold" text-anchor="middle" '
                 'fill="#888">?</text>')


def unknown_svg(title: str, *, css_class: str = "card unknown") -> Markup:
    """The card nobody saw (`??` in the record): a blank face with a question mark."""
    corners = _corners("??", "#777", None)
    return Markup(_open(title, css_class, paper="#f2f2f2") + _UNKNOWN_BODY + corners + "</svg>")
