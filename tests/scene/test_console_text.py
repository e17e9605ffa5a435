"""What the program prints is readable: console lines' glyphs 9 px or more at 854x480, in the frame.

The reviewer found PyTorch's non-leaf ``.grad`` warning in missing_gradient drawn 3 px high: its
full text on one line, shrunk to the code column's width. A warning now shows as Python prints
its head, ``UserWarning: `` and the message's first sentence (the one that says what happened),
wrapped at the code's size. The frame checks of ``tests/test_no_overlap.py`` hold the rest,
on the one inspection of each clip: ``console`` (at 16:9, when each console cue is done, every
line of every console item at least half opaque has glyphs of ``font_sizes.min_glyph_px`` or
more, measured on its share of the item's box, since ``too_small`` measures a wrapped item as
one box, which its lines' count hides; and it lies in the frame) and ``prints_kept`` (at 9:16
and 1:1, a beat's printed lines are all on screen at its end).
"""

from __future__ import annotations

import pytest

from scenes.layout.clip import earlier_words, first_sentence
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan
from scenes.theme import load_theme



def test_a_message_keeps_its_first_sentence() -> None:
    warning = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
               "attribute won't be populated during autograd.backward(). See github.com/pytorch/pytorch/pull/30531.")
    assert first_sentence(warning) == "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed."
    assert first_sentence("element 0 of tensors does not require grad") == "element 0 of tensors does not require grad"


@pytest.mark.slow  # plays one generated lesson without drawing, looking once per cue
def test_lines_scrolled_away_are_counted(tmp_path) -> None:
    """Nothing leaves the console in silence (issue 40): generated lesson 7 at 16:9 prints more
    lines (its loss, each step's arithmetic, the values its cards have no room for) than the
    column under the code holds above the legend. Whenever a cue is done, the lines shown and
    the count under them (`earlier_words`) add up to every line printed so far."""
    from tests.lessons_gen import lesson

    path = tmp_path / "generated_7.yaml"
    path.write_text(lesson(7).text)
    checked, plan = load_and_plan(str(path))
    labels = load_theme().labels
    said = {earlier_words(n, labels): n for n in range(1, 200)}  # the count's words -> its number
    # each cue looked at as it ends, not after: a cue ending is the next one starting, whose
    # print would be half done (lines leaving, the count turning); at 60 frames a second the
    # frame looked at is within 1/60 s of the end, the cue's animations (0.15 s or more) done
    fps = 60
    at = sorted({round(c.start + c.duration - 0.5 / fps, 3) for c in plan.cues if c.start + c.duration < plan.duration})
    before: list[str] = []
    printed, counted, aside, looked, most = 0, 0, 0, 0, 0
    for s in inspect_clip(checked, plan, RenderOptions(aspect="16:9", fps=fps), at=at):
        # while the walk's pane has stepped aside (one code line shown: `CodePaneView._printed_aside`)
        # the printed lines hang under its lit line and come back down with it: not looked at then
        if len({i["id"] for i in s["items"] if i["role"] == "code" and i["opacity"] >= 0.5}) <= 1:
            aside += 1
            continue
        shown = sorted((i for i in s["items"] if i["role"] == "console" and i["opacity"] >= 0.5),
                       key=lambda i: i["bbox"][1])  # top to bottom
        count = [i["text"] for i in shown if i["text"] in said]
        lines = [i["text"] for i in shown if i["text"] not in count]
        # the lines new since the last look: those past the longest run of the old ones still shown
        kept = next((k for k in range(len(before), -1, -1) if lines[:k] == before[len(before) - k:]), 0)
        printed += len(lines) - kept
        counted = said[count[0]] if count else 0
        assert counted + len(lines) == printed, (f"{s['time']:.2f} s: {printed} lines printed, "
                                                 f"{len(lines)} shown and {counted} counted: {lines}")
        before = lines
        looked += 1
        most = max(most, counted)
    assert looked > aside, "the pane stood aside at most looks: the test no longer looks at the console"
    assert most > 0, "the console never scrolled: the test no longer looks at what it means to"


