"""Time to read: every caption event of the nine clips can be read, and never runs ahead of the picture.

What must hold (issue 19): each caption event at most 15 characters a second, at most 2 lines of at
most 42 characters, at least 1.5 s on screen and at most 7 s from when its words start (longer
only while its beat's picture still moves under it); a long narration is cut into several events
at its phrase breaks; the beat holds its picture until its caption is read; a number is on screen
no later than the caption that names it starts being read (a caption may come up before, with
the action leading to it). Only a narration no cut can fit is refused.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from scenes.storyboard import StoryboardError, load, load_and_plan, storyboard_path
from scenes.storyboard.reading import ReadingRules, fits, lines, split, unfit, words
from scenes.theme import default_theme
from tests.clips import CLIPS, LESSONS
from tests.storyboard.phrase_metrics import STAGING

RULES = ReadingRules.from_theme(default_theme())


def test_the_rules_are_the_themes() -> None:
    assert (RULES.chars_per_second, RULES.line_chars, RULES.lines, RULES.min_seconds, RULES.max_seconds,
            RULES.min_words) == (15, 42, 2, 1.5, 7, 3)


@pytest.mark.parametrize("name", CLIPS)
def test_every_caption_event_can_be_read(name: str) -> None:
    _, p = load_and_plan(storyboard_path(name))
    moving = {}  # per beat, when its last action (a cue other than staging) ends
    for q in p.cues:
        if q.kind not in STAGING:
            moving[q.beat] = max(moving.get(q.beat, 0.0), q.start + q.duration)
    for c in p.captions:
        shown = c.end - c.start
        set_in = textwrap.wrap(c.text, 42, break_long_words=False)
        assert len(set_in) <= 2 and all(len(x) <= 42 for x in set_in), c.text
        assert RULES.min_seconds - 1e-9 <= shown, (c.text, shown)
        # at most 7 s from its words' start, or longer only while its beat's picture still moves
        assert c.end - c.said <= 7 + 1e-9 or c.end <= moving.get(c.beat, 0.0) + 1e-9, (c.text, shown)
        assert len(c.text) / shown <= 15 + 1e-9, (c.text, shown)
    for a, b in zip(p.captions, p.captions[1:]):
        assert a.end <= b.start + 1e-9


@pytest.mark.parametrize("path", [storyboard_path(n) for n in CLIPS] + LESSONS, ids=lambda p: Path(p).stem)
def test_no_caption_event_is_a_fragment(path: str) -> None:
    """A caption cut to wait for its number, or cut to fit, keeps at least ``min_words`` words
    (a number is none) on each side: the mlp's "0.5977;" was once an event of its own, a number
    with nothing to say what it is, and "s is -1/3." one of about 1 s. Every event is up for at
    least ``min_seconds`` (1.5 s)."""
    _, p = load_and_plan(str(path))
    for c in p.captions:
        assert c.end - c.start >= RULES.min_seconds - 1e-9, (c.text, c.end - c.start)
        if c.style == "caption" and words(c.text) < RULES.min_words:
            whole = [n for n in p.captions if n.beat == c.beat and n.style == "caption"]
            assert len(whole) == 1, (c.text, [n.text for n in whole])


@pytest.mark.parametrize("text, events", [
    ("The product node sends its input back along the edge of the other factor to it; c = 9.",
     ["The product node sends its input back along the", "edge of the other factor to it; c = 9."]),
    ("The bucket of x holds what arrived along its edge from the node of the sigmoid: 0.0000.",
     ["The bucket of x holds what arrived along its edge", "from the node of the sigmoid: 0.0000."]),
    ("The walk multiplies what arrived by each local derivative, as the rule says. So, c = 9.",
     ["The walk multiplies what arrived by each local derivative,", "as the rule says. So, c = 9."]),
    ("x.grad is 5.52e-06; after eight multiplications by the derivative of the square nothing is left.",
     ["x.grad is 5.52e-06; after eight multiplications by the", "derivative of the square nothing is left."]),
])
def test_a_fragment_is_joined_to_its_neighbour(text: str, events: list[str]) -> None:
    got = split(text, RULES)
    assert got == events
    assert all(fits(e, RULES) for e in got)


@pytest.mark.parametrize("name", CLIPS)
def test_a_beat_holds_until_its_captions_are_read(name: str) -> None:
    _, p = load_and_plan(storyboard_path(name))
    for beat in p.beats:
        caps = [c for c in p.captions if c.beat == beat.index]
        assert caps, beat
        assert max(c.end for c in caps) <= beat.start + beat.duration + 1e-9
        cues = [c for c in p.cues if c.beat == beat.index]
        assert all(c.start + c.duration <= beat.start + beat.duration + 1e-9 for c in cues)


@pytest.mark.parametrize("name", CLIPS)
def test_a_number_is_on_screen_no_later_than_the_caption_names_it(name: str) -> None:
    _, p = load_and_plan(storyboard_path(name))
    first: dict[str, float] = {}
    for c in p.cues:
        for s in c.strings:
            first[s.text] = min(first.get(s.text, c.start), c.start)
    named = 0
    for cap in p.captions:
        for s in cap.strings:
            if s.text in first:
                named += 1
                assert first[s.text] <= cap.said + 1e-9, (cap.text, s.text, first[s.text], cap.said)
    assert named or name == "mlp"


@pytest.mark.parametrize("name", CLIPS)
def test_the_clip_opens_on_its_picture_with_the_title_and_ends_on_its_takeaway(name: str) -> None:
    checked, p = load_and_plan(storyboard_path(name))
    assert p.captions[0].style == "title" and p.captions[0].text == checked.storyboard.title
    assert p.captions[0].start == 0.0
    assert not [c for c in p.cues if c.kind == "title"]  # no static title card
    assert p.cues[0].start < p.captions[0].end  # the picture starts under the title
    assert p.beats[-1].visual == "takeaway" and p.captions[-1].style == "takeaway"
    assert checked.storyboard.takeaway is not None
    assert all(c.text != checked.storyboard.title for c in p.captions[1:])
    takeaway = " ".join(c.text for c in p.captions if c.style == "takeaway")
    assert any(ch.isdigit() for ch in takeaway)  # its key numbers, from the log


def test_a_long_narration_is_cut_at_its_phrase_breaks() -> None:
    text = ("Sub: its derivative with respect to yh is one, so the gradient passes unchanged. "
            "The path to y is skipped.")
    assert not fits(text, RULES)
    got = split(text, RULES)
    assert got == ["Sub: its derivative with respect to yh is one, so the gradient passes unchanged.",
                   "The path to y is skipped."]
    assert all(fits(x, RULES) for x in got)
    one = split("Mul gets 4/3 and swaps values, w2 gets 4/9, and s gets 8/3, and the walk goes on to relu and beyond", RULES)
    assert len(one) == 2 and one[0].endswith(",")  # a comma before a word break
    words = split(" ".join(["word"] * 40), RULES)
    assert all(fits(x, RULES) for x in words) and " ".join(words) == " ".join(["word"] * 40)


def test_two_lines_break_after_punctuation_and_never_inside_brackets() -> None:
    assert lines("Pow: the derivative of (yh - y)² is twice (yh - y).", RULES) == \
        ["Pow: the derivative of", "(yh - y)² is twice (yh - y)."]
    assert lines("The loss is small.", RULES) == ["The loss is small."]


def test_only_a_word_longer_than_a_line_cannot_be_fitted() -> None:
    assert unfit("A perfectly ordinary narration, however long it goes on and on and on.", RULES) is None
    assert "longer than a caption line" in (unfit("see " + "x" * 50, RULES) or "")


def _board(tmp_path: Path, narration: str, takeaway: str = "The loss is {L}.") -> str:
    text = Path(storyboard_path("graph_build")).read_text()
    head, beats = text.split("\nbeats:\n", 1)
    head = head.split("\ntakeaway:")[0]
    file = tmp_path / "board.yaml"
    file.write_text(head + f'\ntakeaway:\n  text: "{takeaway}"\nbeats:\n  - visual: code_and_graph_build\n'
                    f'    lines: [2, 9]\n    narration: "{narration}"\n')
    return str(file)


def test_check_refuses_only_a_narration_no_cut_can_fit(tmp_path: Path) -> None:
    long = " ".join(["The forward pass records one node per operation, and then another one."] * 4)
    load(_board(tmp_path, long))  # long, but it cuts into events: fine
    with pytest.raises(StoryboardError) as err:
        load(_board(tmp_path, "Look at " + "a" * 50 + " here."))
    assert "cannot be cut into captions" in str(err.value) and ":" in str(err.value).splitlines()[0]


def test_check_refuses_a_takeaway_placeholder_the_log_has_no_value_for(tmp_path: Path) -> None:
    with pytest.raises(StoryboardError) as err:
        load(_board(tmp_path, "The forward pass.", takeaway="The gradient is {nothing.grad}."))
    assert "nothing" in str(err.value) and "takeaway" in str(err.value)


def test_quoted_code_is_never_cut_across_lines_or_events() -> None:
    """Backtick code is drawn in the code font as one piece: no line or event break inside it."""
    from scenes.storyboard.reading import ReadingRules, lines, split

    rules = ReadingRules()
    text = ("tanh's local derivative is `1 - o**2 + a * b`, so the gradient at n is small and that is "
            "the whole of it, because `1 - o**2 + a * b` is made from the output alone.")
    for event in split(text, rules):
        assert event.count("`") % 2 == 0
        for line in lines(event, rules):
            assert line.count("`") % 2 == 0, line


@pytest.mark.parametrize("path", [storyboard_path(n) for n in CLIPS] + LESSONS, ids=lambda p: Path(p).stem)
def test_no_planned_caption_cuts_quoted_code(path: str) -> None:
    """Nor does the cut that lets the words before a late number be read first: sgd_loop's
    "the loss `(w * x - y) ** 2` is 4." was cut at the code's minus, read as a dash, into
    "... the loss `(w * x" and "- y) ** 2` is 4."."""
    _, p = load_and_plan(str(path))
    for c in p.captions:
        assert c.text.count("`") % 2 == 0, c.text
        assert all(line.count("`") % 2 == 0 for line in c.lines), c.lines
