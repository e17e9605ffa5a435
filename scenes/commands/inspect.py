"""``render inspect NAME|FILE``: what is on screen at some times of a clip, as JSON Lines.

Nothing is drawn or encoded: the clip's scene is played to each time asked for and its own record
of what it drew is printed, one object a sample (the format: docs/inspect.md). It is what the
collision test reads, and what an author runs to see why a label sits where it does.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from scenes.render.options import ASPECTS, CAPTIONS, QUALITY


def register(sub: Any) -> None:
    p = sub.add_parser("inspect", help="print what is on screen at some times, without encoding video",
                       description="Print what a clip shows at the given times: one JSON object a line, "
                                   '{"time", "frame": [w, h], "items": [...]} (docs/inspect.md).')
    p.add_argument("storyboard", metavar="NAME|FILE")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--at", type=float, action="append", default=[], metavar="SECONDS",
                      help="a time to look at (repeatable; default: the last frame)")
    when.add_argument("--every", type=float, metavar="SECONDS", help="look every SECONDS from the start")
    p.add_argument("--aspect", choices=ASPECTS, default="16:9")
    p.add_argument("-q", "--quality", choices=list(QUALITY), default="low")
    p.add_argument("--captions", choices=CAPTIONS, default="burn")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a number of the program, e.g. --set w1=0.5 (repeatable)")
    p.set_defaults(run=cmd_inspect)


def cmd_inspect(args: argparse.Namespace) -> int:
    from scenes.commands.main import UsageError
    from scenes.render.inspect import inspect_clip
    from scenes.render.options import RenderOptions, fps_of
    from scenes.render.camera_plan import plan_at
    from scenes.storyboard import load_and_plan, storyboard_path

    if args.every is not None and not (math.isfinite(args.every) and args.every > 0):
        raise UsageError(f"--every {args.every:g}: must be a positive number of seconds")
    bad = next((t for t in args.at if not (math.isfinite(t) and t >= 0)), None)
    if bad is not None:
        raise UsageError(f"--at {bad:g}: must be a time in seconds from the start (0 or more)")
    opts = RenderOptions(quality=args.quality, aspect=args.aspect, captions=args.captions, sets=tuple(args.sets))
    fps = fps_of(opts)
    if args.every is not None and args.every * fps < 1:  # a flood of samples of the same frames
        raise UsageError(f"--every {args.every:g}: shorter than one frame; give at least {1 / fps:.4g} s "
                         f"(one frame at -q {args.quality}, {fps} fps)")
    checked, plan = load_and_plan(storyboard_path(args.storyboard), args.sets)
    plan = plan_at(checked, plan, args.aspect)
    at = args.at or ([] if args.every else [plan.duration])
    for sample in inspect_clip(checked, plan, opts, at=at, every=args.every):
        sys.stdout.write(json.dumps(sample, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return 0
