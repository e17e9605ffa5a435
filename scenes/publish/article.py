"""``render article NAME``: the written version of a clip, ``DIR/NAME/index.html`` and ``NAME.md``.

What it holds: the title and the lead (the takeaway); the clip with its poster, captions and
chapters tracks; its sections (:mod:`.sections`: the storyboard's own ``article:`` text, or a
section per beat written from the plan, each with the figure of the graph its beat ends on, the
numbers the picture shows and each visit's arithmetic, a link that plays the clip from the beat
and one to the program lines it shows); a figure that steps through each backward walk, tied to
the clip; the program highlighted once; a table of the log's values and the gradient each node
received; what the program prints; the program to try in PyTorch with the output the log says it
gives; the key takeaways (the storyboard's, with the log's numbers); and the course it belongs
to, with the articles before and after it (:mod:`.coursenav`).

Why its shape: the prose is the captions' text (the plan's caption events) or the author's with
placeholders, the numbers are the log's as the clip writes them, the chapters are the clip's, and
the figures are drawn from the clip's plan (:mod:`.figures`: its cues replayed on the graph's
layout), so the page can disagree with the clip nowhere. The folder holds everything it loads, so
it works from disk and over HTTP alike.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from scenes.publish import code, pages, sections
from scenes.publish.arithmetic import beat_arithmetic
from scenes.publish.coursenav import CourseNav, course_nav
from scenes.publish.figure_page import BeatFigure, Stepper, page_figures
from scenes.publish.freshness import is_fresh, key_of
from scenes.publish.pictured import beat_values
from scenes.publish.prose import beat_prose
from scenes.publish.values import grad_headers, leaf_grads, printed, try_it, value_rows
from scenes.render.options import RenderOptions, output_stem, outputs
from scenes.render.pipeline import render_storyboard
from scenes.render.writes import FolderWrite
from scenes.storyboard.chapters import Chapter, beat_chapters, chapters_vtt
from scenes.storyboard.errors import Problem, StoryboardError
from scenes.storyboard.narration import fill
from scenes.video.formats import PAGE_TYPES

KEY_FILE = "article.key"
PORTRAIT = "9:16"
"""The aspect of the clip a phone held upright plays (:func:`portrait_options`)."""
PORTRAIT_MEDIA = "(orientation: portrait) and (max-width: 40rem)"
"""Where the page plays the portrait clip: a screen held upright and no wider than a phone's
(a tablet upright is wider: the 16:9 clip fills it well, a 9:16 one would be taller than it).
The ``<source media>`` of the clip and the style sheet's rule for its box say the same."""


@dataclass
class ArticleResult:
    page: Path
    written: bool


def article_folder(out: Path, name: str) -> Path:
    return out / name


def article_files(name: str, fmt: str) -> dict[str, str]:
    """The names of the files the article writes in its folder, by role (and its figures,
    ``beat-NN.svg``, and ``index.html`` and :data:`KEY_FILE`); the portrait clip and its poster
    only when the page has them."""
    upright = output_stem(name, PORTRAIT)
    return {"video": f"{name}.{fmt}", "poster": f"{name}.png", "captions": f"{name}.vtt",
            "chapters": f"{name}.chapters.vtt", "style": pages.STYLE_FILE, "script": pages.SCRIPT_FILE,
            "markdown": f"{name}.md", "portrait": f"{upright}.{fmt}", "portrait_poster": f"{upright}.png"}


ROLE_WORDS = {"video": "clip", "poster": "poster", "captions": "captions", "chapters": "chapters",
              "style": "style sheet", "script": "script", "markdown": "article", "portrait": "portrait clip",
              "portrait_poster": "portrait poster"}
"""What each of the article's files is, in a refusal ("not a style sheet gradreel made")."""


def article_names(name: str) -> dict[str, str]:
    """Every file name an article of ``name`` writes in any format, with what it is, for the
    folder check (and its figures, ``beat-NN.svg``)."""
    return {**{f: ROLE_WORDS[role] for fmt in PAGE_TYPES for role, f in article_files(name, fmt).items()},
            "index.html": "page", KEY_FILE: "key"}


def portrait_options(opts: RenderOptions) -> RenderOptions | None:
    """The options of the clip a phone plays (:data:`PORTRAIT_MEDIA`): ``opts`` at 9:16, a
    ``--size`` made upright on its short side (``426x240`` and ``240x240`` give ``240x426``); None
    when the article's own clip is 9:16 already.

    >>> portrait_options(RenderOptions(size=(426, 240), fps=10)).size
    (240, 426)
    >>> portrait_options(RenderOptions(aspect="9:16")) is None
    True
    """
    if opts.aspect == PORTRAIT:
        return None
    size = None if opts.size is None else (min(opts.size), round(min(opts.size) * 16 / 9 / 2) * 2)
    return replace(opts, aspect=PORTRAIT, size=size)


