"""Icons as inline SVG: no glyph on a page depends on an emoji or symbol font.

Headless browsers on servers and many phones have no emoji font, so characters
such as ⏮ or 🏆 come out as empty boxes. Every icon here is a small SVG path
drawn in ``currentColor`` at the size of the text around it (``.icon`` in
``static/tabletop/site.css``). ``icon(name)`` is decorative (hidden from
screen readers: the link or button around it carries the words);
``icon(name, label="…")`` stands for a word and says it.

In templates: ``{% load cards %}{% icon "trophy" %}`` (see ``templatetags/cards.py``).
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

#: name -> the SVG's inner markup, on a 16 x 16 grid
PATHS = {
    "first": '<path d="M2.5 2h2v12h-2zM14 2v12L5.5 8z"/>',
    "last": '<path d="M11.5 2h2v12h-2zM2 2v12l8.5-6z"/>',
    "prev": '<path d="M12 2v12L3 8z"/>',
    "next": '<path d="M4 2v12l9-6z"/>',
    "back-to": '<path d="M1.5 2h2v12h-2zM15 7H8.3l2.6-2.6-1.4-1.4L4.5 8l5 5 1.4-1.4L8.3 9H15z"/>',
    "on-to": '<path d="M12.5 2h2v12h-2zM1 7h6.7L5.1 4.4 6.5 3l5 5-5 5-1.4-1.4L7.7 9H1z"/>',
    "arrow-left": '<path d="M15 7H4.8l3.6-3.6L7 2 1 8l6 6 1.4-1.4L4.8 9H15z"/>',
    "arrow-right": '<path d="M1 7h10.2L7.6 3.4 9 2l6 6-6 6-1.4-1.4L11.2 9H1z"/>',
    "trophy": (
        '<path d="M4 1.5h8V3h2.5v1.8c0 1.8-1.3 3.2-3 3.4A4.2 4.2 0 0 1 9 10.6V12h2.5v2.5h-7V12H7'
        "v-1.4a4.2 4.2 0 0 1-2.5-2.4c-1.7-.2-3-1.6-3-3.4V3H4zm0 3H2.9v.3c0 .9.5 1.6 1.3 1.9"
        'A9 9 0 0 1 4 5zm8 0V5c0 .4 0 .8-.1 1.2.8-.3 1.2-1 1.2-1.9v-.3z"/>'
    ),
    "megaphone": (
        '<path d="M1 6.2C1 5.5 1.5 5 2.2 5H5l7-3.5v13L5 11H4.6l1 3.5H3.4L2.3 11A1.3 1.3 0 0 1 1 '
        '9.8zM13.2 5.6a2.8 2.8 0 0 1 0 4.8z"/>'
    ),
    "clock": (
        '<path d="M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1zm0 1.8a5.2 5.2 0 1 1 0 10.4A5.2 5.2 0 0 1 8 '
        '2.8zM7.1 4v4.6l3.4 2.1.9-1.5-2.5-1.5V4z"/>'
    ),
    "star": '<path d="M8 .8l2.1 5 5.4.4-4.1 3.5 1.3 5.3L8 12.2 3.3 15l1.3-5.3L.5 6.2l5.4-.4z"/>',
    # the four French suits
    "spades": (
        '<path d="M8 1C6 3.6 1.6 6.6 1.6 9.7c0 1.9 1.4 3.2 3.1 3.2 1.1 0 2.1-.5 2.6-1.4L6.6 15h2.8'
        'l-.7-3.5c.5.9 1.5 1.4 2.6 1.4 1.7 0 3.1-1.3 3.1-3.2C14.4 6.6 10 3.6 8 1z"/>'
    ),
    "hearts": (
        '<path d="M8 14.6C5.6 12.4 1.4 9.4 1.4 5.7 1.4 3.6 3 2 5 2c1.3 0 2.4.7 3 1.8C8.6 2.7 9.7 2'
        ' 11 2c2 0 3.6 1.6 3.6 3.7 0 3.7-4.2 6.7-6.6 8.9z"/>'
    ),
    "diamonds": '<path d="M8 1l5.6 7L8 15 2.4 8z"/>',
    "clubs": (
        '<circle cx="8" cy="4.6" r="3.1"/><circle cx="4.4" cy="9.4" r="3.1"/>'
        '<circle cx="11.6" cy="9.4" r="3.1"/><path d="M7.3 7.5h1.4l.9 7.5H6.4z"/>'
    ),
}


def icon(name: str, label: str = "", css: str = "") -> SafeString:
    """The icon ``name`` as inline SVG; with ``label`` it is an image with that name."""
    classes = f"icon icon-{name}" + (f" {css}" if css else "")
    if label:
        return format_html(
            '<svg class="{}" viewBox="0 0 16 16" role="img" aria-label="{}" '
            'xmlns="http://www.w3.org/2000/svg"><title>{}</title>{}</svg>',
            classes,
            label,
            label,
            mark_safe(PATHS[name]),
        )
    return format_html(
        '<svg class="{}" viewBox="0 0 16 16" aria-hidden="true" focusable="false" '
        'xmlns="http://www.w3.org/2000/svg">{}</svg>',
        classes,
        mark_safe(PATHS[name]),
    )


def favicon_url() -> str:
    """A spade as a ``data:`` URL (the browser tab's icon)."""
    return (
        "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
        + PATHS["spades"].replace('"', "'").replace("<", "%3C").replace(">", "%3E")
        + "%3C/svg%3E"
    )
