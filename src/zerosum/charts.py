"""Pictures of matches and tournaments as standalone SVG text.

Each function returns a whole SVG document (fixed ``width``/``height`` and a
``viewBox``, no external resources) that a browser or an image viewer opens as it is:

- :func:`ratings_chart`: ratings with their confidence intervals as horizontal error
  bars, best first, with a zero line and a labelled Elo axis;
- :func:`llr_chart`: an SPRT's log-likelihood ratio after each game pair, with its two
  bounds ("accept H1" above, "accept H0" below);
- :func:`elo_chart`: an Elo estimate after each pair or game, its interval as a band.

The SVG is written by hand with the standard library only. Every text, agent names
included, is XML-escaped. An Elo interval can be unbounded (``elo_estimate`` of a
match one side won every game of): an infinite value is drawn at the edge of the plot,
marked ``+inf`` or ``-inf``, and the axis spans the finite values only. Elements carry
a ``class`` (``bar``, ``interval``, ``point``, ``llr``, ``bound``, ``band``, ``tick``)
so that styles and tests can find them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from zerosum.ratings import format_elo

__all__ = ["elo_chart", "llr_chart", "nice_ticks", "ratings_chart"]

_FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"
_AXIS_COLOUR = "#444"
_GRID_COLOUR = "#ddd"
_LINE_COLOUR = "#1f5fa8"
_BAND_COLOUR = "#9cc3ea"
_H1_COLOUR = "#2a8a2a"
_H0_COLOUR = "#b03030"
_TICKS = 6  # about this many ticks on an axis: enough to read values, few enough to label
_DEFAULT_SPAN = 100.0  # an axis with no finite span (every value infinite) shows +-this


def _number(value: float) -> str:
    """A coordinate written short: two decimals are below a pixel's precision."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _text(
    x: float, y: float, content: str, anchor: str = "start", *, extra: str = "", size: int = 13
) -> str:
    """A ``<text>`` element with escaped content; ``extra`` adds attributes."""
    return (
        f"<text x='{_number(x)}' y='{_number(y)}' text-anchor='{anchor}' {_FONT} "
        f"font-size='{size}'{extra}>"
        f"{escape(content)}</text>"
    )


def _line(x1: float, y1: float, x2: float, y2: float, *, css: str, style: str) -> str:
    """A ``<line>`` element of class ``css`` drawn with the attributes ``style``."""
    return (
        f"<line class='{css}' x1='{_number(x1)}' y1='{_number(y1)}' x2='{_number(x2)}' "
        f"y2='{_number(y2)}' {style}/>"
    )


def _document(width: int, height: int, title: str, body: list[str]) -> str:
    """The whole SVG document: a white background, ``title`` on top, then ``body``."""
    return "\n".join(
        [
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'>",
            f"<title>{escape(title)}</title>",
            f"<rect x='0' y='0' width='{width}' height='{height}' fill='white'/>",
            _text(width / 2, 24, title, "middle", extra=" font-weight='bold'", size=15),
            *body,
            "</svg>",
            "",
        ]
    )


def nice_ticks(low: float, high: float, count: int = _TICKS, *, whole: bool = False) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) covering ``low`` to
    ``high``: about ``count`` of them, the first at or below ``low`` and the last at or
    above ``high``; with ``whole``, at least 1 apart (counts of games have no 2.5).
    Needs finite ``low < high``."""
    raw = (high - low) / max(count - 1, 1)
    if whole:
        raw = max(raw, 1.0)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    # round away float noise (0.30000000000000004) so that labels read as typed
    return [round(i * step, 12) for i in range(first, last + 1)]


@dataclass(frozen=True, slots=True)
class _Scale:
    """A linear map from values in ``[low, high]`` to pixels in ``[start, end]``
    (``end < start`` for a y axis, which grows downwards). Values outside the domain,
    infinities included, are clamped to its ends."""

    low: float
    high: float
    start: float
    end: float
    whole: bool = False

    @classmethod
    def around(cls, values: Sequence[float], start: float, end: float) -> _Scale:
        """The scale over nice ticks covering the finite ``values`` (at least two
        distinct values, else a span of :data:`_DEFAULT_SPAN` around the one there is)."""
        finite = [v for v in values if math.isfinite(v)]
        low, high = (min(finite), max(finite)) if finite else (0.0, 0.0)
        if high - low < 1e-9:
            low, high = low - _DEFAULT_SPAN, high + _DEFAULT_SPAN
        ticks = nice_ticks(low, high)
        return cls(ticks[0], ticks[-1], start, end)

    def __call__(self, value: float) -> float:
        clamped = min(max(value, self.low), self.high)
        return self.start + (clamped - self.low) / (self.high - self.low) * (self.end - self.start)

    def ticks(self) -> list[float]:
        """The tick values of the axis (its ends included)."""
        return nice_ticks(self.low, self.high, whole=self.whole)


def _tick_label(value: float) -> str:
    """A tick's label: ``%g`` keeps round values short (``50``, ``2.5``)."""
    return f"{value:g}"


