"""The network and loss-curve beats' figures: drawn from the plan's cues on the MLP read from the
log (units as circles, every weight a line), labelled at a phone's size, described with the
numbers the clip shows; built from the plan alone, no clip rendered."""

from __future__ import annotations

import math
import re
from pathlib import Path

from engine.records import Accumulate, Backward, Jvp
from scenes.publish.svg import MIN_TEXT_PX
from scenes.storyboard import load_and_plan
from scenes.storyboard.network import read_network
from scenes.theme import load_theme
from tests.publish.test_figures import _figures, _least_px


def _circles(svg: str) -> list[tuple[float, float, float]]:
    return [(float(x), float(y), float(r)) for x, y, r in
            re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"', svg)]


def test_the_mlp_article_draws_its_network_with_labelled_layers() -> None:
    figs, _, checked, p = _figures("mlp")
    net = read_network(checked.run.events)
    labels = net.layer_names(load_theme().labels)
    last = figs[len(p.beats) - 2]  # the beat with the output and the loss, before the takeaway
    assert last is not None
    for word in labels + [u.name for u in net.units.values()]:
        assert f">{word}</text>" in last.svg
    assert _least_px(last.svg) >= MIN_TEXT_PX
    assert 'role="img"' in last.svg and 'aria-labelledby="fig-4-title fig-4-desc"' in last.svg
    assert "style=" not in last.svg and "<script" not in last.svg
    assert f"{len(net.links)} weights" in last.desc and "yh = 0.5977" in last.desc
    # every unit a circle (the input layer's first figure has only its four)
    assert len(_circles(last.svg)) == len(net.units)
    assert len(_circles(figs[0].svg)) == len(net.layers[0])


def test_the_network_s_lines_pass_no_circle() -> None:
    figs, _, _, _ = _figures("mlp")
    svg = figs[3].svg
    circles = _circles(svg)
    lines = [tuple(map(float, m)) for m in
             re.findall(r'<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"', svg)]
    assert len(lines) >= 36
    for x1, y1, x2, y2 in lines:
        for cx, cy, r in circles:
            if math.hypot(cx - x1, cy - y1) <= r * 1.01 or math.hypot(cx - x2, cy - y2) <= r * 1.01:
                continue  # one of its two ends
            dx, dy = x2 - x1, y2 - y1
            t = max(0.0, min(1.0, ((cx - x1) * dx + (cy - y1) * dy) / (dx * dx + dy * dy)))
            assert math.hypot(x1 + t * dx - cx, y1 + t * dy - cy) > r


def test_reverse_mode_says_how_many_weights_its_one_sweep_reached() -> None:
    figs, _, checked, p = _figures("reverse_mode")
    events = checked.run.events
    net = read_network(events)
    (call,) = [e for e in events if isinstance(e, Backward)]
    reached = {e.tensor for e in events if isinstance(e, Accumulate) and e.tensor in net.links}
    sweep = figs[1]
    assert sweep is not None
    assert f"has reached {len(reached)} of the {len(net.links)} weights" in sweep.desc
    assert "Reverse mode, passes: 1." in sweep.desc and _least_px(sweep.svg) >= MIN_TEXT_PX
    # forward mode's last beat: all 36 passes, the first and the last derivative as the log has them
    jvps = [e for e in events if isinstance(e, Jvp)]
    last = figs[len(p.beats) - 2]
    assert last is not None and f"passes: {len(jvps)} / {len(net.links)}" in last.desc
    assert f"{len(jvps)} of the {len(net.links)} weights done" in last.desc
    assert f">{jvps[0].name}  " in last.svg or f">{jvps[0].name}</text>" in last.svg


def test_a_loss_curve_beat_plots_the_logged_value_per_pass() -> None:
    path = Path(__file__).resolve().parents[1] / "storyboard" / "lessons" / "sgd_loop.yaml"
    checked, p = load_and_plan(path, (), "sgd_loop")
    from scenes.publish.figure_page import page_figures

    figs, _ = page_figures(checked.index, p, [f"beat {k}" for k in range(len(p.beats))])
    k = [b.visual for b in p.beats].index("loss_curve")
    curve = figs[k]
    assert curve is not None
    points = [c for c in p.cues if c.kind == "curve_point"]
    assert len(points) == 3 and _least_px(curve.svg) >= MIN_TEXT_PX
    for c in points:
        assert f">{c.text('value')}</text>" in curve.svg
        assert f"pass {c.text('count')}: {c.text('value')}" in curve.desc
    assert len(_circles(curve.svg)) == len(points) and "style=" not in curve.svg
