"""Template tags of the table: clickable cards (icons and faces: ``{% load cards %}``, tabletop)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from play.selection import Pick
from tabletop.cards import blank_card

register = template.Library()


@register.simple_tag
def pick(selection: Any, html: Any) -> SafeString:
    """``html`` (a card) as a link that picks it, when it can be picked now."""
    if html is None or html == "":
        html = blank_card("empty", gettext("empty pile"))
    return card_link(selection, html)


def card_link(pick: Pick | None, html: SafeString) -> SafeString:
    """``html`` inside a link that picks (or unpicks) the card: ``?sel=`` the selection after."""
    if pick is None:
        return html
    return format_html(
        '<a class="pick{}" href="?sel={}" data-sel="{}" data-ref="{}" role="button" '
        'aria-label="{}" aria-pressed="{}">{}</a>',
        " picked" if pick.selected else (" quiet" if pick.quiet else ""),
        pick.sel,
        pick.sel,
        pick.ref,
        pick.label,
        "true" if pick.selected else "false",
        html,
    )