def write_article(storyboard_file: str, name: str, opts: RenderOptions,
                  log: Callable[[str], None] = lambda s: print(s, file=sys.stderr),
                  portrait: bool = True) -> ArticleResult:
    """Render the clip if it is out of date, and with ``portrait`` its 9:16 version, which the
    page plays on a phone held upright (its beats cached as the clip's are: a second render the
    first time, nothing after); then write its article unless that is up to date."""
    if opts.fmt not in PAGE_TYPES:
        raise StoryboardError([Problem(storyboard_file, 1, 1, f"an article plays its clip in the page: use "
                                       f"--format {' or '.join(PAGE_TYPES)}, not {opts.fmt}")])
    render_storyboard(storyboard_file, name, opts, log)
    upright = portrait_options(opts) if portrait else None
    if upright is not None:  # its lines as the clip's, its aspect after them: "NAME: up to date (9:16)"
        done = render_storyboard(storyboard_file, name, upright, lambda s: log(f"{s} ({PORTRAIT})"))
        if done.rendered:
            log(f"{name}: {done.frames} frames in {done.seconds:.1f} s ({PORTRAIT})")
    out = Path(opts.out)
    clip = outputs(name, out, opts.fmt, opts.aspect)
    phone = outputs(name, out, opts.fmt, PORTRAIT) if upright is not None else None
    folder = article_folder(out, name)
    nav = course_nav(storyboard_file, name, out)
    key = key_of("article", name, opts.fmt, clip["key"].read_text(), phone["key"].read_text() if phone else "",
                 nav.key())
    page = folder / "index.html"
    if not opts.force and is_fresh(folder / KEY_FILE, key) and page.exists():
        log(f"{name}: article up to date")
        return ArticleResult(page, False)

    from scenes.render.pipeline import plan_voiced
    from scenes.render.sound import with_voice

    loaded, _ = plan_voiced(storyboard_file, with_voice(storyboard_file, opts), name)  # timed as the clip is
    checked, p = loaded.checked, loaded.plan
    folder.mkdir(parents=True, exist_ok=True)
    files = article_files(name, opts.fmt)
    with FolderWrite(folder) as w:
        placed = {role: w.copy(files[role], clip[{"video": "clip", "poster": "poster", "captions": "vtt"}[role]],
                               ROLE_WORDS[role]) for role in ("video", "poster", "captions")}
        for role, kind in (("portrait", "clip"), ("portrait_poster", "poster")):
            if phone is not None:
                w.copy(files[role], phone[kind], ROLE_WORDS[role])
            elif (folder / files[role]).exists():  # the page plays no portrait clip any more
                w.drop(files[role])
        chapters = beat_chapters(p)
        placed["chapters"] = w.text(files["chapters"], chapters_vtt(chapters), ROLE_WORDS["chapters"])
        data = article_data(checked, p, files, nav)
        data.update(video_type=PAGE_TYPES[opts.fmt], size=_size_of(placed["poster"]),
                    portrait=phone is not None, portrait_media=PORTRAIT_MEDIA,
                    tracks={role: track_src(placed[role]) for role in ("captions", "chapters")},
                    captions_shown=opts.captions != "burn")  # burned in, a shown track would say each line twice
        figure_names = [b["figure"].file for b in data["beats"] if b["figure"]]
        for b in data["beats"]:
            if b["figure"]:
                w.text(b["figure"].file, b["figure"].svg + "\n", "figure")
        w.text(files["style"], pages.style_sheet(), ROLE_WORDS["style"])
        w.text(files["script"], pages.script(), ROLE_WORDS["script"])
        w.text(files["markdown"], pages.render("article.md.j2", data), ROLE_WORDS["markdown"])
        w.text(page.name, pages.render("article.html.j2", data), "page")
        for old in sorted([*folder.glob("beat-*.svg"), *folder.glob("beat-*.png")]):
            if old.name not in figure_names:  # figures of beats gone, and the stills pages once had
                w.drop(old.name)
        w.text(KEY_FILE, key + "\n", "key")
        w.commit()
    log(f"{name}: article written, {len(p.beats)} beats")
    return ArticleResult(page, True)


