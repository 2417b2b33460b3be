"""The running-totals chart: well-formed, points inside the plot area, escaped, stable."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from replay_web.svg_chart import running_totals_svg

NS = "{http://www.w3.org/2000/svg}"
Series = list[tuple[int, int]]


def parse(svg: Markup) -> ET.Element:
    root = ET.fromstring(str(svg))
    assert root.tag == f"{NS}svg"
    return root


def plot_area(root: ET.Element) -> tuple[float, float, float, float]:
    rect = next(r for r in root.iter(f"{NS}rect") if r.get("class") == "plot-area")
    x, y = float(rect.get("x", "")), float(rect.get("y", ""))
    return x, y, x + float(rect.get("width", "")), y + float(rect.get("height", ""))


def side_points(root: ET.Element, side: int) -> list[tuple[float, float]]:
    group = next(g for g in root.iter(f"{NS}g") if g.get("class") == f"side{side}")
    line = group.find(f"{NS}polyline")
    assert line is not None
    return [(float(x), float(y)) for x, y in
            (p.split(",") for p in line.get("points", "").split())]


def marker_centres(root: ET.Element, side: int) -> list[tuple[float, float]]:
    group = next(g for g in root.iter(f"{NS}g") if g.get("class") == f"side{side}")
    if side == 0:
        return [(float(c.get("cx", "")), float(c.get("cy", "")))
                for c in group.iter(f"{NS}circle")]
    return [(float(r.get("x", "")), float(r.get("y", ""))) for r in group.iter(f"{NS}rect")]


def target_y(root: ET.Element) -> float | None:
    group = next((g for g in root.iter(f"{NS}g") if g.get("class") == "target"), None)
    if group is None:
        return None
    path = group.find(f"{NS}path")
    assert path is not None
    return float(path.get("d", "").split("H")[0].split()[1])


def chart(series: Series, target: int | None = None) -> ET.Element:
    return parse(running_totals_svg(series, ("Noi", "Voi"), target=target, title="Totali",
                                    empty_text="nessuna smazzata"))


def test_points_map_into_the_plot_area_in_order() -> None:
    root = chart([(3, 1), (5, 6), (12, 14)], target=21)
    x0, y0, x1, y1 = plot_area(root)
    noi = side_points(root, 0)
    assert len(noi) == 4  # the start at 0 points, then one per smazzata
    assert noi[0][0] == x0 and noi[-1][0] == x1
    assert [p[0] for p in noi] == sorted(p[0] for p in noi)
    # higher totals are drawn higher up (smaller y)
    assert noi[3][1] < noi[2][1] < noi[1][1] < noi[0][1]
    assert marker_centres(root, 0) == noi[1:]
    assert marker_centres(root, 1) == side_points(root, 1)[1:]
    assert all(y0 <= y <= y1 for _, y in noi)


def test_target_line_present_or_absent() -> None:
    with_target = chart([(3, 1)], target=21)
    y = target_y(with_target)
    assert y is not None
    _, y0, _, y1 = plot_area(with_target)
    # 21 points are drawn above the 3 of the first smazzata, inside the plot
    assert y0 <= y < side_points(with_target, 0)[1][1] <= y1
    assert "21" in {t.text for t in with_target.iter(f"{NS}text")}
    assert target_y(chart([(3, 1)])) is None


def test_empty_series_draws_axes_and_the_message() -> None:
    root = chart([], target=51)
    assert root.find(f"{NS}rect") is not None
    assert not any(g.get("class") in ("side0", "side1") for g in root.iter(f"{NS}g"))
    empty = [t for t in root.iter(f"{NS}text") if t.get("class") == "empty"]
    assert [t.text for t in empty] == ["nessuna smazzata"]
    assert target_y(root) is not None


def test_negative_totals_and_a_zero_line() -> None:
    root = chart([(-4, 2), (-7, 5)])
    _, y0, _, y1 = plot_area(root)
    noi = side_points(root, 0)
    assert all(y0 <= y <= y1 for _, y in noi)
    assert noi[2][1] > noi[0][1]  # below the start line
    ticks = {t.text for t in root.iter(f"{NS}text")}
    assert "0" in ticks and any(t is not None and t.startswith("-") for t in ticks)


def test_single_point() -> None:
    root = chart([(0, 0)])
    x0, _, x1, _ = plot_area(root)
    assert [x for x, _ in side_points(root, 1)] == [x0, x1]


def test_labels_title_and_desc_are_escaped() -> None:
    hostile = "<script>alert(1)</script>&"
    svg = running_totals_svg([(1, 2)], (hostile, "Voi"), title=hostile, desc=hostile)
    root = parse(svg)
    assert "<script>" not in svg
    assert root.findtext(f"{NS}title") == hostile
    assert root.findtext(f"{NS}desc") == hostile
    assert hostile in {t.text for t in root.iter(f"{NS}text")}


def test_default_desc_names_the_final_totals() -> None:
    root = chart([(3, 1), (8, 4)])
    assert root.findtext(f"{NS}desc") == "Noi: 8; Voi: 4"
    assert chart([]).findtext(f"{NS}desc") == "nessuna smazzata"


def test_numbers_have_at_most_one_decimal() -> None:
    svg = str(running_totals_svg([(1, 2), (4, 3), (5, 9)], ("a", "b"), title="t", width=333,
                                 height=177))
    root = parse(Markup(svg))
    for x, y in side_points(root, 0) + side_points(root, 1):
        for value in (x, y):
            assert round(value, 1) == value


@given(series=st.lists(st.tuples(st.integers(-60, 400), st.integers(-60, 400)), max_size=40),
       target=st.one_of(st.none(), st.integers(1, 200)),
       width=st.integers(120, 900), height=st.integers(90, 500))
def test_random_series_stay_inside_the_plot(series: Series, target: int | None, width: int,
                                            height: int) -> None:
    svg = running_totals_svg(series, ("A", "B"), target=target, title="t", empty_text="-",
                             width=width, height=height)
    assert svg == running_totals_svg(series, ("A", "B"), target=target, title="t",
                                     empty_text="-", width=width, height=height)
    root = parse(svg)
    x0, y0, x1, y1 = plot_area(root)
    if target is not None:
        y = target_y(root)
        assert y is not None and y0 <= y <= y1
    if not series:
        return
    for side in (0, 1):
        points = side_points(root, side)
        assert len(points) == len(series) + 1
        assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in points)
        assert marker_centres(root, side) == points[1:]
