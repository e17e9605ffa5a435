"""What the program prints is readable: console lines' glyphs 9 px or more at 854x480, in the frame.

The reviewer found PyTorch's non-leaf ``.grad`` warning in missing_gradient drawn 3 px high: its
full text on one line, shrunk to the code column's width. A warning now shows as Python prints
its head, ``UserWarning: `` and the message's first sentence (the one that says what happened),
wrapped at the code's size. Each clip that prints is inspected at 16:9, low quality (854x480),
when each console cue has come in; every line of every console item at least half opaque must
have glyphs of the theme's ``font_sizes.min_glyph_px`` or more (measured as the frame checks
measure a text: :func:`scenes.draw.collisions.glyph_height`, on the item's box cut into its
lines), and the item must lie inside the frame. The frame checks of ``tests/test_no_overlap.py``
measure every text too, but a wrapped console item as one box, which its lines' count hides.
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import glyph_height
from scenes.layout.clip import first_sentence
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme

PRINTS = ["graph_build", "grad_accumulation", "leaf_nodes", "missing_gradient", "dynamic_graph"]
CONSOLE_CUES = ("output_line", "message")


def test_a_message_keeps_its_first_sentence() -> None:
    warning = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
               "attribute won't be populated during autograd.backward(). See github.com/pytorch/pytorch/pull/30531.")
    assert first_sentence(warning) == "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed."
    assert first_sentence("element 0 of tensors does not require grad") == "element 0 of tensors does not require grad"


@pytest.mark.slow  # plays each printing clip without drawing, looking once per printed line
@pytest.mark.parametrize("name", PRINTS)
def test_console_lines_are_readable_and_in_the_frame(name: str) -> None:
    checked, plan = load_and_plan(storyboard_path(name))
    cues = [c for c in plan.cues if c.kind in CONSOLE_CUES]
    assert cues, f"{name} prints nothing: take it off PRINTS"
    at = [min(c.start + c.duration, plan.duration) for c in cues]
    samples = list(inspect_clip(checked, plan, RenderOptions(aspect="16:9"), at=at))
    width, height = samples[0]["frame"]
    shown = [(s["time"], i) for s in samples for i in s["items"] if i["role"] == "console" and i["opacity"] >= 0.5]
    assert shown, f"{name}: no console line is on screen when its cue is done"
    min_px = load_theme().font_sizes.min_glyph_px
    problems = []
    for t, i in shown:
        x0, y0, x1, y1 = i["bbox"]
        lines = i["text"].split("\n")
        step = (y1 - y0) / len(lines)
        for k, line in enumerate(lines):
            px = glyph_height({**i, "text": line, "bbox": [x0, y0 + k * step, x1, y0 + (k + 1) * step]})
            if px < min_px:
                problems.append(f"{t:.2f} s: {line!r} of {i['text']!r} has {px:.1f} px glyphs")
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            problems.append(f"{t:.2f} s: {i['text']!r} reaches out of the frame: {i['bbox']}")
    for c in (c for c in cues if c.kind == "message"):
        want = f"{c.text('type')}: {first_sentence(c.text('message') or '')}"
        if not any(" ".join(i["text"].split()) == want for _, i in shown):
            problems.append(f"the message is never shown as {want!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.slow  # plays each printing clip without drawing, once per beat that prints
@pytest.mark.parametrize("aspect", ["9:16", "1:1"])
@pytest.mark.parametrize("name", PRINTS)
def test_what_a_beat_prints_stays_on_screen_together(name: str, aspect: str) -> None:
    """Where the graph is under the code, the printed lines' room is small: missing_gradient's
    ``print(z.grad)`` prints PyTorch's warning (two rows) and ``None``, and with two rows of room
    the warning scrolled away under the None while the caption said "PyTorch warns". At the end
    of each beat that prints, every line it printed is on screen."""
    checked, plan = load_and_plan(storyboard_path(name))
    beats = []
    for b in plan.beats:
        cues = [c for c in plan.cues if c.kind in ("output_line", "message") and b.start <= c.start < b.start + b.duration]
        if cues:
            beats.append((b.start + b.duration - 0.05, cues))
    samples = inspect_clip(checked, plan, RenderOptions(aspect=aspect), at=[t for t, _ in beats])
    problems = []
    for (t, cues), sample in zip(beats, samples):
        shown = [" ".join(i["text"].split()) for i in sample["items"] if i["role"] == "console" and i["opacity"] >= 0.5]
        for c in cues:
            want = (f"{c.text('type')}: {first_sentence(c.text('message') or '')}" if c.kind == "message"
                    else " ".join("  ".join(s.text for s in c.strings).split()))
            if want not in shown:
                problems.append(f"{t:.2f} s: {want!r} is not on screen (shown: {shown})")
    assert not problems, "\n".join(problems)


@pytest.mark.slow  # plays one generated lesson without drawing, looking once per cue
def test_lines_scrolled_away_are_counted(tmp_path) -> None:
    """Nothing leaves the console in silence (issue 40): generated lesson 4 at 16:9 prints more
    lines (its loss, each step's arithmetic, the values its cards have no room for) than the
    column under the code holds above the legend. Whenever a cue is done, the lines shown and
    the count atop them (``labels.console_earlier``) add up to every line printed so far."""
    from tests.lessons_gen import lesson

    path = tmp_path / "generated_4.yaml"
    path.write_text(lesson(4).text)
    checked, plan = load_and_plan(str(path))
    words = load_theme().labels.console_earlier
    head, _, tail = words.partition("{n}")
    # each cue looked at as it ends, not after: a cue ending is the next one starting, whose
    # print would be half done (lines leaving, the count turning); at 60 frames a second the
    # frame looked at is within 1/60 s of the end, the cue's animations (0.15 s or more) done
    fps = 60
    at = sorted({round(c.start + c.duration - 0.5 / fps, 3) for c in plan.cues if c.start + c.duration < plan.duration})
    before: list[str] = []
    printed, counted, aside, looked = 0, 0, 0, 0
    for s in inspect_clip(checked, plan, RenderOptions(aspect="16:9", fps=fps), at=at):
        # while the walk's pane has stepped aside (one code line shown: `CodePaneView._printed_aside`)
        # the printed lines step aside with it and come back with it: nothing is looked at then
        if len({i["id"] for i in s["items"] if i["role"] == "code" and i["opacity"] >= 0.5}) <= 1:
            aside += 1
            continue
        shown = sorted((i for i in s["items"] if i["role"] == "console" and i["opacity"] >= 0.5),
                       key=lambda i: i["bbox"][1])  # top to bottom
        count = [i["text"] for i in shown if i["text"].startswith(head) and i["text"].endswith(tail)]
        lines = [i["text"] for i in shown if i["text"] not in count]
        # the lines new since the last look: those past the longest run of the old ones still shown
        kept = next((k for k in range(len(before), -1, -1) if lines[:k] == before[len(before) - k:]), 0)
        printed += len(lines) - kept
        counted = int(count[0][len(head):len(count[0]) - len(tail)]) if count else 0
        assert counted + len(lines) == printed, (f"{s['time']:.2f} s: {printed} lines printed, "
                                                 f"{len(lines)} shown and {counted} counted: {lines}")
        before = lines
        looked += 1
    assert looked > aside, "the pane stood aside at most looks: the test no longer looks at the console"
    assert counted > 0, "the console never scrolled: the test no longer looks at what it means to"
