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

``kind`` tells the families of codes apart (``"7"`` is a Cabo 7 or a
Skip-Bo 7); ``tabletop.layouts.kind_of(ruleset)`` gives it, and
``tabletop.layouts.faces(kind)`` how its faces are drawn (rank and suit, or a
number with its colour tier, a wild card, the words the rules print on a face).
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from .icons import icon
from .layouts import face_words, faces

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: The suits' icons (``tabletop.icons``).
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: The suits in words ("7 of hearts").
SUIT_WORDS = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}
RANK_NAME = {
    "A": gettext_lazy("Ace"),
    "J": gettext_lazy("Jack"),
    "Q": gettext_lazy("Queen"),
    "K": gettext_lazy("King"),
}
#: The words the rules print on a face (``Presentation.faces``: Cabo's powers), translated.
POWER_NAME = {
    "peek": pgettext_lazy("Cabo power", "peek"),
    "spy": pgettext_lazy("Cabo power", "spy"),
    "swap": pgettext_lazy("Cabo power", "swap"),
}


def card_name(code: str, kind: str) -> str:
    """Plain words for a card: ``7H`` -> "7 of hearts", ``SB`` -> "Skip-Bo wild card"."""
    f = faces(kind)
    if not f.suited:
        if f.wild and code == f.wild:
            return str(f.wild_name)
        return f"{f.label} {code}"
    if code == "JK":
        return _("Joker")
    rank, suit = code[:-1], code[-1:]
    if suit not in SUIT_NAME:
        return code
    return _("%(rank)s of %(suit)s") % {"rank": RANK_NAME.get(rank, rank), "suit": SUIT_WORDS[suit]}


def spoken(code: str | None, kind: str) -> str:
    """What a screen reader says for a card: its name, "face-down card" or "empty slot"."""
    if code is None:
        return _("empty slot")
    if code == "?":
        return _("face-down card")
    return face_name(code, kind)


def face_name(code: str, kind: str) -> str:
    """A face-up card's name as its picture says it: Cabo's ``7`` -> "Cabo 7 (peek)".

    The same words label the card's image and the link that picks it (the link's
    name holds all that its image's name says).
    """
    name = card_name(code, kind)
    f = faces(kind)
    if f.suited or (f.wild and code == f.wild):
        return name
    word = face_words(kind).get(code, "")
    shown = POWER_NAME.get(word, word)
    return name + (f" ({shown})" if shown else "")


def card_short(code: str, kind: str) -> str:
    """A compact text form for sentences: ``7H`` -> "7♥", Cabo ``7`` -> "7", ``SB`` -> "Skip-Bo"."""
    f = faces(kind)
    if f.suited and code != "JK" and code[-1:] in SUIT_SYMBOL:
        return code[:-1] + SUIT_SYMBOL[code[-1]]
    if f.suited and code == "JK":
        return _("Joker")
    if f.wild and code == f.wild:
        return f.wild_short
    return code


def card_said(code: str, kind: str) -> str:
    """A card in a sentence of "Last moves": ``card_short``, or its whole name where the
    kind asks for it (Cabo: "ann put Cabo 7 into slot 2", not "7 into slot 2")."""
    f = faces(kind)
    if f.named_in_sentences and not f.suited and not (f.wild and code == f.wild):
        return "\u00a0".join(card_name(code, kind).rsplit(" ", 1))  # never "Cabo" / "11"
    return card_short(code, kind)


def _face(code: str, kind: str, size: str) -> SafeString:
    return _face_in(code, kind, size, get_language())


