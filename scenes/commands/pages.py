"""Writing the pages, as ``render article``, ``render site`` and ``render all --article --site`` do:
the located error on stderr (exit 2), the page's path on stdout."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from scenes.commands.problems import report, write_failed


def make_article(file: str, opts: Any, portrait: bool = True) -> int:
    """Write one article (the clip first, if out of date, and with ``portrait`` its 9:16 version
    for phones); its page's path on stdout."""
    from scenes.publish.article import KEY_FILE, article_folder, article_names, portrait_options, write_article
    from scenes.render.guard import OutputRefused, check_article_folder, check_render
    from scenes.commands.problems import no_storyboard
    from scenes.storyboard import StoryboardError

    if no_storyboard(file):
        return 2
    try:
        name = Path(file).stem
        check_render(name, opts, [file])
        if portrait and (upright := portrait_options(opts)) is not None:
            check_render(name, upright, [file])
        check_article_folder(article_folder(Path(opts.out), name), article_names(name), KEY_FILE, [file])
        result = write_article(file, name, opts, portrait=portrait)
    except StoryboardError as exc:
        return report(exc)
    except OutputRefused as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if (status := write_failed(exc, opts.out)) is None:
            raise
        return status
    print(result.page)
    return 0


def make_site(out: str, storyboards: str | None = None, force: bool = False) -> int:
    """Write the site of ``out``; its page's path on stdout."""
    from scenes.publish.course import Course
    from scenes.publish.site import storyboards_for, write_site
    from scenes.publish.site import SITE_FILES, THUMB_WHAT
    from scenes.publish.thumbs import thumb_name
    from scenes.render.guard import OutputRefused, check_out_dir, check_written, read_listing
    from scenes.storyboard import StoryboardError

    folder = storyboards_for(Path(out), storyboards)
    if not folder.is_dir():
        print(f"render: no storyboards folder {folder}", file=sys.stderr)
        return 2
    try:
        check_out_dir(out, "site folder")
        if Path(out).resolve() == folder.resolve():
            raise OutputRefused(f"site folder {out}: the folder of the storyboards; give the folder holding the "
                                "clips (render scene NAME --out DIR writes them; the default is out)")
        listing = read_listing(Path(out))
        course = Course.of(folder)
        for name, what in [*SITE_FILES.items(), *((thumb_name(n), THUMB_WHAT) for n in course.names)]:
            check_written(Path(out) / name, what, listing)
        result = write_site(Path(out), course, force)
    except StoryboardError as exc:
        return report(exc)
    except OutputRefused as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if (status := write_failed(exc, out)) is None:
            raise
        return status
    print(result.page)
    return 0
