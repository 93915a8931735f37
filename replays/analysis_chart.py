"""The analysis chart: each player's estimate decision by decision, as inline SVG.

The estimate is what the analyser expected of the action each player took
(round points -- lower is better -- or the chance to win: the unit the
ruleset's analysis counts in), one line per player over the game's decisions in order, a dot
where a decision was marked. Drawn on the server, like the score chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tabletop.advice import MARK_WORDS

from . import chart
from .chart import PALETTE

WIDTH, HEIGHT, PAD, LEFT = 640, 200, 14, 56


def svg(decisions: Sequence[dict[str, Any]], names: Sequence[str], *, chance: bool) -> SafeString:
    """The lines and the scale's two ends; what the axes mean and whose line is whose
    are said in HTML around it (``legend``, the template), readable at any width."""
    if not decisions:
        return mark_safe("")
    values = [float(d.get("estimate") or 0.0) for d in decisions]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        high = low + 1.0
    n = len(decisions)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - PAD) * (i / max(1, n - 1))

    def y(v: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * ((v - low) / (high - low))

    def said(v: float) -> str:
        return f"{v * 100:.0f} %" if chance else f"{v:.0f}"

    label = _("The estimate of each decision over the game, from %(low)s to %(high)s") % {
        "low": said(low),
        "high": said(high),
    }
    parts = [
        f'<svg class="analysis-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{LEFT}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
        'stroke="#999" stroke-width="1"/>',
        f'<line x1="{LEFT}" y1="{PAD}" x2="{LEFT}" y2="{HEIGHT - PAD}" stroke="#999" '
        'stroke-width="1"/>',
        f'<text class="tick" x="{LEFT - 6}" y="{PAD + 6}" text-anchor="end">{said(high)}</text>',
        f'<text class="tick" x="{LEFT - 6}" y="{HEIGHT - PAD}" text-anchor="end">'
        f"{said(low)}</text>",
    ]
    for seat, name in enumerate(names):
        points = [(i, values[i]) for i, d in enumerate(decisions) if d["seat"] == seat]
        if not points:
            continue
        colour = PALETTE[seat % len(PALETTE)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{chart.dash_attr(colour)} '
            f'points="{path}">'
            f"<title>{escape(name)}</title></polyline>"
        )
        for i, v in points:
            mark = decisions[i].get("mark")
            if mark:
                parts.append(
                    f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="5" fill="{colour}">'
                    f"<title>{escape(mark_title(name, mark))}</title></circle>"
                )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def legend(decisions: Sequence[dict[str, Any]], names: Sequence[str]) -> SafeString:
    """Whose line is whose: the players who decided, in seat order."""
    seats = sorted({d["seat"] for d in decisions})
    return chart.legend([(names[s], PALETTE[s % len(PALETTE)], None) for s in seats])


def mark_title(name: str, mark: str) -> str:
    """A marked point's title: "ann: blunder" (French: "ann : gaffe")."""
    return _("%(name)s: %(sentence)s") % {"name": name, "sentence": MARK_WORDS.get(mark, mark)}
