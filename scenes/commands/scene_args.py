"""The options `render scene`, `render all`, `render watch` and `render article` share: quality,
size, frame rate, aspect, captions, container, voice, `--set`, jobs and the cluster's address,
each parsed and checked here, so every command says a bad word the same way (argparse's one line
and exit status 2), and `render_options` turns them into the `RenderOptions` a render takes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scenes.render.jobs import cores
from scenes.render.options import ASPECTS, CAPTIONS, FORMAT_TABLE, FORMATS, QUALITY, RenderOptions


def common_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-q", "--quality", choices=list(QUALITY), default="low",
                   help="low=480p15 (default), medium=720p30, high=1080p60, 4k=2160p60")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a number of the program, e.g. --set w1=0.5 (repeatable)")
    p.add_argument("--out", default="out", metavar="DIR",
                   help="output folder (default: out); DIR/.segments caches the beats already drawn")
    p.add_argument("--format", dest="fmt", choices=list(FORMATS), default="mp4",
                   help="container of the clip: " + "; ".join(f"{f.name}: {f.about}" for f in FORMAT_TABLE.values()))
    p.add_argument("--captions", choices=list(CAPTIONS), default="burn",
                   help="burn them into the video (default), only write NAME.srt, or none")
    p.add_argument("--aspect", choices=list(ASPECTS), default="16:9",
                   help="16:9 (default), 9:16 for phones, 1:1 for feeds")
    p.add_argument("--force", action="store_true",
                   help="draw every beat anew, even when the clip or some of its beats are up to date "
                        "(the glyph cache in ~/.cache/gradreel stays: delete it after changing fonts)")
    p.add_argument("--fps", type=_fps, default=None, metavar="N",
                   help="frames per second instead of the preset's (e.g. -q high --fps 30: 1080p30)")
    voice_argument(p)
    # for tests: a tiny frame instead of a quality preset
    p.add_argument("--size", type=_size, default=None, help=argparse.SUPPRESS)


def voice_argument(p: argparse.ArgumentParser) -> None:
    """``--voice NAME|off``: who says the captions (``render scene``, ``all``, ``watch``, ``article``, ``plan``)."""
    from scenes.render.sound import OFF, voice_names
    from scenes.voice.registry import DEFAULT_VOICE, ENV_VOICE

    p.add_argument("--voice", type=_voice, default=None, metavar="NAME|off",
                   help=f"the voice that says the captions: {', '.join(voice_names())}, or a piper model "
                        f"(.onnx, its .onnx.json beside it); {OFF}: a silent clip paced by reading (default: the "
                        f"storyboard's voice:, else course.yaml's, else ${ENV_VOICE}, else {DEFAULT_VOICE})")


def _voice(word: str) -> str:
    """A voice's name, or the path of a model made absolute (the render reads it from elsewhere)."""
    from scenes.voice.registry import MODEL_SUFFIX, voice_problem

    if word.endswith(MODEL_SUFFIX):
        word = str(Path(word).resolve())
    problem = voice_problem(word, Path.cwd())
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return word


def _fps(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 120:
        raise argparse.ArgumentTypeError(f"{word!r} is not a whole number of frames per second from 1 to 120")
    return int(word)


MAX_SIDE = 3840
"""The widest side of any preset (4k); a larger --size is memory, not a picture (100000x100000
asked Manim for 37 GiB), and a side of 0 divided by zero in its camera."""


def _size(word: str) -> tuple[int, int]:
    w, _, h = word.partition("x")
    if not (w.isdigit() and h.isdigit()) or any(int(v) % 2 or not 16 <= int(v) <= MAX_SIDE for v in (w, h)):
        raise argparse.ArgumentTypeError(f"{word!r} is not WIDTHxHEIGHT with even numbers from 16 to {MAX_SIDE}")
    return int(w), int(h)


def jobs_count(word: str) -> int:
    """``-j N``: a whole number of processes; 0 (as no -j) is one per core."""
    if not word.isdigit():
        raise argparse.ArgumentTypeError(f"{word!r} is not a whole number of processes (1 or more; "
                                         "0 or no -j: one per core)")
    return int(word)


def portrait_argument(p: argparse.ArgumentParser) -> None:
    """``--no-portrait`` (``render article``, ``render all --article``): an article plays its 9:16
    clip on a phone held upright unless told not to; that clip is a second render."""
    p.add_argument("--no-portrait", dest="portrait", action="store_false",
                   help="articles without the 9:16 clip a phone held upright plays (by default it is rendered "
                        "too: a second render of each clip, its beats cached as the clip's are)")


def scene_arguments(p: argparse.ArgumentParser) -> None:
    """One storyboard, the render options and -j: ``render scene`` and ``render watch`` take the same."""
    p.add_argument("storyboard", metavar="NAME|FILE",
                   help="a storyboard in scenes/storyboards/ (see `render list`), or a YAML file")
    common_arguments(p)
    p.add_argument("-j", "--jobs", type=jobs_count, default=None, metavar="N",
                   help="draw the beats that need drawing in up to N processes at once (default: one per "
                        f"CPU core, here {cores()}, fewer when memory is short or there is little to draw; "
                        "the same clip either way; -j 1 draws in this process)")


def scheduler_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scheduler", default=None, metavar="tls://HOST:PORT",
                   help="draw the beats on the workers of this Dask scheduler, over mutual TLS with the "
                        "certificates of `render cluster-certs` (pip install .[cluster]; each worker needs this "
                        "version of gradreel); the clip is joined here. tcp://127.0.0.1:PORT: a scheduler on "
                        "this machine")
    p.add_argument("--certs", default=None, metavar="DIR",
                   help="the cluster's certificates for tls:// (default: $GRADREEL_CLUSTER_CERTS, else "
                        "~/.config/gradreel/cluster)")
    p.add_argument("--insecure-scheduler", action="store_true",
                   help="allow tcp:// to another machine, unencrypted and unauthenticated: whatever answers at "
                        "that address sees your storyboards, can put any picture into the clip and fill memory, "
                        "and only gradreel's refusal to load pickled objects keeps it from running code here; "
                        "only on a network where no one else can listen")
    p.add_argument("--scheduler-timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="give up on a scheduler that has not answered for this long (default: "
                        "$GRADREEL_SCHEDULER_TIMEOUT, else 20)")


def _seconds(word: str) -> float:
    from scenes.render.cluster_security import parse_timeout

    try:
        return parse_timeout(word)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def render_options(args: argparse.Namespace) -> RenderOptions:
    return RenderOptions(quality=args.quality, aspect=args.aspect, captions=args.captions, fmt=args.fmt,
                         sets=tuple(args.sets), out=args.out, force=args.force,
                         size=args.size, fps=args.fps, voice=args.voice)
