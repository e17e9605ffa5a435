"""A clip's segment keys, worked out without Manim: what each beat's cached segment is named by.

A segment's key is a sha256 over the clip's fixed part, the picture its beat starts from and its own
steps (see :mod:`scenes.render.beats`). :class:`ClipKeys` holds them for one clip and tells which
segments a render will draw; :func:`after` names the stored digest of the picture a segment ends on.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from scenes.render.options import RenderOptions, SEGMENTS, fps_of, pixel_size, encoder_options, segment_path

if TYPE_CHECKING:
    from scenes.layout.place import Layout
    from scenes.storyboard.plan import Plan
    from scenes.storyboard.validate import Checked


class ClipKeys:
    """What a clip's segment keys are made of (no Manim): its segments, each one's description
    and prefix hash, the fixed part, and the store of starting pictures."""

    def __init__(self, opts: RenderOptions, checked: Checked, p: Plan, layout: Layout | None = None) -> None:
        """``layout``: the clip's, where the caller laid it out already (`Loaded.layout`)."""
        from scenes.render.states import BeatStates
        from scenes.layout.bucket_level import fill_scales
        from scenes.layout.clip import clip_layout
        from scenes.layout.unshown import nothing_shown
        from scenes.render.keys import clip_digest, prefixes, segment_description, segment_shape
        from scenes.video.timeline import clip_segments
        from scenes.render.code_version import code_digest
        from scenes.theme import load_theme, theme_file

        self.opts = opts
        self.theme = theme = load_theme()
        spec = theme.aspect(opts.aspect)
        self.size, self.fps = pixel_size(opts, (spec.pixel_width, spec.pixel_height)), fps_of(opts)
        self.encoder = encoder_options(opts)
        if layout is None:
            layout = clip_layout(p, checked.run.events, checked.index.source, opts.aspect, theme)
        self.layout = layout
        nothing_shown(checked, p, {opts.aspect: layout})  # bare boxes, or no beat that draws: refused
        self.segs = clip_segments(p, opts.captions, theme.timings.caption_fade, self.fps)
        fill_max = fill_scales(p)
        self.descs = [segment_description(seg, fill_max, self.fps) for seg in self.segs]
        self.shapes = [segment_shape(seg, fill_max) for seg in self.segs]
        self.fixed = clip_digest(layout, opts.aspect, opts.captions, self.size, self.fps, self.encoder, code_digest(),
                                 theme_file().read_bytes(), checked.run.jsonl, opts.voice_key or "off")
        self.pre = prefixes(self.fixed, checked.run.jsonl, self.descs)
        self.states = BeatStates(Path(opts.out) / SEGMENTS)

    def key(self, k: int, digest: str) -> str:
        """Segment k's key, given the digest of the picture it starts from."""
        from scenes.render.keys import segment_key

        return segment_key(self.fixed, digest, self.descs[k])

    def known_digest(self, k: int, before: str | None) -> str | None:
        """The digest of the picture segment k starts from, if known without Manim: stored under
        its prefix, or else under the key of the segment before it (``before``), which leads to
        it. The second is what finds a beat's start again after a narration edit before it: the
        prefix changed (an earlier description did), the picture did not."""
        digest = self.states.digest(self.pre[k])
        if digest is None and before is not None:
            digest = self.states.digest(after(before))
        return digest

    def known_keys(self) -> list[str | None]:
        """Each segment's key, as far as is known without Manim (None: its start was never digested)."""
        out: list[str | None] = []
        before = None
        for k in range(len(self.segs)):
            digest = self.known_digest(k, before)
            before = None if digest is None else self.key(k, digest)
            out.append(before)
        return out

    def ends(self, k: int, digest: str) -> str:
        """Where the picture segment k ends on is noted, given the picture it starts from
        (:func:`scenes.render.keys.ends_on`): for :meth:`stale`'s guesses."""
        from scenes.render.keys import ends_on

        return ends_on(self.fixed, digest, self.shapes[k])

    def stale(self, guess: bool = False) -> list[bool]:
        """Which segments a render will draw, as far as can be told without Manim: those whose
        file is missing, and those whose starting picture is not known (all of them with
        --force). The parent uses this to share out only the beats that need drawing.
        ``guess``: a start not known (a beat before it changed) is guessed as the picture a beat
        of the same shape from the same start ended on last time; a narration edit changes a
        beat's captions and times, so the later beats count as cached and no worker is started
        for them. For processes that each find every beat's start themselves (the local pool):
        a wrong guess then only shares the work otherwise, never changes a frame."""
        if self.opts.force:
            return [True] * len(self.segs)
        out: list[bool] = []
        before = ends = None
        for k in range(len(self.segs)):
            digest = self.known_digest(k, before) or ends
            before = None if digest is None else self.key(k, digest)
            out.append(before is None or not segment_path(Path(self.opts.out), before).exists())
            ends = self.states.digest(self.ends(k, digest)) if guess and digest is not None else None
        return out


def after(key: str) -> str:
    """The name the digest of the picture a segment ends on is stored under, given its key."""
    return hashlib.sha256(f"after:{key}".encode()).hexdigest()
