"""``render article NAME``: the written version of a clip (``DIR/NAME/index.html`` and ``NAME.md``).

It takes the options of ``render scene`` (the clip it shows is rendered first when out of date)
and writes the article beside the clip, in a folder of its own; see :mod:`scenes.publish.article`.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from scenes.commands.pages import make_article
from scenes.commands.scene_args import portrait_argument, render_options, scene_arguments
from scenes.render.jobs import beat_jobs


def register(subparsers: Any) -> None:
    """Add ``article`` to ``render``'s subparsers."""
    p = subparsers.add_parser("article", help="write the clip's article: DIR/NAME/index.html and NAME.md (renders the clip if needed)")
    scene_arguments(p)
    portrait_argument(p)
    p.set_defaults(func=cmd_article, run=cmd_article)


def cmd_article(args: argparse.Namespace) -> int:
    from scenes.storyboard import storyboard_path

    opts = render_options(args)
    return make_article(storyboard_path(args.storyboard), replace(opts, jobs=beat_jobs(args.jobs, opts)),
                        args.portrait)
