"""Card faces as HTML: readable, coloured, with a text alternative.

The one card renderer of the project: the replay viewer and the web table both
draw cards with ``card_html`` (in templates: ``{% load cards %}{% card code kind %}``,
``templatetags/cards.py``), and both print sentences that name cards ("7♥") with
``words_html``, which draws the suit signs as inline SVG.

A card is drawn by CSS (``static/tabletop/site.css``) from a ``<span>``; no
images and no symbol font (suits and the joker's star are inline SVG,
``tabletop.icons``), so it scales from phone width up and stays crisp on any
machine. Every card carries ``role="img"`` and an ``aria-label`` ("7 of
hearts", "face-down card"), and a face-up card carries its code in
``data-code`` (the browser tests and the keyboard script read it). A face-down
card carries nothing that could name it.

``kind`` tells the three families of codes apart (``"7"`` is a Cabo 7 or a
Skip-Bo 7): ``french`` (pablo, pablo-50, tamalou), ``cabo`` and ``skipbo``;
``tabletop.layouts.kind_of(ruleset)`` gives it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.rules.family.presets import CABO

from .icons import icon

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAME = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
#: A Cabo card's power by value, as the rules give it (the face names it).
CABO_POWER = {int(rank): kind for rank, (kind, _optional) in CABO.powers.items()}


def card_name(code: str, kind: str) -> str:
    """Plain words for a card: ``7H`` -> "7 of hearts", ``SB`` -> "Skip-Bo wild card"."""
    if kind == "skipbo":
        return "Skip-Bo wild card" if code == "SB" else f"Skip-Bo {code}"
    if kind == "cabo":
        return f"Cabo {code}"
    if code == "JK":
        return "Joker"
    rank, suit = code[:-1], code[-1:]
    if suit not in SUIT_NAME:
        return code
    return f"{RANK_NAME.get(rank, rank)} of {SUIT_NAME[suit]}"


def card_short(code: str, kind: str) -> str:
    """A compact text form for sentences: ``7H`` -> "7♥", Cabo ``7`` -> "7", ``SB`` -> "SB"."""
    if kind == "french" and code != "JK" and code[-1:] in SUIT_SYMBOL:
        return code[:-1] + SUIT_SYMBOL[code[-1]]
    if kind == "french" and code == "JK":
        return "Joker"
    if kind == "skipbo" and code == "SB":
        return "Skip-Bo"
    return code


@lru_cache(maxsize=2048)
def _face(code: str, kind: str, size: str) -> SafeString:
    name = card_name(code, kind)
    size_cls = f" card-{size}" if size else ""
    if kind == "french":
        if code == "JK":
            return format_html(
                '<span class="card face joker{}" role="img" aria-label="Joker" title="Joker" '
                'data-code="JK"><span class="rank">{}</span><span class="suit">JOKER</span></span>',
                size_cls,
                icon("star"),
            )
        rank, suit = code[:-1], code[-1:]
        colour = "red" if suit in ("H", "D") else "black"
        return format_html(
            '<span class="card face {}{}" role="img" aria-label="{}" title="{}" data-code="{}">'
            '<span class="rank">{}</span><span class="suit">{}</span></span>',
            colour,
            size_cls,
            name,
            name,
            code,
            rank,
            icon(SUIT_NAME[suit]) if suit in SUIT_NAME else suit,
        )
    if kind == "cabo":
        try:
            value = int(code)
        except ValueError:
            value = -1
        tier = "low" if value <= 4 else "mid" if value <= 8 else "high"
        power = CABO_POWER.get(value, "")
        return format_html(
            '<span class="card face cabo cabo-{}{}" role="img" aria-label="{}" title="{}" '
            'data-code="{}"><span class="rank">{}</span><span class="suit">{}</span></span>',
            tier,
            size_cls,
            name + (f" ({power})" if power else ""),
            name,
            code,
            code,
            power or "cabo",
        )
    # skipbo
    if code == "SB":
        return format_html(
            '<span class="card face skipbo sb-wild{}" role="img" aria-label="{}" title="{}" '
            'data-code="SB"><span class="rank">SB</span><span class="suit">wild</span></span>',
            size_cls,
            name,
            name,
        )
    try:
        value = int(code)
    except ValueError:
        value = 0
    tier = "blue" if value <= 4 else "green" if value <= 8 else "red"
    return format_html(
        '<span class="card face skipbo sb-{}{}" role="img" aria-label="{}" title="{}" '
        'data-code="{}"><span class="rank">{}</span><span class="suit">Skip-Bo</span></span>',
        tier,
        size_cls,
        name,
        name,
        code,
        code,
    )


BACK = mark_safe(
    '<span class="card back" role="img" aria-label="face-down card" title="face-down card"></span>'
)
EMPTY = mark_safe(
    '<span class="card empty" role="img" aria-label="empty slot" title="empty slot"></span>'
)


def card_html(code: str | None, kind: str, *, size: str = "", unknown_to: str = "") -> SafeString:
    """One card. ``None`` is an empty slot, ``"?"`` a face-down card.

    ``unknown_to`` names the acting player when this face-up card is one they
    did not know at that moment: the card is marked, and its label says so.
    """
    if code is None:
        return EMPTY
    if code == "?":
        if not size:
            return BACK
        return mark_safe(BACK.replace('class="card back"', f'class="card back card-{size}"'))
    face = _face(code, kind, size)
    if not unknown_to:
        return face
    note = escape(f" (not known to {unknown_to})")
    name = card_name(code, kind)
    return mark_safe(
        face.replace('class="card face', 'class="card face unknown', 1)
        .replace(f'aria-label="{name}', f'aria-label="{name}{note}', 1)
        .replace(f'title="{name}"', f'title="{name}{note}"', 1)
    )


_SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}
_SYMBOLS = re.compile("[" + "".join(SUIT_SYMBOL.values()) + "]")


def suit_html(suit: str) -> SafeString:
    """A suit sign (``"H"``) as an inline SVG image named in words ("hearts")."""
    colour = "suit-red" if suit in ("H", "D") else "suit-black"
    return icon(SUIT_NAME[suit], label=SUIT_NAME[suit], css=colour)


def words_html(text: str) -> SafeString:
    """``text`` escaped, its suit signs drawn as inline SVG: "ann drew 7♣" for a page."""
    parts = _SYMBOLS.split(text)
    signs = _SYMBOLS.findall(text)
    out = [escape(parts[0])]
    for sign, rest in zip(signs, parts[1:], strict=True):
        out += [suit_html(_SYMBOL_SUIT[sign]), escape(rest)]
    return mark_safe("".join(out))