def article_data(checked: Any, p: Any, files: dict[str, str], nav: CourseNav | None = None) -> dict[str, Any]:
    """Everything the templates show, as plain data (strings, numbers, lists, records): the
    sections (:mod:`.sections`: the storyboard's ``article:``, else one per beat) with their
    figures and stepping walks, the program, the log's values, what it prints and the PyTorch
    block, and where the article sits in its course."""
    index, board = checked.index, checked.storyboard
    chapters = beat_chapters(p)
    prose = beat_prose(board, p)
    figures, steppers = page_figures(index, p, [ch.title for ch in chapters])
    shown = [figure(index, beat, k, ch, figures[k]) for k, (beat, ch) in enumerate(zip(board.beats, chapters))]
    arithmetic = beat_arithmetic(p, index)
    if board.article:
        beats = sections.authored(board, index, shown, arithmetic)
    else:
        beats = sections.generated([ch.title for ch in chapters], prose, shown, index, beat_values(p), arithmetic)
    place_steppers(beats, steppers)
    program, output = try_it(index)
    return {
        "name": checked.name, "title": board.title, "takeaway": takeaway(board, p, prose),
        "duration": p.duration, "clock": clock(p.duration), "files": files, "beats": beats,
        "takeaways": key_takeaways(board, index),
        "program": index.source, "program_html": code.listing(index.source),
        "calls": list(index.calls), "grad_headers": grad_headers(index),
        "rows": value_rows(index, board.number_style), "printed": printed(index),
        "try_program": program, "try_output": output, "grads_printed": bool(leaf_grads(index)), "nav": nav,
        "transcript": transcript(p) if board.article else [],
    }


def key_takeaways(board: Any, index: Any) -> list[str]:
    """The storyboard's key takeaways (``takeaway: points:``), their numbers read at the end of the
    log as the takeaway's are: what the reader keeps, written by the author. None without them
    (an ``article:`` writes its own): a list of the sections' headings would only repeat the
    chapters the page opens with."""
    if board.article or board.takeaway is None:
        return []
    return [fill(point, index, len(index.events) - 1, board.number_style)[0] for point in board.takeaway.points]


def transcript(p: Any) -> list[dict[str, Any]]:
    """What the clip says, beat by beat (title and takeaway included): the page's text for its
    sound, where the author's own sections leave the narration out (the sections written from
    the plan are the narration already). Each entry: where it starts, its clock, its text."""
    said: dict[tuple[int, bool], list[Any]] = {}
    for c in p.captions:  # the title on a line of its own
        said.setdefault((c.beat, c.style != "title"), []).append(c)
    return [{"start": spans[0].start, "clock": clock(spans[0].start), "text": " ".join(c.text.strip() for c in spans)}
            for _, spans in sorted(said.items())]


def figure(index: Any, beat: Any, k: int, ch: Chapter, drawn: BeatFigure | None) -> dict[str, Any]:
    """Beat ``k``'s figure as a section shows it: the drawing (None where the beat draws no graph),
    where the clip plays it from, and the program lines it shows."""
    lines = code.beat_lines(index, beat)
    return {"number": k + 1, "start": ch.start, "clock": clock(ch.start), "figure": drawn, "lines": lines,
            "line_text": line_span(lines), "line_range": f"{min(lines)}-{max(lines)}" if lines else ""}


def place_steppers(beats: list[dict[str, Any]], steppers: list[Stepper]) -> None:
    """Give each section the stepping walks that follow it: a walk goes after the last section
    showing a beat up to the walk's last one (the beat's own section, in the generated form),
    else after the first section showing a later beat, else after the last section before the
    closing ones."""
    for b in beats:
        b["steppers"] = []
    for s in steppers:
        shown = [b for b in beats if b["number"] is not None]
        upto = [b for b in shown if b["number"] <= s.after_beat + 1]
        later = [b for b in shown if b["number"] > s.after_beat + 1]
        body = [b for b in beats if not b.get("closing")] or beats
        (upto[-1] if upto else later[0] if later else body[-1])["steppers"].append(s)


def takeaway(board: Any, p: Any, prose: list[Any]) -> str:
    """The clip's point: its storyboard's ``takeaway`` as the closing captions show it (numbers
    filled), else what an opening title card says (empty without either)."""
    said = " ".join(c.text.strip() for c in p.captions if c.style == "takeaway")
    if said:
        return said
    return prose[0].text if board.beats[0].visual == "title_card" else ""


def clock(seconds: float) -> str:
    """``75.3`` -> ``1:15``: a time as a reader reads it beside a video."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def line_span(lines: list[int]) -> str:
    """``[2, 3, 4]`` -> ``lines 2–4``; ``[5]`` -> ``line 5``; ``[]`` -> ``""``."""
    if not lines:
        return ""
    a, b = min(lines), max(lines)
    return f"line {a}" if a == b else f"lines {a}–{b}"


def track_src(vtt: Path) -> str:
    """A ``<track>``'s ``src``: the WebVTT file's text as a ``data:`` URL. Why not the file's name:
    a browser treats every ``file:`` URL as an origin of its own and refuses a track from one,
    so a page opened from disk would have no captions; the file is still beside, to download."""
    import base64

    return "data:text/vtt;charset=utf-8;base64," + base64.b64encode(vtt.read_bytes()).decode("ascii")


def _size_of(png: Path) -> tuple[int, int]:
    from PIL import Image

    with Image.open(png) as im:
        return im.size
