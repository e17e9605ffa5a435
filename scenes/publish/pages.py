"""The templates (Jinja2, in ``templates/``), the one style sheet every page links and the
script an article loads.

HTML is escaped by Jinja's autoescape; Markdown templates get text that :mod:`.prose` escaped.
A file name becomes a URL through the ``href`` filter (percent-encoded), and every page carries
:data:`POLICY`. The style uses the system's fonts only, so a page loads nothing from another host.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from scenes.publish.code import style_sheet as code_style
from scenes.publish.prose import code_html, code_span, fenced, inline_escape, md_escape
from scenes.storyboard.placeholders import unquoted

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLE_FILE = "gradreel.css"
SCRIPT_FILE = "gradreel.js"
"""The article's one script, a file of its own (the policy runs no inline script): the stepping
figures, the section links that mark their program lines, and the play-from links."""

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "media-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'")
"""Every page's Content-Security-Policy (a ``<meta>``, so it holds from disk too): files of the
page's own folder only, no inline script or style, no other host. ``data:`` for the favicon
(``data:,``, so that no request for one fails) and for the caption tracks, which are ``data:``
URLs (:func:`scenes.publish.article.track_src`)."""


def href(name: str) -> str:
    """A file name (or ``NAME/index.html``) as a relative URL: percent-encoded, so that no name
    is read as a scheme (``javascript:``), a fragment (``#``), a query (``?``) or an escape (``%``).

    >>> href("what's #1? 100%.mp4")
    'what%27s%20%231%3F%20100%25.mp4'
    """
    return quote(name, safe="/")


@lru_cache(maxsize=1)
def _environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html.j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["seconds"] = lambda t: f"{t:.3f}".rstrip("0").rstrip(".")
    env.filters["md"] = inline_escape
    env.filters["mdpara"] = md_escape
    env.filters["href"] = href
    env.filters["code"] = code_span
    env.filters["fenced"] = fenced
    env.filters["codes"] = code_html
    env.filters["unquoted"] = unquoted
    env.globals["policy"] = POLICY
    return env


def render(template: str, data: dict[str, Any]) -> str:
    """``template`` filled with ``data``."""
    return _environment().get_template(template).render(**data)


def style_sheet() -> str:
    """The page style, then the highlighted code's."""
    return (TEMPLATES / STYLE_FILE).read_text() + "\n" + code_style() + "\n"


def script() -> str:
    """The article's script (:data:`SCRIPT_FILE`)."""
    return (TEMPLATES / SCRIPT_FILE).read_text()
