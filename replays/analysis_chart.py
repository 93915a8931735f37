"""The analysis chart: each player's estimate decision by decision, as inline SVG.

The estimate is what the analyser expected of the action each player took
(round points in the Pablo family -- lower is better -- or the chance to win
in Skip-Bo), one line per player over the game's decisions in order, a dot
where a decision was marked. Drawn on the server, like the score chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tabletop.advice import MARK_WORDS

from .chart import PALETTE

WIDTH, HEIGHT, PAD = 640, 180, 28


def svg(decisions: Sequence[dict[str, Any]], names: Sequence[str], *, skipbo: bool) -> SafeString:
    if not decisions:
        return mark_safe("")
    values = [float(d.get("estimate") or 0.0) for d in decisions]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        high = low + 1.0
    n = len(decisions)

    def x(i: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (i / max(1, n - 1))

    def y(v: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * ((v - low) / (high - low))

    parts = [
        f'<svg class="analysis-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(_("The estimate of each decision over the game"))}" '
        f'preserveAspectRatio="none" width="100%">',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
        'stroke="#999" stroke-width="1"/>',
    ]
    unit = unit_words(skipbo)
    top = f"{high * 100:.0f} %" if skipbo else f"{high:.0f}"
    bottom = f"{low * 100:.0f} %" if skipbo else f"{low:.0f}"
    parts.append(f'<text x="2" y="{PAD - 8}" font-size="11">{escape(unit)}: {top}</text>')
    parts.append(f'<text x="2" y="{HEIGHT - 6}" font-size="11">{bottom}</text>')
    for seat, name in enumerate(names):
        points = [(i, values[i]) for i, d in enumerate(decisions) if d["seat"] == seat]
        if not points:
            continue
        colour = PALETTE[seat % len(PALETTE)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{path}">'
            f"<title>{escape(name)}</title></polyline>"
        )
        for i, v in points:
            mark = decisions[i].get("mark")
            if mark:
                parts.append(
                    f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5" fill="{colour}">'
                    f"<title>{escape(name)}: {escape(MARK_WORDS.get(mark, mark))}</title>"
                    "</circle>"
                )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def unit_words(skipbo: bool) -> str:
    """What the estimate measures, in words."""
    return _("win chance") if skipbo else _("expected round points")
