"""``render scene NAME`` and ``render all``: storyboards to clips.

Why a thin module: option parsing and error reporting live here; everything that decides what a
clip looks like or whether it must be rendered lives in :mod:`scenes.render.pipeline`, which the
tests drive directly. Manim is only imported when a clip really has to be rendered, so an up-to-date
clip answers in well under a second. Errors are one line each on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal

from scenes.commands.problems import no_storyboard, report, write_failed
from scenes.commands.scene_args import (common_arguments, jobs_count, portrait_argument, render_options,
                                        scene_arguments, scheduler_arguments)
from scenes.render.jobs import beat_jobs, cores
from scenes.render.options import RenderOptions
from scenes.render.pipeline import drawn_frames, render_storyboard

if TYPE_CHECKING:
    from scenes.render.cluster_security import Peer


def register(subparsers: Any) -> None:
    """Add ``scene`` and ``all`` to ``render``'s subparsers."""
    p = subparsers.add_parser("scene", help="render one storyboard to out/NAME.mp4 (+ .png, .srt, .vtt, .events.jsonl)")
    scene_arguments(p)
    scheduler_arguments(p)
    p.set_defaults(func=cmd_scene, run=cmd_scene)
    p = subparsers.add_parser("all", help="render every storyboard that is out of date")
    p.add_argument("names", nargs="*", metavar="NAME", help="only these storyboards (default: all of them)")
    common_arguments(p)
    p.add_argument("-j", "--jobs", type=jobs_count, default=None, metavar="N",
                   help=f"render up to N clips at once, in N processes (default: one per CPU core, here {cores()}; "
                        "a single clip out of date has its beats shared out as by `render scene`)")
    p.add_argument("--article", action="store_true", help="also write each clip's article (as `render article`)")
    p.add_argument("--site", action="store_true", help="then write the course's page, DIR/index.html (as `render site`)")
    portrait_argument(p)
    scheduler_arguments(p)
    p.set_defaults(func=cmd_all, run=cmd_all)


def _render_one(file: str, opts: RenderOptions, farm: Any = None) -> int:
    """Render one storyboard as ``render scene`` does; the clip's path on stdout."""
    status, clip = _render_clip(file, opts, farm)
    if clip is not None:
        print(clip)
    return status


def render_task(file: str, opts_json: str, farm: Any = None,
                reraise: tuple[type[BaseException], ...] = ()) -> tuple[int, str | None]:
    """A worker's task in ``render all``: one clip, as ``render scene`` renders it. Returns the
    status and the clip's path (the parent prints it). A clip that fails is reported (status 1,
    its traceback on stderr) and the worker goes on to the next; errors of the ``reraise`` kinds
    are raised instead. ``farm``: the cluster its beats go to (``render all --scheduler``)."""
    import traceback

    try:
        status, clip = _render_clip(file, RenderOptions.from_json(opts_json), farm)
    except reraise:
        raise
    except Exception:
        traceback.print_exc()
        print(f"render: {file} failed (above)", file=sys.stderr)
        return 1, None
    return status, None if clip is None else str(clip)


def _render_clip(file: str, opts: RenderOptions, farm: Any = None) -> tuple[int, Path | None]:
    from scenes.storyboard import StoryboardError

    name = Path(file).stem
    if no_storyboard(file):
        return 2, None
    from scenes.voice.registry import VoiceError
    from scenes.render.guard import OutputRefused, check_render
    from scenes.theme import ThemeError

    try:
        check_render(name, opts, [file])
        result = render_storyboard(file, name, opts, farm=farm)
    except StoryboardError as exc:
        return report(exc), None
    except (ThemeError, OutputRefused) as exc:  # names the theme file and the key, or the output
        print(f"render: {exc}", file=sys.stderr)
        return 2, None
    except VoiceError as exc:  # the storyboard's voice: is refused at its line when it is the one
        return _voice_refused(file, opts, exc), None
    except OSError as exc:
        if (status := write_failed(exc, opts.out)) is None:
            raise
        return status, None
    if result.rendered:
        print(f"{name}: {result.frames} frames in {result.seconds:.1f} s", file=sys.stderr)
    return 0, result.clip