def _x_axis(scale: _Scale, top: float, bottom: float, caption: str) -> list[str]:
    """Vertical grid lines with labelled ticks under ``bottom``, and the axis caption."""
    parts = []
    for value in scale.ticks():
        x = scale(value)
        parts.append(_line(x, top, x, bottom, css="grid", style=f"stroke='{_GRID_COLOUR}'"))
        parts.append(_line(x, bottom, x, bottom + 5, css="tick", style=f"stroke='{_AXIS_COLOUR}'"))
        parts.append(_text(x, bottom + 19, _tick_label(value), "middle"))
    parts.append(
        _line(scale.start, bottom, scale.end, bottom, css="axis", style=f"stroke='{_AXIS_COLOUR}'")
    )
    parts.append(_text((scale.start + scale.end) / 2, bottom + 40, caption, "middle"))
    return parts


def _y_axis(scale: _Scale, left: float, right: float, caption: str) -> list[str]:
    """Horizontal grid lines with labelled ticks left of ``left``, and the caption."""
    parts = []
    for value in scale.ticks():
        y = scale(value)
        parts.append(_line(left, y, right, y, css="grid", style=f"stroke='{_GRID_COLOUR}'"))
        parts.append(_line(left - 5, y, left, y, css="tick", style=f"stroke='{_AXIS_COLOUR}'"))
        parts.append(_text(left - 8, y + 4, _tick_label(value), "end"))
    parts.append(
        _line(left, scale.start, left, scale.end, css="axis", style=f"stroke='{_AXIS_COLOUR}'")
    )
    middle = (scale.start + scale.end) / 2
    parts.append(
        _text(20, middle, caption, "middle", extra=f" transform='rotate(-90 20 {_number(middle)})'")
    )
    return parts


def _infinity_marks(scale: _Scale, values: Sequence[float], at: Sequence[float]) -> list[str]:
    """``+inf``/``-inf`` beside each infinite value, drawn where the scale clamps it;
    ``at`` is the other coordinate of each value (a row's y)."""
    parts = []
    for value, y in zip(values, at, strict=True):
        if math.isinf(value):
            x = scale(value)
            anchor = "start" if value > 0 else "end"
            parts.append(_text(x + (4 if value > 0 else -4), y + 4, format_elo(value), anchor))
    return parts


def _check_finite(name: str, values: Sequence[float]) -> None:
    """Raise ``ValueError`` when a value that must be a real number is not."""
    bad = [v for v in values if not math.isfinite(v)]
    if bad:
        raise ValueError(f"{name} must be finite numbers, not {bad[0]}")


def ratings_chart(
    labels: Sequence[str],
    ratings: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    *,
    title: str = "Ratings",
    caption: str = "Elo",
) -> str:
    """Draw ``ratings`` (Elo) with their ``intervals`` (low, high) as horizontal error
    bars, one row per label, best first, with a zero line and a labelled Elo axis.

    Each row has a ``point`` circle at the rating and an ``interval`` line from low to
    high; the row's label is the agent's name and its right margin the numbers.
    Raises ``ValueError`` for no rows or lists of different lengths."""
    if not labels or not len(labels) == len(ratings) == len(intervals):
        raise ValueError(
            f"a ratings chart needs one rating and one interval per label, at least one: "
            f"{len(labels)} labels, {len(ratings)} ratings, {len(intervals)} intervals"
        )
    row_height = 34
    left, right, top = 200, 560, 50
    width = 800
    bottom = top + row_height * len(labels)
    height = bottom + 60
    values = [*ratings, *(end for pair in intervals for end in pair), 0.0]
    scale = _Scale.around(values, left, right)
    body = _x_axis(scale, top, bottom, caption)
    zero = scale(0.0)
    body.append(
        _line(
            zero, top, zero, bottom, css="zero", style=f"stroke='{_AXIS_COLOUR}' stroke-width='1.5'"
        )
    )
    order = sorted(range(len(labels)), key=lambda i: -ratings[i])
    for row, i in enumerate(order):
        y = top + row_height * (row + 0.5)
        low, high = intervals[i]
        style = f"stroke='{_LINE_COLOUR}' stroke-width='2'"
        body.append(_line(scale(low), y, scale(high), y, css="interval", style=style))
        # caps only where the interval ends: a clamped (infinite) end runs off the plot
        for end in (low, high):
            if math.isfinite(end):
                body.append(_line(scale(end), y - 7, scale(end), y + 7, css="cap", style=style))
        body.append(
            f"<circle class='point' cx='{_number(scale(ratings[i]))}' cy='{_number(y)}' r='5' "
            f"fill='{_LINE_COLOUR}'><title>{escape(labels[i])}</title></circle>"
        )
        body.extend(_infinity_marks(scale, (low, high), (y - 8, y - 8)))
        body.append(_text(left - 12, y + 4, labels[i], "end", extra=" class='label'"))
        numbers = f"{format_elo(ratings[i])} ({format_elo(low)} to {format_elo(high)})"
        body.append(_text(right + 40, y + 4, numbers))
    return _document(width, height, title, body)


