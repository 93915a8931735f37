"""Template tags for cards and icons, shared by the replay viewer and the web table.

    {% load cards %}
    {% card "7H" "french" %}                   a card face ("7 of hearts")
    {% card None kind %}  {% card "?" kind %}  an empty slot, a face-down card
    {% card code kind size="held" %}           sizes: "" (default), "held", "pile"
    {{ sentence|card_words }}                  "ann drew 7♣" with the suit drawn as SVG
    {% icon "trophy" %}  {% icon "next" label="Next step" %}
    {{ username|player_name }}                 a house bot's name in the reader's words

``kind`` is ``tabletop.layouts.kind_of(ruleset)``, one of ``tabletop.layouts.KINDS``.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games.names import player_name as _player_name
from tabletop import cards as faces
from tabletop import icons

register = template.Library()


@register.simple_tag
def card(code: str | None, kind: str, size: str = "", unknown_to: str = "") -> SafeString:
    return faces.card_html(code, kind, size=size, unknown_to=unknown_to)


@register.simple_tag
def icon(name: str, label: str = "") -> SafeString:
    return icons.icon(name, label=label)


@register.simple_tag
def favicon_url() -> str:
    return icons.favicon_url()


@register.filter
def card_words(text: str) -> SafeString:
    return faces.words_html(str(text))


@register.filter
def player_name(username: str) -> str:
    return _player_name(username)
