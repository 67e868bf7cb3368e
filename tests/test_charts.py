"""The SVG pictures: valid standalone XML, one mark per value, coordinates in the
order of the values, bounds where they belong, and names escaped."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from zerosum.charts import elo_chart, llr_chart, nice_ticks, ratings_chart

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """Parse ``svg`` and check that it is a standalone document of a fixed size."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    width, height = int(root.attrib["width"]), int(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {width} {height}"
    assert "href" not in svg  # no external resources
    return root


def of_class(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if e.attrib.get("class") == css]


def polyline(element: ET.Element) -> list[tuple[float, float]]:
    pairs = (p.split(",") for p in element.attrib["points"].split())
    return [(float(x), float(y)) for x, y in pairs]


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}text")]


def test_ratings_are_drawn_best_first_with_higher_ratings_further_right() -> None:
    labels = ["weak", "strong", "middle"]
    ratings = [-120.0, 150.0, 10.0]
    intervals = [(-200.0, -40.0), (60.0, 240.0), (-70.0, 90.0)]
    root = parse(ratings_chart(labels, ratings, intervals))
    points = of_class(root, "circle", "point")
    bars = of_class(root, "line", "interval")
    assert len(points) == len(bars) == 3
    assert [e.text for e in of_class(root, "text", "label")] == ["strong", "middle", "weak"]
    xs = [float(p.attrib["cx"]) for p in points]
    ys = [float(p.attrib["cy"]) for p in points]
    assert xs[0] > xs[1] > xs[2]
    assert ys[0] < ys[1] < ys[2]
    for point, bar in zip(points, bars, strict=True):
        assert float(bar.attrib["x1"]) < float(point.attrib["cx"]) < float(bar.attrib["x2"])
        assert bar.attrib["y1"] == bar.attrib["y2"] == point.attrib["cy"]
    # the zero line sits between the negative and the positive ratings
    (zero,) = of_class(root, "line", "zero")
    assert xs[2] < float(zero.attrib["x1"]) < xs[1]
    assert "+150.0 (+60.0 to +240.0)" in texts(root)


def test_a_name_with_markup_characters_round_trips() -> None:
    name = "a<b & \"c\" 'd'>"
    root = parse(ratings_chart([name, "other"], [5.0, -5.0], [(0.0, 10.0), (-10.0, 0.0)]))
    assert [e.text for e in of_class(root, "text", "label")] == [name, "other"]
    root = parse(ratings_chart(["x"], [0.0], [(-1.0, 1.0)], title=name))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == name


def test_an_unbounded_interval_runs_to_the_edge_and_says_so() -> None:
    root = parse(ratings_chart(["a - b"], [math.inf], [(200.0, math.inf)]))
    (bar,) = of_class(root, "line", "interval")
    (point,) = of_class(root, "circle", "point")
    axis = of_class(root, "line", "axis")[0]
    assert float(bar.attrib["x2"]) == float(point.attrib["cx"]) == float(axis.attrib["x2"])
    assert len(of_class(root, "line", "cap")) == 1  # the finite end only
    assert "+inf" in texts(root)


def test_ratings_need_one_value_per_label() -> None:
    with pytest.raises(ValueError, match="one rating and one interval per label"):
        ratings_chart(["a", "b"], [1.0], [(0.0, 2.0)])
    with pytest.raises(ValueError, match="at least one"):
        ratings_chart([], [], [])


def test_the_llr_line_has_a_point_per_pair_and_the_bounds_sit_at_their_values() -> None:
    llr = [0.5, 1.0, 1.5, 2.0, 3.0]
    root = parse(llr_chart(llr, -2.0, 3.0))
    (line,) = of_class(root, "polyline", "llr")
    points = polyline(line)
    assert len(points) == len(llr) + 1  # from (0, 0): no pairs, LLR 0
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert ys == sorted(ys, reverse=True)  # a rising LLR goes up the picture
    upper, lower = of_class(root, "line", "bound")
    # the last point is LLR 3.0, exactly the upper bound; 0 is 2/5 of the way down to -2
    assert float(upper.attrib["y1"]) == pytest.approx(ys[-1], abs=0.01)
    zero = ys[0]
    assert float(upper.attrib["y1"]) < zero < float(lower.attrib["y1"])
    assert (float(lower.attrib["y1"]) - zero) / (zero - float(upper.attrib["y1"])) == (
        pytest.approx(2.0 / 3.0, abs=0.01)
    )
    words = texts(root)
    assert "accept H1 (3.00)" in words and "accept H0 (-2.00)" in words


def test_the_llr_chart_refuses_bad_bounds_and_values() -> None:
    with pytest.raises(ValueError, match="lower < 0 < upper"):
        llr_chart([0.1], 1.0, 3.0)
    with pytest.raises(ValueError, match="finite"):
        llr_chart([math.nan], -3.0, 3.0)


def test_the_elo_band_encloses_the_estimate() -> None:
    points = [(math.inf, 100.0, math.inf), (200.0, 10.0, 400.0), (120.0, 30.0, 250.0)]
    root = parse(elo_chart(points))
    (line,) = of_class(root, "polyline", "elo")
    (band,) = of_class(root, "polygon", "band")
    estimate = polyline(line)
    outline = polyline(band)
    assert len(estimate) == 3 and len(outline) == 6
    upper, lower = outline[:3], outline[3:][::-1]
    for (x, y), (xu, yu), (xl, yl) in zip(estimate, upper, lower, strict=True):
        assert x == xu == xl
        assert yu <= y <= yl  # the y axis grows downwards
    assert [x for x, _ in estimate] == sorted(x for x, _ in estimate)
    with pytest.raises(ValueError, match="at least one point"):
        elo_chart([])


@pytest.mark.parametrize(
    ("low", "high", "whole", "expected"),
    [
        (-150.0, 120.0, False, [-200.0, -100.0, 0.0, 100.0, 200.0]),
        (0.0, 1.0, False, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
        (0.0, 1.0, True, [0.0, 1.0]),
        (0.0, 3.0, True, [0.0, 1.0, 2.0, 3.0]),
    ],
)
def test_ticks_are_round_and_cover_the_range(
    low: float, high: float, whole: bool, expected: list[float]
) -> None:
    assert nice_ticks(low, high, whole=whole) == expected
