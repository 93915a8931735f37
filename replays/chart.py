"""The score chart: inline SVG drawn on the server, no library, no JavaScript.

``score_chart(names, points, threshold=…)`` draws one line per player through
their game total after each round (round 0 = 0 for everyone), a dashed line at
the ruleset's end threshold, and a marker at the round the viewer is looking
at. A library (matplotlib, pygal) would add a heavy dependency for ~100 lines
of arithmetic and would not give us markup we can style with the page's CSS.
The same numbers are also rendered as a table for screen readers
(``templates/replays/_chart.html``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

#: Colour-blind-friendly (Okabe-Ito), one per seat; repeats past eight.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
#: Each seat's line also has its own dash pattern (with its colour's place in
#: ``PALETTE``), shown in the legend too: the lines are told apart without colour.
DASHES = ("", "10 5", "2 4", "12 4 2 4", "6 3", "1 6", "14 3 3 3 3 3", "4 8")


def dash(colour: str) -> str:
    """The dash pattern that goes with a seat's colour ("" for a solid line)."""
    return DASHES[PALETTE.index(colour)] if colour in PALETTE else ""


def dash_attr(colour: str) -> str:
    """``colour``'s dash pattern as an SVG attribute (nothing for a solid line)."""
    pattern = dash(colour)
    return f' stroke-dasharray="{pattern}"' if pattern else ""


#: The x axis in words.
AXIS_WORDS = {"round": gettext_lazy("round"), "turn": gettext_lazy("turn")}


@dataclass(frozen=True)
class Series:
    name: str
    values: list[int]  # game total after round 0 (=0), 1, 2, ...
    colour: str


def series_for(
    names: list[str], totals_by_round: list[list[int]], *, start: int | None = 0
) -> list[Series]:
    """``totals_by_round[r][seat]`` = game total after round r+1 (``start``: the value before)."""
    out = []
    for seat, name in enumerate(names):
        values = ([] if start is None else [start]) + [row[seat] for row in totals_by_round]
        out.append(Series(name, values, PALETTE[seat % len(PALETTE)]))
    return out


