"""The templates (Jinja2, in ``templates/``) and the one style sheet every page links.

HTML is escaped by Jinja's autoescape; Markdown templates get text that :mod:`.prose` escaped.
The style uses the system's fonts only, so a page loads nothing from another host.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from scenes.publish.code import style_sheet as code_style
from scenes.publish.prose import inline_escape, md_escape

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLE_FILE = "gradreel.css"
SCRIPT_FILE = "stepper.js"
"""The article's one script (a file, never inline: the pages allow no inline script): the
stepping figures, the section links that mark their program lines, and the play-from links."""


@lru_cache(maxsize=1)
def _environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html.j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["seconds"] = lambda t: f"{t:.3f}".rstrip("0").rstrip(".")
    env.filters["md"] = inline_escape
    env.filters["mdpara"] = md_escape
    return env


def render(template: str, data: dict[str, Any]) -> str:
    """``template`` filled with ``data``."""
    return _environment().get_template(template).render(**data)


def script() -> str:
    """The article's script, as written beside it."""
    return (TEMPLATES / SCRIPT_FILE).read_text()


def style_sheet() -> str:
    """The page style, then the highlighted code's."""
    return (TEMPLATES / "gradreel.css").read_text() + "\n" + code_style() + "\n"