def test_the_count_of_lines_scrolled_away_reads_as_plain_words() -> None:
    """Issue 39's review: "lines printed earlier: 1" (dynamic_graph, 9:16 leaf_nodes and
    missing_gradient) read as jargon, a field and its count. The console says it as a sentence,
    singular for one line, with no colon."""
    labels = load_theme().labels
    one, four = earlier_words(1, labels), earlier_words(4, labels)
    assert ":" not in one and ":" not in four
    assert one.startswith("1 ") and " line " in one and four.startswith("4 ") and " lines " in four


@pytest.mark.slow  # plays one lesson without drawing, looking through two update steps
def test_a_line_printed_as_the_pane_comes_back_slides_in_with_the_column() -> None:
    """tanh_sgd_lists at 16:9: an update step prints its arithmetic in the step the code pane
    comes back whole from its lit line (``print(loss)``), the printed lines sliding down under
    it. Placed beside the lines where they stood, the new line stayed over the pane's rows
    (the later steps' lines too, for the rest of the lesson), and the column's Transform to a
    copy without it morphed its lines into each other, under 9 px (109.8 s). Through the step
    every console line keeps its size, and once the pane is back none lies over its code."""
    from pathlib import Path

    from scenes.draw.collisions import too_small
    from scenes.render.camera_plan import load_and_plan_at

    path = Path(__file__).parents[1] / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"
    checked, plan = load_and_plan_at(str(path), aspect="16:9")
    ups = [c for c in plan.cues if c.kind == "update_step"]
    firsts = [u for n, u in enumerate(ups) if n == 0 or u.start - ups[n - 1].start > 1.0][1:]  # after print(loss)
    assert firsts
    fps = 15
    during = [round(u.start + k / fps, 3) for u in firsts for k in range(8)]
    after = [round(u.start + 0.44, 3) for u in firsts]
    theme = load_theme()
    for s in inspect_clip(checked, plan, RenderOptions(aspect="16:9", fps=fps), at=sorted(set(during + after))):
        items = [i for i in s["items"] if i["role"] == "console"]
        small = [c.describe() for c in too_small(items, s["frame"], theme.font_sizes.min_glyph_px)]
        assert small == [], f"{s['time']:.2f} s: {small}"
        if round(s["time"], 3) in after or any(abs(s["time"] - a) < 0.5 / fps for a in after):
            code = [i["bbox"] for i in s["items"] if i["role"] == "code" and i["opacity"] >= 0.5]
            over = [i["text"] for i in items if i["opacity"] >= 0.5 for b in code if _meet(i["bbox"], b)]
            assert over == [], f"{s['time']:.2f} s: over the code: {over}"


@pytest.mark.slow  # plays one lesson twice without drawing, looking as each printed line is done
@pytest.mark.parametrize("aspect", ["16:9", "1:1"])
def test_the_count_of_lines_scrolled_away_is_never_under_a_line(aspect: str) -> None:
    """tanh_sgd_lists prints each step's loss with the code pane stepped aside to ``print(loss)``,
    the printed lines (and their count, "2 earlier lines not shown") hanging under its lit line.
    The column's floor was moved down, not up, by as far as the lines rose: the loss printed
    there went into the count's row, over its words (80.5 s at 16:9, 108 s at 1:1), and stayed
    until the pane came back. Whenever a printed line is done, and as the pane slides back,
    no console item lies over another."""
    from pathlib import Path

    from scenes.render.camera_plan import load_and_plan_at

    path = Path(__file__).parents[1] / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"
    checked, plan = load_and_plan_at(str(path), aspect=aspect)
    prints = [c for c in plan.cues if c.kind in ("output_line", "update_step", "message")]
    assert any(c.kind == "output_line" for c in prints)
    fps = 10
    at = sorted({round(c.start + c.duration + k / fps, 3) for c in prints for k in range(4)} - {round(plan.duration, 3)})
    said = {earlier_words(n, load_theme().labels) for n in range(1, 200)}
    counted = 0
    for s in inspect_clip(checked, plan, RenderOptions(aspect=aspect, fps=fps), at=at):
        shown = [i for i in s["items"] if i["role"] == "console" and i["opacity"] >= 0.5]
        counted += any(i["text"] in said for i in shown)
        over = [(a["text"], b["text"]) for n, a in enumerate(shown) for b in shown[n + 1:] if _meet(a["bbox"], b["bbox"])]
        assert over == [], f"{s['time']:.2f} s: console items over each other: {over}"
    assert counted, "no count of lines scrolled away was looked at: the test no longer looks at what it means to"