class Chart:
    """The chart of one game; ``svg(current)`` adds the marker of the moment."""

    #: Above this many points per line the dots (with their tooltips) are left out.
    MAX_DOTS = 60

    def __init__(
        self,
        series: list[Series],
        *,
        threshold: tuple[int, str] | None = None,
        width: int = 360,
        height: int = 220,
        x_label: str = "round",
        title: str | None = None,
        from_zero: bool = True,
        ident: str = "chart",
    ) -> None:
        self.rounds = rounds = max((len(s.values) for s in series), default=1) - 1
        values = [v for s in series for v in s.values]
        # ``from_zero=False``: the axis spans the values only (ratings around 1000).
        low = min([0, *values] if from_zero else values)
        floor = 10 if from_zero else low + 10
        high = max([floor, *values, *(() if threshold is None else (threshold[0],))])
        span = high - low or 1
        low -= max(1, span // 20)
        high += max(1, span // 20)
        left, right, top, bottom = 44, 44, 14, 30
        plot_w, plot_h = width - left - right, height - top - bottom
        self.top, self.plot_h = top, plot_h

        def x(r: float) -> float:
            return left + (plot_w * r / rounds if rounds else plot_w / 2)

        def y(v: float) -> float:
            return top + plot_h * (high - v) / (high - low)

        self.x = x
        axis = AXIS_WORDS.get(x_label, x_label)
        head = [
            f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
            f'aria-labelledby="{ident}-title" preserveAspectRatio="xMidYMid meet" '
            f'xmlns="http://www.w3.org/2000/svg">',
            f'<title id="{ident}-title">{escape(title)}</title>'
            if title is not None
            else f'<title id="{ident}-title">{{}}</title>'.format(
                escape(_("Game totals after each round"))
                if x_label == "round"
                else escape(_("Cards left in each stock pile, turn by turn"))
            ),
        ]
        step = _nice_step(high - low)
        tick = (low // step + 1) * step
        while tick < high:
            head.append(
                f'<line class="grid" x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" '
                f'y2="{y(tick):.1f}"/><text class="tick" x="{left - 6}" y="{y(tick) + 4:.1f}" '
                f'text-anchor="end">{tick}</text>'
            )
            tick += step
        every = max(1, -(-rounds // max(2, min(12, plot_w // 30))))  # labels ~30 apart
        for r in range(0, rounds + 1, every):
            head.append(
                f'<text class="tick" x="{x(r):.1f}" y="{height - bottom + 16}" '
                f'text-anchor="middle">{r}</text>'
            )
        head.append(
            f'<text class="axis" x="{left + plot_w / 2:.1f}" y="{height - 2}" '
            f'text-anchor="middle">{escape(axis)}</text>'
        )
        tail = []
        if threshold is not None:
            value, label = threshold
            tail.append(
                f'<line class="threshold" x1="{left}" x2="{left + plot_w}" y1="{y(value):.1f}" '
                f'y2="{y(value):.1f}"/><text class="threshold-label" x="{left + 4}" '
                f'y="{y(value) - 5:.1f}">{escape(gettext(label))}</text>'
            )
        ends: list[tuple[float, Series]] = []
        dots = rounds <= self.MAX_DOTS
        for s in series:
            points = " ".join(f"{x(r):.1f},{y(v):.1f}" for r, v in enumerate(s.values))
            tail.append(
                f'<polyline class="line" points="{points}" stroke="{s.colour}"'
                f'{dash_attr(s.colour)} fill="none"/>'
            )
            if dots:
                for r, v in enumerate(s.values):
                    title = escape(
                        _("%(name)s: %(value)s after %(axis)s %(n)s")
                        % {"name": s.name, "value": v, "axis": axis, "n": r}
                    )
                    tail.append(
                        f'<circle cx="{x(r):.1f}" cy="{y(v):.1f}" r="3" fill="{s.colour}">'
                        f"<title>{title}</title>"
                        "</circle>"
                    )
            ends.append((y(s.values[-1]), s))
        # each line's last value at its end, nudged apart so that equal totals stay
        # readable; the names are in the legend under the chart, whole (``legend``)
        ends.sort(key=lambda e: e[0])
        last = -1e9
        for pos, s in ends:
            pos = max(pos, last + 13)
            last = pos
            tail.append(
                f'<text class="end-label" x="{left + plot_w + 6}" y="{pos + 4:.1f}" '
                f'fill="{s.colour}">{s.values[-1]}</text>'
            )
        tail.append("</svg>")
        self.head = "".join(head)
        self.tail = "".join(tail)

    def svg(self, current: int | None = None) -> SafeString:
        marker = ""
        if current is not None and 0 <= current <= self.rounds:
            at = self.x(current)
            marker = (
                f'<line class="now" x1="{at:.1f}" x2="{at:.1f}" y1="{self.top}" '
                f'y2="{self.top + self.plot_h}"/>'
            )
        return mark_safe(self.head + marker + self.tail)


def score_chart(
    series: list[Series],
    *,
    threshold: tuple[int, str] | None = None,
    current_round: int | None = None,
    x_label: str = "round",
) -> SafeString:
    """The chart's SVG in one call (see ``Chart``)."""
    return Chart(series, threshold=threshold, x_label=x_label).svg(current_round)


def legend(entries: list[tuple[str, str, object]]) -> SafeString:
    """A chart's legend as HTML under it (readable at any width, names whole): a
    swatch of the line (its colour and its dash pattern) and the name, with a value
    when there is one."""
    items = []
    for name, colour, value in entries:
        said = (
            escape(name)
            if value is None
            else escape(_("%(who)s: %(score)s") % {"who": name, "score": value})
        )
        items.append(
            f'<li><svg class="swatch" viewBox="0 0 30 6" aria-hidden="true"><line x1="0" '
            f'y1="3" x2="30" y2="3" stroke="{colour}" stroke-width="4"{dash_attr(colour)}/>'
            f"</svg>{said}</li>"
        )
    return mark_safe(f'<ul class="chart-legend">{"".join(items)}</ul>')


def _nice_step(span: float) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 8:
            return step
    return 2000