@lru_cache(maxsize=4096)
def _face_in(code: str, kind: str, size: str, language: str) -> SafeString:
    name = card_name(code, kind)
    size_cls = f" card-{size}" if size else ""
    if faces(kind).suited:
        if code == "JK":
            return format_html(
                '<span class="card face joker{}" role="img" aria-label="{}" title="{}" '
                'data-code="JK"><span class="rank">{}</span><span class="suit">{}</span></span>',
                size_cls,
                name,
                name,
                icon("star"),
                name.upper(),
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
    return _numbered(code, kind, name, size_cls)


def _numbered(code: str, kind: str, name: str, size_cls: str) -> SafeString:
    f = faces(kind)
    if f.wild and code == f.wild:
        return format_html(
            '<span class="card face {} {}{}" role="img" aria-label="{}" title="{}" '
            'data-code="{}"><span class="rank" data-face="{}"></span>'
            '<span class="suit" data-face="{}"></span></span>',
            f.css,
            f.wild_css,
            size_cls,
            name,
            name,
            code,
            code,
            f.wild_mark,
        )
    try:
        value = int(code)
    except ValueError:
        value = -1
    tier = next((css for bound, css in f.tiers if value <= bound), f.tiers[-1][1])
    word = face_words(kind).get(code, "")
    shown = POWER_NAME.get(word, word)
    # The mark under the number ("swap", "Cabo") is drawn by CSS from data-face, not
    # text: a pick's name ("Pick your slot 1: Cabo 12 (swap)") must contain the words a
    # sighted user sees on it in their order (WCAG 2.5.3, axe label-content-name-
    # mismatch), and "12" + "swap" in two spans read "12swap"; the number alone is in
    # every name. The card's own name (role="img") is its aria-label all the same.
    return format_html(
        '<span class="card face {} {}{}" role="img" aria-label="{}" title="{}" '
        'data-code="{}"><span class="rank">{}</span><span class="suit" data-face="{}"></span>'
        "</span>",
        f.css,
        tier,
        size_cls,
        face_name(code, kind),
        name,
        code,
        code,
        shown or f.mark,
    )


def blank_card(css: str, words: str) -> SafeString:
    """A card-sized place without a card (``css``: "empty", "back"), named ``words``."""
    return format_html(
        '<span class="card {}" role="img" aria-label="{}" title="{}"></span>', css, words, words
    )


def card_html(
    code: str | None, kind: str, *, size: str = "", unknown_to: str = "", where: str = ""
) -> SafeString:
    """One card. ``None`` is an empty slot, ``"?"`` a face-down card.

    ``unknown_to`` names the acting player when this face-up card is one they
    did not know at that moment: the card is marked, and its label says so.
    ``where`` puts the card's place before its spoken name ("your slot 2, face down").
    """
    if code is None:
        html = blank_card("empty", spoken(code, kind))
    elif code == "?":
        html = blank_card(f"back card-{size}" if size else "back", spoken(code, kind))
    else:
        html = _face(code, kind, size)
        if unknown_to:
            note = escape(_(" (not known to %(name)s)") % {"name": unknown_to})
            name = escape(card_name(code, kind))
            html = mark_safe(
                html.replace('class="card face', 'class="card face unknown', 1)
                .replace(f'aria-label="{name}', f'aria-label="{name}{note}', 1)
                .replace(f'title="{name}"', f'title="{name}{note}"', 1)
            )
    if where:
        html = mark_safe(html.replace('aria-label="', f'aria-label="{escape(where)}: ', 1))
    return html


_SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}
_SYMBOLS = re.compile("[" + "".join(SUIT_SYMBOL.values()) + "]")


def suit_html(suit: str) -> SafeString:
    """A suit sign (``"H"``) as an inline SVG image named in words ("hearts")."""
    colour = "suit-red" if suit in ("H", "D") else "suit-black"
    return icon(SUIT_NAME[suit], label=str(SUIT_WORDS[suit]), css=colour)


def words_html(text: str) -> SafeString:
    """``text`` escaped, its suit signs drawn as inline SVG: "ann drew 7♣" for a page.
    A card's rank and its suit stay on one line (``nowrap``): a line may break before
    an inline image, and "2" ended one line with its "♣" on the next."""
    parts = _SYMBOLS.split(text)
    signs = _SYMBOLS.findall(text)
    out = []
    for i, sign in enumerate(signs):
        head, rank = _LAST_WORD.match(parts[i]).groups()
        suit = suit_html(_SYMBOL_SUIT[sign])
        out.append(escape(head))
        out.append(f'<span class="nowrap">{escape(rank)}{suit}</span>' if rank else suit)
    out.append(escape(parts[-1]))
    return mark_safe("".join(out))


_LAST_WORD = re.compile(r"(.*?)(\S*)\Z", re.S)