def _voice_refused(file: str, opts: RenderOptions, exc: Exception) -> int:
    """Say why the render's voice cannot be had: at the storyboard's ``voice:`` line when the
    storyboard names it (its check refuses it there), else with the storyboard's file name."""
    from scenes.storyboard import StoryboardError, load

    try:
        load(file, sets=list(opts.sets))
    except StoryboardError as located:
        return report(located)
    print(f"render: {file}: {exc}", file=sys.stderr)
    return 2


def cmd_scene(args: argparse.Namespace) -> int:
    """Render one storyboard; the last line on stdout is the clip's path."""
    from scenes.render.pipeline import cache_key, is_up_to_date
    from scenes.storyboard import storyboard_path

    opts, file = render_options(args), storyboard_path(args.storyboard)
    peer = _peer(args)
    if peer is False:
        return 2
    if peer is not None and Path(file).is_file() and (opts.force or not is_up_to_date(Path(file).stem,
                                                                                      cache_key(file, opts), opts)):
        return _on_cluster(peer, partial(_render_one, file, opts))  # nothing to draw: no cluster
    return _render_one(file, replace(opts, jobs=beat_jobs(args.jobs, opts)))


def _peer(args: argparse.Namespace) -> "tuple[Peer, float] | Literal[False] | None":
    """``--scheduler``, its certificates and its time bound, checked before any work (and without
    Dask): (the Peer, the seconds), None without --scheduler, or False once the refusal is said."""
    if args.scheduler is None:
        for flag, given in (("--certs", args.certs is not None), ("--insecure-scheduler", args.insecure_scheduler),
                            ("--scheduler-timeout", args.scheduler_timeout is not None)):
            if given:
                print(f"render: {flag} is for --scheduler; without it the beats are drawn here", file=sys.stderr)
                return False
        return None
    from scenes.render.cluster_security import ClusterError, check_peer, default_timeout

    try:
        peer = check_peer(args.scheduler, args.certs, args.insecure_scheduler)
        seconds = args.scheduler_timeout if args.scheduler_timeout is not None else default_timeout()
    except ClusterError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return False
    return peer, seconds


def _on_cluster(peer: "tuple[Peer, float]", work: Callable[..., int]) -> int:
    """``work(farm=...)`` with a connected Dask cluster (``scenes.render.cluster``, imported only
    here); what stops the cluster from rendering is one line on stderr and exit status 2."""
    try:
        from scenes.render.cluster_connect import ClusterError, cluster
    except ModuleNotFoundError as exc:
        if exc.name not in ("distributed", "dask"):
            raise
        print("render: --scheduler needs Dask distributed: pip install '.[cluster]'", file=sys.stderr)
        return 2
    try:
        with cluster(*peer) as farm:
            return work(farm=farm)
    except ClusterError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2


def cmd_all(args: argparse.Namespace) -> int:
    """Render every storyboard that is out of date (each says 'up to date' otherwise). Up-to-date
    clips are checked here, without Manim; the others are rendered N at a time by the pool's N
    worker processes (``scenes.render.pool``), by default one per core, with the same outputs as
    one after the other."""
    from scenes.storyboard import find_storyboards, storyboard_path

    from scenes.render.guard import OutputRefused, check_out_dir

    files = [storyboard_path(n) for n in args.names] if args.names else find_storyboards()
    opts = render_options(args)
    peer = _peer(args)
    if peer is False:
        return 2
    try:  # once, not once a clip
        check_out_dir(opts.out)
    except OutputRefused as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    current = {f for f in files if not args.force and Path(f).is_file() and _current(f, opts)}
    stale = [f for f in files if f not in current]
    jobs = min(args.jobs or cores(), len(stale))
    alone = replace(opts, jobs=beat_jobs(args.jobs, opts)) if len(stale) == 1 else opts  # its beats, shared out
    status = 0
    if peer is not None:
        for file in sorted(current):
            status = max(status, _render_one(file, opts))
        if stale:
            status = max(status, _on_cluster(peer, partial(_render_on_cluster, stale, opts)))
        return max(status, _publish(files, args, opts))
    for file in files:
        if file in current or jobs <= 1:
            status = max(status, _render_one(file, alone if file in stale else opts))
    status = max(status, _render_parallel(stale, args, jobs)) if jobs > 1 else status
    return max(status, _publish(files, args, opts))