def test_two_lines_printed_as_the_pane_comes_back_both_slide_in_where_they_end() -> None:
    """The column slides with the pane coming back (`Slide`); each line printed in that step joins
    the slide (`slide_home`, then `join_slide`). Joining a second time shifted the column again,
    the first new line with it: it ended a slide's length under its place, faded for good (the
    slide's target copied it faded). Both new lines end under the old ones, in order, shown."""
    from manim import DOWN, LEFT, Square, Transform, VGroup

    from scenes.draw.console import join_slide, slide_home
    from scenes.draw.context import Slide

    gap, dy = 0.1, -1.0
    column = VGroup(*[Square(0.2, fill_opacity=1.0).move_to([0.0, -0.3 * k, 0.0]) for k in range(2)])
    start = [float(p.get_center()[1]) for p in column.submobjects]
    slide = Slide(Transform(column, column.copy().shift([0.0, dy, 0.0])), dy)
    for _ in range(2):  # two prints in the one step
        was = slide_home(column, slide)
        column.add(Square(0.2, fill_opacity=1.0).next_to(column.submobjects[-1], DOWN, buff=gap, aligned_edge=LEFT))
        join_slide(column, slide.move, was, [])
    ends = [round(float(p.get_center()[1]), 6) for p in slide.move.target_mobject.submobjects]
    assert ends == [round(y, 6) for y in [start[0] + dy, start[1] + dy, start[1] + dy - 0.3, start[1] + dy - 0.6]]
    assert [float(p.get_fill_opacity()) for p in slide.move.target_mobject.submobjects] == [1.0] * 4
    assert [round(float(p.get_center()[1]), 6) for p in column.submobjects[:2]] == [round(y, 6) for y in start]
    assert [float(p.get_fill_opacity()) for p in column.submobjects[2:]] == [0.0, 0.0]  # they come in with the slide


@pytest.mark.slow  # plays one lesson without drawing, looking at every frame of its update steps
def test_an_update_steps_token_keeps_off_the_printed_lines() -> None:
    """tanh_sgd_lists at 16:9: each update step's ``lr × grad`` token rides from beside the
    weight's bucket to its card as the step prints its arithmetic, the column sliding down under
    the code pane coming back (or scrolling). Kept off the lines only where they stood as it set
    off, it waited beside W1[0]'s card on the lines slid there (82.4 s, 110.0 s) and set off over
    the new line and the count coming in (82.2 s, 109.8 s). It keeps off where they end
    (`StepScratch.printed`): at no frame of a step is a token over a printed line."""
    from pathlib import Path

    from scenes.draw.collisions import MIN_OPACITY
    from scenes.render.camera_plan import load_and_plan_at

    path = Path(__file__).parents[1] / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"
    checked, plan = load_and_plan_at(str(path), aspect="16:9")
    ups = [c for c in plan.cues if c.kind == "update_step"]
    fps = 15
    at = sorted({round(u.start + k / fps, 3) for u in ups for k in range(int(u.duration * fps) + 2)})
    seen = 0
    for s in inspect_clip(checked, plan, RenderOptions(aspect="16:9", fps=fps), at=at):
        shown = [i for i in s["items"] if i["opacity"] >= MIN_OPACITY]
        tokens = [i for i in shown if i["role"] == "badge"]
        seen += len(tokens)
        over = [(t["text"], c["text"]) for t in tokens for c in shown if c["role"] == "console"
                and _meet(t["bbox"], c["bbox"])]
        assert over == [], f"{s['time']:.2f} s: a token over the printed lines: {over}"
    assert seen, "no token was looked at: the test no longer looks at what it means to"


def _meet(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
