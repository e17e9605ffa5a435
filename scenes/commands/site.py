"""``render site [DIR]``: the course page, ``DIR/index.html`` (see :mod:`scenes.publish.site`)."""

from __future__ import annotations

import argparse
from typing import Any

from scenes.commands.pages import make_site


def register(subparsers: Any) -> None:
    """Add ``site`` to ``render``'s subparsers."""
    p = subparsers.add_parser("site", help="write DIR/index.html: the course's clips and articles, in course order")
    p.add_argument("out", nargs="?", default="out", metavar="DIR",
                   help="the folder holding the clips (default: out); the page is written there")
    p.add_argument("--storyboards", default=None, metavar="FOLDER",
                   help="the course's storyboards (default: DIR/../storyboards if there is one, else the "
                        "project's); the order and title come from course.yaml beside FOLDER")
    p.add_argument("--force", action="store_true", help="write the page even when it is up to date")
    p.set_defaults(func=cmd_site, run=cmd_site)


def cmd_site(args: argparse.Namespace) -> int:
    return make_site(args.out, args.storyboards, args.force)