def _current(file: str, opts: RenderOptions) -> bool:
    """Whether ``file``'s clip is up to date; a storyboard too large to read is not, and is
    refused with the others' problems when its turn comes (the rest of ``render all`` goes on)."""
    from scenes.render.pipeline import cache_key, is_up_to_date
    from scenes.storyboard import StoryboardError

    try:
        return is_up_to_date(Path(file).stem, cache_key(file, opts), opts)
    except StoryboardError:
        return False


def _publish(files: list[str], args: argparse.Namespace, opts: RenderOptions) -> int:
    """After the clips: their articles (``--article``), then the course's page (``--site``)."""
    status = 0
    if getattr(args, "article", False):
        from scenes.commands.pages import make_article

        for file in files:  # each renders its 9:16 clip too, its beats shared out as by `render scene`
            status = max(status, make_article(file, replace(opts, force=False, jobs=beat_jobs(args.jobs, opts)),
                                              args.portrait))
    if getattr(args, "site", False):
        from scenes.commands.pages import make_site

        status = max(status, make_site(opts.out, force=opts.force))
    return status


def _render_on_cluster(files: list[str], opts: RenderOptions, *, farm: Any) -> int:
    """``render all --scheduler``: every out-of-date clip at once, each in a thread here that hands
    its beats to the cluster and joins the clip when they are back; each clip's path on stdout as
    it is done. A clip that fails is reported and the others go on; the cluster failing, or
    Ctrl-C, cancels every task handed out."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    status = 0
    with ThreadPoolExecutor(max_workers=len(files)) as threads:
        clips = [threads.submit(_cluster_clip, file, opts, farm) for file in files]
        try:
            for done in as_completed(clips):
                clip_status, clip = done.result()
                status = max(status, clip_status)
                if clip is not None:
                    _print_path(clip)
        except BaseException:
            farm.cancel()
            raise
    return status


def _cluster_clip(file: str, opts: RenderOptions, farm: Any) -> tuple[int, str | None]:
    """One clip of ``render all --scheduler``, as :func:`render_task` reports it; what stops the
    cluster (a ClusterError, the tasks cancelled) stops the whole command instead."""
    from concurrent.futures import CancelledError

    from scenes.render.cluster import ClusterError

    return render_task(file, opts.to_json(), farm, reraise=(ClusterError, CancelledError))


def _print_path(clip: str) -> None:
    try:
        print(clip, flush=True)
    except (OSError, ValueError):  # `render all | head -1`: the rest goes unread
        pass


def _render_parallel(files: list[str], args: argparse.Namespace, jobs: int) -> int:
    """The out-of-date clips in ``jobs`` worker processes, each clip's beats in its worker, the
    clips with the most moving frames first; each clip's path on stdout as it is done."""
    from scenes.render.pool import local_pool, run_all

    opts = replace(render_options(args), jobs=1)
    status = 0
    with local_pool(jobs) as pool:
        for _, (clip_status, clip) in run_all(pool, render_task, files, opts.to_json(),
                                              cost=partial(drawn_frames, opts=opts)):
            status = max(status, clip_status)
            if clip is not None:
                _print_path(clip)
    return status
