"""``render watch NAME``: render a clip, then again each time its storyboard (or the theme) is saved.

Why: an author tuning a number edits, saves and looks, many times over. A fresh ``render scene``
pays Python's start and Manim's import before it draws anything; a watching process has paid
them once, so a changed number in the last beat is in the clip as soon as that beat is drawn. Each render is exactly what ``render scene`` with the same options makes (the same cache,
the same files; ``--force`` applies to the first only). Once the first render is done and Manim
imported, a READY line on stderr says the watch is waiting. Bad input is reported as by
``render scene`` (file, line, what was expected), as is a failed render, and the watch goes on;
Ctrl-C ends it. A change to gradreel itself needs a new ``render watch``.

    render watch backward_walk            edit scenes/storyboards/backward_walk.yaml, save, look
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

READY = "render: watching"
"""Starts the line on stderr that says the watch is ready for a change (after the first render)."""
POLL_SECONDS = 0.1
"""How often the watched files are looked at; a change is rendered once two looks agree, since
editors may write a file in more than one step."""

Stamp = tuple[tuple[int, int, int, int] | None, ...]


def register(subparsers: Any) -> None:
    """Add ``watch`` to ``render``'s subparsers."""
    from scenes.commands.scene_args import scene_arguments

    p = subparsers.add_parser("watch", help="render one storyboard, then again whenever it or the theme is saved",
                              description="Render a storyboard as `render scene` does, then again each time it "
                                          "(or the theme) is saved, until Ctrl-C. Keep it running while you tune "
                                          "a clip: Python and Manim start once, so an edit costs only the beats "
                                          "it changes.")
    scene_arguments(p)
    p.set_defaults(run=cmd_watch)


def cmd_watch(args: argparse.Namespace) -> int:
    """Render, then watch; each render prints the clip's path on stdout. Ctrl-C: status 0."""
    from scenes.commands.scene import _render_one
    from scenes.commands.scene_args import render_options
    from scenes.render.jobs import beat_jobs
    from scenes.theme import theme_file
    from scenes.storyboard import storyboard_path

    file = storyboard_path(args.storyboard)
    opts = render_options(args)
    if not os.path.isfile(file):
        return _render_one(file, opts)  # says which storyboards there are; status 2
    opts = replace(opts, jobs=beat_jobs(args.jobs, opts))
    files = [file, str(theme_file())]

    def once() -> None:
        nonlocal opts
        try:
            _render_one(file, opts)
        except Exception:  # a fault of ours: shown, and the next save is rendered all the same
            traceback.print_exc()
            print(f"render: rendering {os.path.relpath(file)} failed (above); still watching", file=sys.stderr)
        opts = replace(opts, force=False)  # --force: the first render only; later ones draw what a save changed
        sys.stdout.flush()

    def ready() -> None:
        import_drawing()
        warm_voice(file, opts)
        print(f"{READY} {os.path.relpath(file)} and the theme; Ctrl-C to stop", file=sys.stderr, flush=True)

    try:
        watch(files, once, warm=ready)
    except KeyboardInterrupt:
        print("render: stopped watching", file=sys.stderr)
    return 0


def stamps(files: list[str]) -> Stamp:
    """What tells a saved file from the one before (None: missing): its modification and change
    times, size and inode (an editor that saves by renaming a new file over the old one gives a
    new inode, even within the file system's timestamp granularity)."""
    out: list[tuple[int, int, int, int] | None] = []
    for f in files:
        try:
            st = os.stat(f)
            out.append((st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino))
        except OSError:
            out.append(None)
    return tuple(out)


def import_drawing() -> None:
    """Manim and our drawing modules: a first render that found everything cached did not need
    them, and the first edit should not wait for them."""
    import scenes.video.camera  # noqa: F401
    import scenes.draw.scene  # noqa: F401
    import scenes.video.encoder  # noqa: F401
    import scenes.video.player  # noqa: F401


def warm_voice(file: str, opts: Any) -> None:
    """The voice the storyboard's renders use, loaded now (a neural model takes a second or
    more), and what makes the sound track imported (:func:`scenes.voice.track.warm`): a first
    render found every phrase in the speech cache and the clip up to date, and the first
    narration edit should not wait for them. A voice that cannot be had is said by the render
    that needs it, not here."""
    from scenes.render.sound import voice_named, with_voice
    from scenes.storyboard import StoryboardError
    from scenes.voice.registry import VoiceError

    try:
        voice = voice_named(with_voice(file, opts).voice or "off", storyboard=Path(file))
    except (StoryboardError, VoiceError, OSError):
        return
    if voice is None:
        return
    from scenes.voice.track import warm as warm_track

    warm_track()
    warm = getattr(voice, "warm", None)
    if warm is not None:
        warm()


def watch(files: list[str], render: Callable[[], None], wait: Callable[[float], None] = time.sleep,
          renders: int | None = None, warm: Callable[[], None] = lambda: None) -> None:
    """Call ``render`` now and after every change to ``files``, until interrupted (or, for tests,
    until it has been called ``renders`` times). ``warm`` runs once after the first render, to
    import what a later one will need while nothing is being waited for.

    >>> watch(["a.yaml"], lambda: print("rendered"), renders=1)  # doctest: +SKIP
    rendered
    """
    seen = stamps(files)
    render()
    warm()
    done = 1
    while renders is None or done < renders:
        wait(POLL_SECONDS)
        now = stamps(files)
        if now == seen:
            continue
        wait(POLL_SECONDS)
        if stamps(files) != now:  # still being written: look again
            continue
        seen = now
        render()
        done += 1
