"""A beat's `grad_none:`: where the words say a result's `.grad` is None (leaf_nodes' yh,
missing_gradient's z), a note beside its card says so, `yh.grad = None` after an empty bucket,
from the moment the words name `yh.grad`; a leaf whose bucket the log has empty then
(missing_gradient's v) wears the words beside its bucket; names of leaves holding a number, not
tensors, or not said are refused at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import StoryboardError, load, load_and_plan, storyboard_path


def _said(plan, words: str):
    """The caption that says ``words``."""
    return next(c for c in plan.captions if words in c.text)


@pytest.mark.parametrize("clip, name, words", [("leaf_nodes", "yh", "yh.grad stays None"),
                                                ("missing_gradient", "z", "z.grad gives None")])
def test_a_result_s_none_grad_is_drawn_as_the_words_say_it(clip: str, name: str, words: str) -> None:
    """While the caption says the result's .grad is None, `render inspect` shows its note beside
    its card (the words and the empty bucket, id of the result's tensor), and not before the
    caption; it stays to the clip's end (nothing fills a result's .grad)."""
    checked, plan = load_and_plan(str(storyboard_path(clip)))
    said = _said(plan, words)
    tid = checked.index.ids_of(name)[0]
    assert not checked.index.tensor_event[tid].is_leaf
    cue = next(c for c in plan.cues if c.kind == "grad_none")
    assert cue.ids[0] == tid and [s.text for s in cue.strings] == [name, "None"]
    assert said.start - 0.05 <= cue.start < said.end
    before, during, end = inspect_clip(checked, plan, RenderOptions(), at=[
        said.start - 0.3, cue.start + cue.duration + 0.1, plan.duration - 0.1])
    for sample, shown in ((before, False), (during, True), (end, True)):
        notes = [i for i in sample["items"] if i["id"] == f"note:{tid}" and i["role"] == "note" and i["opacity"] > 0.5]
        empty = [i for i in sample["items"] if i["role"] == "bucket" and i["id"] == f"note:{tid}"
                 and i["opacity"] > 0.5]
        text = " ".join(i["text"] for i in notes)
        assert (text.replace("  ", " ") == f"{name}.grad = None") is shown, (sample["time"], text)
        assert bool(empty) is shown, sample["time"]


def _refused(tmp_path: Path, clip: str, old: str, new: str) -> tuple[list[str], int]:
    text = Path(storyboard_path(clip)).read_text()
    assert old in text
    text = text.replace(old, new)
    (tmp_path / "s.yaml").write_text(text)
    with pytest.raises(StoryboardError) as info:
        load(str(tmp_path / "s.yaml"))
    line = next(k for k, row in enumerate(text.splitlines(), 1) if "grad_none:" in row and row.strip().startswith("grad_none"))
    return [str(p) for p in info.value.problems], line


@pytest.mark.parametrize("given, expected", [
    ("[w1]", "grad_none: 'w1' is a leaf whose .grad is not None at this beat"),
    ("[yhh]", "grad_none: 'yhh' is not a tensor of the log"),
])
def test_grad_none_names_a_result_of_the_log(tmp_path: Path, given: str, expected: str) -> None:
    got, line = _refused(tmp_path, "leaf_nodes", "grad_none: [yh]", f"grad_none: {given}")
    assert len(got) == 1 and f"s.yaml:{line}:" in got[0], got
    assert expected in got[0], got
    if given != "[w1]":
        assert "did you mean 'yh'" in got[0].lower()


def test_a_leaf_s_none_grad_is_worn_by_its_bucket() -> None:
    """missing_gradient's `v.grad is None` (v used only by L2, backward ran on L1): its bucket, empty
    as the log has it, wears `v.grad = None` beside it from the words on, not before, to the end;
    the name and the None are the cue's, read from the log (docs/visual-grammar.md)."""
    checked, plan = load_and_plan(str(storyboard_path("missing_gradient")))
    said = _said(plan, "so v.grad is None")
    tid = checked.index.ids_of("v")[0]
    assert checked.index.tensor_event[tid].is_leaf
    cue = next(c for c in plan.cues if c.kind == "grad_none" and c.ids[0] == tid)
    assert [s.text for s in cue.strings] == ["v", "None"]
    assert said.start - 0.05 <= cue.start < said.end
    before, during, end = inspect_clip(checked, plan, RenderOptions(), at=[
        said.start - 0.3, cue.start + cue.duration + 0.1, plan.duration - 0.1])
    for sample, shown in ((before, False), (during, True), (end, True)):
        words = [i["text"] for i in sample["items"] if i["id"] == f"note:bucket:{tid}" and i["role"] == "note"
                 and i["opacity"] > 0.5]
        bucket = [i for i in sample["items"] if i["role"] == "bucket" and i["id"] == f"bucket:{tid}" and i["opacity"] > 0.5]
        assert bucket, sample["time"]
        assert (" ".join(words).replace("  ", " ") == "v.grad = None") is shown, (sample["time"], words)


def test_grad_none_needs_the_words_that_say_it(tmp_path: Path) -> None:
    got, line = _refused(tmp_path, "leaf_nodes", "keeps no gradient: yh.grad stays None.", "keeps no gradient.")
    assert len(got) == 1 and f"s.yaml:{line}:" in got[0], got
    assert "the words name yh.grad, and this beat's narration does not" in got[0]
    assert '"yh.grad is None"' in got[0]
