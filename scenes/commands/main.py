"""``render``: gradreel's command line.

Each command lives in its own module with a ``register(subparsers)`` function; this file only
assembles them and turns a located error into one line on stderr with exit status 2.

    render log program.py            the event log, as JSON Lines
    render log --pretty program.py   the same, as a table a person can read
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn, Optional

from scenes.exit import exit_now

# Command modules, in the order `render --help` lists them. A module that is not there yet
# (a command still being built) is simply not offered.
COMMAND_MODULES = ["scenes.commands.scene", "scenes.commands.watch", "scenes.commands.storyboard", "scenes.commands.inspect",
                   "scenes.commands.log", "scenes.commands.article", "scenes.commands.site", "scenes.commands.cluster"]


class UsageError(Exception):
    """Bad input that is not a program error: a missing file, a malformed option. Exit 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="render",
        description="Turn a PyTorch-style program and a storyboard into an animated autograd clip.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: render scene backward_walk    (see README.md)\n\n"
               "While editing a storyboard, `render watch NAME` renders again on every save, fastest.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def _program_error(exc: BaseException) -> bool:
    """Whether ``exc`` is the engine's located ProgramError. Asked without importing the engine
    (numpy and the interpreter): an up-to-date render never runs a program, and a ProgramError
    can only come from an engine already imported."""
    errors = sys.modules.get("engine.errors")
    return errors is not None and isinstance(exc, errors.ProgramError)


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from scenes.storyboard.errors import StoryboardError
    try:
        return args.run(args) or 0
    except StoryboardError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        if not _program_error(exc):
            raise
        print(str(exc), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `render log p.py | head`
        return 0
    except KeyboardInterrupt:  # outputs are renamed into place only when complete
        print("render: interrupted; the clips already in place were left as they were", file=sys.stderr)
        return 130


def run() -> NoReturn:
    """The ``render`` command (``main`` is for calling in a process that goes on)."""
    exit_now(main(sys.argv[1:]))


if __name__ == "__main__":  # python -m: run the module by its name, whose UsageError the commands raise
    from scenes.commands import main as _by_name

    _by_name.run()
