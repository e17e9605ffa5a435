"""Chapters and WebVTT from the plan: one chapter per beat, YouTube's rules when merged, and the
captions track holding the same cues as the .srt."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scenes.commands.storyboard import main
from scenes.storyboard import find_storyboards, load_and_plan, storyboard_path, vtt
from scenes.storyboard.captions import srt
from scenes.storyboard.chapters import (beat_chapters, beat_texts, chapters_vtt, heading, youtube_chapters,
                                        youtube_lines, youtube_problem)
from scenes.storyboard.plan import BeatTime, CaptionSpan, Plan

# one worker for this module under pytest-xdist: its tests share a module-scoped fixture
pytestmark = pytest.mark.xdist_group("chapters")


@pytest.fixture(scope="module")
def plans() -> dict[str, Plan]:
    return {checked.name: p for checked, p in (load_and_plan(f) for f in find_storyboards())}


def test_one_chapter_per_beat_from_its_start_titled_by_its_captions(plans: dict[str, Plan]) -> None:
    p = plans["backward_walk"]
    chapters = beat_chapters(p)
    assert [c.start for c in chapters] == [b.start for b in p.beats]
    assert [c.end for c in chapters] == [b.start for b in p.beats[1:]] + [p.duration]
    assert [c.title for c in chapters[:7]] == [b.title for b in p.beats[:7]]  # the storyboard's title: keys
    assert chapters[1].title == "The walk starts at the loss"
    assert all(c.title and len(c.title) <= 60 for c in chapters[:7])
    assert chapters[7].title == "Each node multiplied the gradient from above by its local derivative"  # takeaway


def test_without_a_title_a_chapter_is_the_first_phrase_of_its_narration(plans: dict[str, Plan]) -> None:
    p = plans["backward_walk"]
    untitled = replace(p, beats=tuple(replace(b, title=None) for b in p.beats))
    titles = [c.title for c in beat_chapters(untitled)]
    assert titles[1] == "The walk starts with 1 at the loss"  # 1 from the log
    assert titles[2] == "Sub: its derivative with respect to yh is one"  # the first clause of a long sentence
    assert not any("…" in t or t.endswith("...") for t in titles)


def test_a_beat_cut_into_several_captions_is_one_chapter_with_all_its_words() -> None:
    """Long narrations may be shown as several caption events: the chapter and the article's
    prose read them all, in order, and never re-split the narration themselves."""
    beats = (BeatTime(0, "title_card", 0.0, 4.0), BeatTime(1, "wavefront", 4.0, 8.0))
    captions = (CaptionSpan(1, 0.0, 3.5, "Opening words.", 0),
                CaptionSpan(2, 4.0, 7.0, "First half of a long line,", 1),
                CaptionSpan(3, 7.0, 11.5, "and its second half.", 1))
    p = Plan("t", 12.0, (), captions, beats)
    assert beat_texts(p) == ["Opening words.", "First half of a long line, and its second half."]
    assert [c.title for c in beat_chapters(p)] == ["Opening words", "First half of a long line, and its second half"]
    assert vtt(p.captions).count(" --> ") == 3


def _most_chapters(p: Plan) -> int:
    """The most chapters of at least 10 s that cuts at beat starts allow (every set of cuts tried)."""
    starts = [b.start for b in p.beats[1:]]
    best = 1
    for mask in range(1 << len(starts)):
        edges = [0.0] + [s for k, s in enumerate(starts) if mask >> k & 1] + [p.duration]
        if all(b - a >= 10.0 for a, b in zip(edges, edges[1:])):
            best = max(best, len(edges) - 1)
    return best


def test_youtube_chapters_follow_youtubes_rules_for_every_clip(plans: dict[str, Plan]) -> None:
    for name, p in plans.items():
        chapters = youtube_chapters(p)
        assert chapters[0].start == 0.0, name
        assert all(c.end - c.start >= 10.0 for c in chapters), name
        assert len(chapters) == _most_chapters(p), name  # as many as the beats allow
        assert (len(chapters) >= 3) == (youtube_problem(chapters) is None), name
        assert chapters[-1].end == p.duration and [b for c in chapters for b in c.beats] == list(range(len(p.beats)))
        firsts = [c.beats[0] for c in chapters]
        assert [c.title for c in chapters] == [beat_chapters(p)[k].title for k in firsts]


def test_short_beats_merge_and_a_short_tail_joins_the_chapter_before() -> None:
    starts = [0, 4, 8, 12, 25, 31]
    beats = tuple(BeatTime(i, "wavefront", float(s), 0.0) for i, s in enumerate(starts))
    captions = tuple(CaptionSpan(i + 1, float(s), float(s) + 1, f"Beat {chr(65 + i)}.", i) for i, s in enumerate(starts))
    p = Plan("t", 36.0, (), captions, beats)
    chapters = youtube_chapters(p)
    assert [(c.start, c.end, c.beats) for c in chapters] == [(0.0, 12.0, (0, 1, 2)), (12.0, 25.0, (3,)),
                                                            (25.0, 36.0, (4, 5))]
    assert youtube_lines(chapters) == "0:00 Beat A\n0:12 Beat D\n0:25 Beat E\n"
    tail = replace(p, beats=p.beats[:4], captions=p.captions[:4], duration=16.0)  # 12..16 alone is too short
    assert [(c.start, c.end, c.beats) for c in youtube_chapters(tail)] == [(0.0, 16.0, (0, 1, 2, 3))]


def test_render_plan_chapters_prints_youtube_lines(capsys: pytest.CaptureFixture[str], plans: dict[str, Plan]) -> None:
    assert main(["plan", "dynamic_graph", "--chapters", "--voice", "off"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("0:00 ") and lines == youtube_lines(youtube_chapters(plans["dynamic_graph"])).splitlines()
    assert main(["plan", "backward_walk", "--vtt", "--voice", "off"]) == 0
    assert capsys.readouterr().out == vtt(plans["backward_walk"].captions)


def test_the_vtt_has_the_srts_cues(plans: dict[str, Plan]) -> None:
    p = plans["grad_accumulation"]
    srt_cues = [b.split("\n", 2) for b in srt(p.captions).strip().split("\n\n")]
    vtt_text = vtt(p.captions)
    assert vtt_text.startswith("WEBVTT\n\n")
    vtt_cues = [b.split("\n", 2) for b in vtt_text.strip().split("\n\n")[1:]]
    assert len(vtt_cues) == len(srt_cues) == len(p.captions)
    for (n1, t1, x1), (n2, t2, x2) in zip(srt_cues, vtt_cues):
        assert n1 == n2 and t1.replace(",", ".") == t2 and x1 == x2


def test_cue_text_is_escaped_and_chapters_are_titled() -> None:
    p = Plan("t", 3.0, (), (CaptionSpan(1, 0.0, 3.0, "a < b & c --> d", 0),), (BeatTime(0, "title_card", 0.0, 3.0),))
    assert "a &lt; b &amp; c --&gt; d" in vtt(p.captions)
    assert chapters_vtt(beat_chapters(p)).endswith("00:00:00.000 --> 00:00:03.000\na &lt; b &amp; c --&gt; d\n")
    assert heading("x" * 80) == "x" * 80 and heading("x " * 40) == ("x " * 40).strip()  # long, never cut
