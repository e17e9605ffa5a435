"""``render site [DIR]``: the course page, ``DIR/index.html``.

The course's title and introduction (``course.yaml``), then each clip of the course that ``DIR``
holds, in course order: its title, its takeaway (the storyboard's, numbers filled from the log,
as its article opens), its duration, a thumbnail (its poster cropped to the graph it teaches:
:mod:`.thumbs`), and links to the clip and to its article
(only when written). A clip not rendered yet is left out, and said so. The page links only files
inside ``DIR``, so the folder can be copied anywhere, opened from disk or served.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from scenes.publish import pages
from scenes.publish.article import KEY_FILE, article_folder, clock, takeaway
from scenes.publish.course import Course
from scenes.publish.freshness import is_fresh, key_of
from scenes.publish.prose import beat_prose
from scenes.publish.thumbs import thumb_name, thumbnail
from scenes.render.options import outputs
from scenes.render.writes import FolderWrite
from scenes.storyboard.errors import plain
from scenes.storyboard.store import STORYBOARD_DIR, name_problem, storyboard_path
from scenes.video.formats import PAGE_TYPES

SITE_KEY = ".site.key"
SITE_FILES = {"index.html": "page", pages.STYLE_FILE: "style sheet", SITE_KEY: "key"}
"""The files ``render site`` writes in its folder, with what each is (in a refusal); and a
thumbnail per clip (:func:`.thumbs.thumb_name`)."""
THUMB_WHAT = "thumbnail"


@dataclass(frozen=True)
class Card:
    """One clip as the course page lists it; ``article`` is None when none is written."""

    name: str
    title: str
    takeaway: str
    clock: str
    seconds: float
    clip: str
    thumb: str
    thumb_size: tuple[int, int]
    article: str | None


def intro_html(markdown: str) -> str:
    """The course's introduction as HTML: paragraphs, lists, emphasis, code and links only (no
    raw HTML, heading or image: the page's outline is its own, and it loads nothing remote), and
    links to ``javascript:`` and the like left as text, as markdown-it does."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("zero", {"html": False}).enable(["list", "emphasis", "backticks", "link", "escape",
                                                     "entity", "newline"])
    return md.render(markdown).strip()


def site_data(title: str, intro: str, cards: list[Card]) -> dict[str, Any]:
    """What ``site.html.j2`` shows: the course's title and introduction (Markdown), its cards,
    their total duration and how many have a written version."""
    return {"title": title, "intro": intro_html(intro), "cards": cards, "style": pages.STYLE_FILE,
            "total": clock(sum(c.seconds for c in cards)), "written": sum(c.article is not None for c in cards)}


@dataclass
class SiteResult:
    page: Path
    written: bool
    clips: int


def storyboards_for(out: Path, given: str | None = None) -> Path:
    """The storyboards a site of ``out`` is made from: those given, else a ``storyboards``
    folder beside ``out`` (an author's course), else the project's."""
    if given:
        return Path(given)
    beside = out.resolve().parent / "storyboards"
    return beside if beside.is_dir() else STORYBOARD_DIR


def _clip_of(out: Path, name: str) -> Path | None:
    for fmt in PAGE_TYPES:
        paths = outputs(name, out, fmt)
        if paths["clip"].is_file() and paths["poster"].is_file() and paths["key"].is_file():
            return paths["clip"]
    return None


def _path_word(path: Path) -> str:
    """``path`` as a shell word ``render`` reads as a path: relative to the current folder when
    inside it, ``./`` first when it would start with ``-`` (else it reads as an option), quoted."""
    here = Path.cwd()
    full = Path(os.path.abspath(path))
    word = os.path.relpath(full, here) if full.is_relative_to(here) else str(full)
    return shlex.quote(f"./{word}" if word.startswith("-") else word)


def render_hint(course: Course, name: str, out: Path) -> str:
    """The command that renders clip ``name`` of ``course`` into ``out``, as it works when
    pasted: the NAME form only when ``render scene NAME`` finds this very storyboard (the
    project's folder, a name no option or file name can be taken for), else its path."""
    board = course.storyboard(name)
    by_name = not name.startswith("-") and Path(storyboard_path(name)).resolve() == board.resolve()
    return f"render scene {shlex.quote(name) if by_name else _path_word(board)} --out {_path_word(out)}"


def clip_seconds(clip: Path, planned: float) -> float:
    """How long the rendered clip lasts, from its video stream (its voice, if any, timed it);
    ``planned`` where the file does not say."""
    import av

    try:
        with av.open(str(clip)) as box:
            video = box.streams.video[0]
            if video.duration is not None:
                return round(float(video.duration * video.time_base), 3)
            return box.duration / 1_000_000 if box.duration else planned
    except (OSError, av.error.FFmpegError, IndexError):
        return planned


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def write_site(out: Path, course: Course, force: bool = False,
               log: Callable[[str], None] = lambda s: print(s, file=sys.stderr)) -> SiteResult:
    """Write ``out/index.html`` for ``course`` unless it shows nothing new."""
    present = [(name, clip) for name in course.names if (clip := _clip_of(out, name)) is not None]
    for name in course.names:
        if name not in dict(present):
            problem = name_problem(name)  # no render would make it: say what to rename, not what to run
            log(plain(f"{name}: {problem}; left out of the site" if problem else
                      f"{name}: not rendered in {out} yet ({render_hint(course, name, out)}); left out of the site"))
    parts = ["site", course.title, course.text]
    for name, clip in present:
        parts += [name, clip.name, _read(outputs(name, out, clip.suffix[1:])["key"]),
                  _read(article_folder(out, name) / KEY_FILE)]
    key = key_of(*parts)
    page = out / "index.html"
    if not force and is_fresh(out / SITE_KEY, key) and page.exists() \
            and all((out / thumb_name(name)).is_file() for name, _ in present):
        log("site: up to date")
        return SiteResult(page, False, len(present))
    from scenes.storyboard import load_and_plan

    from scenes.theme import load_theme

    theme = load_theme()
    cards, thumbs = [], {}
    for name, clip in present:
        checked, p = load_and_plan(str(course.storyboard(name)), (), name)
        board = checked.storyboard
        article = article_folder(out, name) / "index.html"
        seconds = clip_seconds(clip, p.duration)  # as rendered: a voice times it otherwise than reading
        thumbs[thumb_name(name)], size = thumbnail(outputs(name, out, clip.suffix[1:])["poster"], checked, p, theme)
        cards.append(Card(name, board.title, takeaway(board, p, beat_prose(board, p)), clock(seconds),
                          seconds, clip.name, thumb_name(name), size,
                          f"{name}/index.html" if article.is_file() else None))
    data = site_data(course.title, course.intro, cards)
    out.mkdir(parents=True, exist_ok=True)
    with FolderWrite(out) as w:
        for file, png in thumbs.items():
            w.text(file, png, THUMB_WHAT)
        w.text(pages.STYLE_FILE, pages.style_sheet(), SITE_FILES[pages.STYLE_FILE])
        w.text(page.name, pages.render("site.html.j2", data), SITE_FILES[page.name])
        w.text(SITE_KEY, key + "\n", SITE_FILES[SITE_KEY])
        w.commit()
    log(f"site: {len(cards)} clips")
    return SiteResult(page, True, len(cards))