def _series_frame(
    count: int, values: Sequence[float], caption_x: str, caption_y: str
) -> tuple[_Scale, _Scale, list[str]]:
    """The x scale over 0 to ``count``, the y scale over ``values`` and the two axes of
    a chart of a quantity after each of ``count`` steps."""
    left, right, top, bottom = 80, 700, 50, 430
    steps = float(max(count, 1))
    x_scale = _Scale(0.0, nice_ticks(0.0, steps, whole=True)[-1], left, right, whole=True)
    y_scale = _Scale.around(values, bottom, top)
    return (
        x_scale,
        y_scale,
        [*_x_axis(x_scale, top, bottom, caption_x), *_y_axis(y_scale, left, right, caption_y)],
    )


def _polyline(points: Sequence[tuple[float, float]], css: str, style: str) -> str:
    """A ``<polyline>`` of class ``css`` through ``points`` (pixels)."""
    coordinates = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
    return f"<polyline class='{css}' points='{coordinates}' fill='none' {style}/>"


def llr_chart(
    llr_points: Sequence[float],
    lower: float,
    upper: float,
    *,
    title: str = "SPRT",
    caption: str = "game pairs",
) -> str:
    """Draw an SPRT's log-likelihood ratio after each game pair: ``llr_points[k]`` is
    the LLR after ``k + 1`` pairs, drawn as one ``llr`` polyline from (0, 0) (the LLR
    of no results) through every point, with the ``bound`` lines ``upper`` ("accept
    H1") and ``lower`` ("accept H0"). Raises ``ValueError`` for bounds that are not
    ``lower < 0 < upper`` or values that are not finite."""
    _check_finite("LLR values and bounds", [*llr_points, lower, upper])
    if not lower < 0.0 < upper:
        raise ValueError(f"SPRT bounds are lower < 0 < upper, not {lower:g} and {upper:g}")
    x_scale, y_scale, body = _series_frame(
        len(llr_points), [*llr_points, lower, upper, 0.0], caption, "log-likelihood ratio"
    )
    for value, words, colour in (
        (upper, "accept H1", _H1_COLOUR),
        (lower, "accept H0", _H0_COLOUR),
    ):
        y = y_scale(value)
        dashed = f"stroke='{colour}' stroke-width='2' stroke-dasharray='6 4'"
        body.append(_line(x_scale.start, y, x_scale.end, y, css="bound", style=dashed))
        body.append(
            _text(
                x_scale.end - 4, y - 6, f"{words} ({value:.2f})", "end", extra=f" fill='{colour}'"
            )
        )
    points = [(x_scale(k), y_scale(v)) for k, v in enumerate([0.0, *llr_points])]
    body.append(_polyline(points, "llr", f"stroke='{_LINE_COLOUR}' stroke-width='2'"))
    return _document(800, 500, title, body)


def elo_chart(
    points: Sequence[tuple[float, float, float]],
    *,
    title: str = "Elo estimate",
    caption: str = "games",
) -> str:
    """Draw an Elo estimate after each step: ``points[k]`` is ``(elo, low, high)``
    after ``k + 1`` steps (games or pairs, as ``caption`` says), drawn as an ``elo``
    polyline over a ``band`` polygon from low to high, with a zero line. Infinite values
    are clamped to the plot's edge. Raises ``ValueError`` for no points."""
    if not points:
        raise ValueError("an Elo chart needs at least one point")
    values = [v for point in points for v in point]
    x_scale, y_scale, body = _series_frame(len(points), [*values, 0.0], caption, "Elo")
    xs = [x_scale(k + 1) for k in range(len(points))]
    upper_edge = [(x, y_scale(high)) for x, (_, _, high) in zip(xs, points, strict=True)]
    lower_edge = [(x, y_scale(low)) for x, (_, low, _) in zip(xs, points, strict=True)]
    outline = " ".join(
        f"{_number(x)},{_number(y)}" for x, y in [*upper_edge, *reversed(lower_edge)]
    )
    body.append(
        f"<polygon class='band' points='{outline}' fill='{_BAND_COLOUR}' fill-opacity='0.6'/>"
    )
    zero = y_scale(0.0)
    thick = f"stroke='{_AXIS_COLOUR}' stroke-width='1.5'"
    body.append(_line(x_scale.start, zero, x_scale.end, zero, css="zero", style=thick))
    line = [(x, y_scale(elo)) for x, (elo, _, _) in zip(xs, points, strict=True)]
    body.append(_polyline(line, "elo", f"stroke='{_LINE_COLOUR}' stroke-width='2'"))
    last_elo, last_low, last_high = points[-1]
    interval = f"{format_elo(last_low)} to {format_elo(last_high)}"
    summary = f"after {len(points)}: {format_elo(last_elo)} ({interval})"
    body.append(
        _text(x_scale.end, y_scale.end - 8, summary, "end", extra=f" fill='{_AXIS_COLOUR}'")
    )
    return _document(800, 500, title, body)
