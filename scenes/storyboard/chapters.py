"""Chapters of a clip, made from the plan: one per beat, or merged for YouTube's rules.

Why from the plan: a chapter starts where its beat starts in the picture, and is named by the
beat's ``title:`` when the storyboard gives one, else by the beat's own narration as the captions show it (the plan's caption events, whatever way a long
narration was cut into several), so the chapters of the mp4, of the ``kind="chapters"`` track and
of ``render plan --chapters`` can never disagree with the clip.

YouTube reads chapters from timestamps in a description: the first at 0:00, at least three, each
at least 10 s long; :func:`youtube_chapters` merges consecutive beats until each is long enough.

>>> heading("Mul: w1 gets 8/3. The path to x is skipped.")
'Mul: w1 gets 8/3'
>>> heading("Sub: its derivative with respect to yh is one, so the gradient passes unchanged.")
'Sub: its derivative with respect to yh is one'
>>> heading("A first sentence that runs on and on without a single comma to break it anywhere at all.")
'A first sentence that runs on and on without a single comma to break it anywhere at all'
>>> youtube_time(75.9), youtube_time(3725.0)
('1:15', '1:02:05')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .captions import vtt_cues
from .plan import Plan

HEADING_CHARS = 60
"""A chapter's title at most this long: a player's chapter menu shows one short line."""
YOUTUBE_MIN_SECONDS = 10.0
YOUTUBE_MIN_CHAPTERS = 3
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CLAUSE_END = re.compile(r"[;,:]\s")


@dataclass(frozen=True)
class Chapter:
    """From ``start`` to ``end`` (seconds), titled ``title``; ``beats`` are the 0-based beats it covers."""

    start: float
    end: float
    title: str
    beats: tuple[int, ...]


def beat_texts(p: Plan) -> list[str]:
    """Each beat's narration as its captions show it (numbers filled), a beat's caption events
    joined; the clip's title, shown over the first beat, is not part of that beat's narration."""
    texts: list[list[str]] = [[] for _ in p.beats]
    for c in p.captions:
        if c.style != "title":
            texts[c.beat].append(c.text.strip())
    return [" ".join(t) for t in texts]


def heading(text: str) -> str:
    """A short title for a beat: its first phrase, that is its first sentence (without the full
    stop) or, when that is longer than HEADING_CHARS, its first clause of 20 to HEADING_CHARS
    characters, else its first clause of 20 or more. Never cut inside a phrase with "…": a
    sentence no clause break shortens is the title whole (a storyboard's ``title:`` is the way
    to a shorter one)."""
    first = _SENTENCE_END.split(text.strip(), maxsplit=1)[0].rstrip(".!? ")
    if len(first) <= HEADING_CHARS:
        return first
    breaks = [m.start() for m in _CLAUSE_END.finditer(first) if m.start() >= 20]
    fits = [b for b in breaks if b <= HEADING_CHARS]
    return first[:(fits or breaks)[0]] if breaks else first


def beat_chapters(p: Plan) -> list[Chapter]:
    """One chapter per beat, each ending where the next begins (the last at the clip's end),
    titled by the beat's ``title:``, else by the first phrase of its narration."""
    titles = [b.title or heading(t) for b, t in zip(p.beats, beat_texts(p))]
    ends = [b.start for b in p.beats[1:]] + [p.duration]
    return [Chapter(b.start, end, title, (b.index,)) for b, end, title in zip(p.beats, ends, titles)]


def youtube_chapters(p: Plan, min_seconds: float = YOUTUBE_MIN_SECONDS) -> list[Chapter]:
    """The beats' chapters merged so that each lasts at least ``min_seconds``: a chapter takes
    the next beat while it is shorter, and a short remainder at the end joins the chapter before.
    Each is titled by its first beat; the first starts at 0:00."""
    merged: list[Chapter] = []
    for ch in beat_chapters(p):
        if merged and merged[-1].end - merged[-1].start < min_seconds:
            last = merged.pop()
            ch = Chapter(last.start, ch.end, last.title, last.beats + ch.beats)
        merged.append(ch)
    if len(merged) > 1 and merged[-1].end - merged[-1].start < min_seconds:
        tail = merged.pop()
        last = merged.pop()
        merged.append(Chapter(last.start, tail.end, last.title, last.beats + tail.beats))
    return merged


def youtube_time(seconds: float) -> str:
    """Whole seconds as YouTube writes a timestamp: ``M:SS``, or ``H:MM:SS`` from an hour."""
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def youtube_lines(chapters: list[Chapter]) -> str:
    """The chapter lines of a video description, one ``M:SS title`` a line."""
    return "".join(f"{youtube_time(c.start)} {c.title}\n" for c in chapters)


def youtube_problem(chapters: list[Chapter]) -> str | None:
    """Why YouTube would not show these chapters (too few: a clip under 30 s), or None."""
    if len(chapters) < YOUTUBE_MIN_CHAPTERS:
        return (f"YouTube shows chapters only when there are at least {YOUTUBE_MIN_CHAPTERS} of at least "
                f"{YOUTUBE_MIN_SECONDS:g} s; this clip has room for {len(chapters)}")
    return None


def chapters_vtt(chapters: list[Chapter]) -> str:
    """The chapters as a WebVTT ``kind="chapters"`` track: one cue per chapter, titled."""
    return vtt_cues((c.start, c.end, c.title) for c in chapters)
