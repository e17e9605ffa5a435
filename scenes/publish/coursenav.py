"""Where an article sits in its course: the course's title, and links to the course page and to
the previous and next articles, for every article page.

The course is :class:`~scenes.publish.course.Course` of the storyboard's own folder (its
``course.yaml`` beside that folder, as ``render site`` reads it). A link is written only to a
page that exists when the article is written, relative to the article's folder
(``../OTHER/index.html``, ``../index.html``), so a copied folder has no dead link; what exists is
part of the article's key, so the article is written again once a neighbour appears.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from scenes.publish.course import Course
from scenes.storyboard.errors import StoryboardError
from scenes.storyboard.yamlsafe import load_file

PAGE = "index.html"


@dataclass(frozen=True)
class Link:
    href: str
    title: str


@dataclass(frozen=True)
class CourseNav:
    """The course's title; the course page (None until ``render site`` wrote it); the articles
    before and after this one in course order (None where not written, or at an end)."""

    title: str
    home: str | None
    prev: Link | None
    next: Link | None

    def key(self) -> str:
        """What of the nav an article's key holds (a link appearing writes the page again)."""
        return repr(self)


def _title(course: Course, name: str) -> str:
    """A clip's title as its storyboard gives it (read as YAML only, not run), else its name."""
    try:
        data = load_file(str(course.storyboard(name))).data
    except (StoryboardError, OSError):  # a neighbour's own problems are its own render's to report
        return name
    title = data.get("title") if isinstance(data, dict) else None
    return " ".join(title.split()) if isinstance(title, str) and title.strip() else name


def _link(course: Course, out: Path, name: str | None) -> Link | None:
    if name is None or not (out / name / PAGE).is_file():
        return None
    return Link(f"../{quote(name)}/{PAGE}", _title(course, name))


def course_nav(storyboard_file: str, name: str, out: Path) -> CourseNav:
    """The nav of article ``name`` (of ``storyboard_file``) written into ``out/name/``."""
    course = Course.of(Path(storyboard_file).parent)
    home = f"../{PAGE}" if (out / PAGE).is_file() else None
    names = course.names
    if name not in names:
        return CourseNav(course.title, home, None, None)
    k = names.index(name)
    return CourseNav(course.title, home, _link(course, out, names[k - 1] if k > 0 else None),
                     _link(course, out, names[k + 1] if k + 1 < len(names) else None))
