"""What a render may write: checked before the program runs, so that outputs are never inputs.

Why: a render renames its outputs into place over whatever is there. ``render scene ./clip.srt``
would replace the storyboard by its own captions; ``--out afile`` failed only after the whole
program had run (nine times over in ``render all``). So the output folder is checked to be a
folder this process can write into, and each output that already exists is checked to be one
gradreel wrote (recorded in the folder's list, :mod:`.manifest`) and not an input of the render.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from scenes.atomic import not_regular, write_error_words
from scenes.render import manifest
from scenes.render.options import ASPECTS, RenderOptions, outputs
from scenes.storyboard.errors import Problem, StoryboardError
from scenes.storyboard.store import name_problem
from scenes.video.formats import FORMATS

SIGNATURES: dict[str, tuple[int, bytes]] = {
    **{f".{f.name}": f.signature for f in FORMATS.values()},
    ".png": (0, b"\x89PNG\r\n\x1a\n"), ".jsonl": (0, b'{"format":"gradreel-events"'), ".vtt": (0, b"WEBVTT"),
}
"""Where an output's first bytes say that gradreel wrote it, by its file ending: a clip's container
(its entry in :data:`scenes.video.formats.FORMATS`), a PNG, an event log's header, WebVTT captions. Only for a file the folder's list does not record:
one written before gradreel kept lists (a Markdown file or a style sheet is never known so)."""


class OutputRefused(Exception):
    """A render would write where it must not; ``str()`` is one line naming the path and why."""


def check_out_dir(out: str | Path, flag: str = "--out") -> None:
    """``out`` is a folder (made if missing) that this process can create files in; else
    OutputRefused naming what it is instead (a file, a device, a path under a file, read-only).
    ``flag`` is how the message names the argument (``--out``, or ``site folder`` for ``render site DIR``)."""
    out = Path(out)
    if os.path.lexists(out) and not out.is_dir():
        what = not_regular(out)
        raise OutputRefused(f"{flag} {out}: {'a file' if what is None else what}, not a directory")
    probe = out
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    if os.path.lexists(probe) and not probe.is_dir():
        raise OutputRefused(f"{flag} {out}: {probe} is {_kind(probe)}, not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".gradreel-probe-pid{os.getpid()}-", dir=out)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        words = write_error_words(exc) or ("it takes no new files" if out.is_dir() and exc.errno == errno.ENOENT
                                           else exc.strerror or str(exc))
        raise OutputRefused(f"{flag} {out}: cannot write there ({words})") from None


def _kind(p: Path) -> str:
    what = not_regular(p)
    return "a file" if what is None else what


def check_render(name: str, opts: RenderOptions, inputs: list[str]) -> None:
    """What every command that renders clip ``name`` checks first (``render scene``, ``all``,
    ``watch``, ``article``): the name is one a clip may have, ``--out`` is a folder it can write,
    no output of the clip (at its aspect) is an input or a file gradreel did not write, and
    ``--out`` is not an input's folder."""
    check_name(name, inputs[0])
    check_out_dir(opts.out)
    check_outputs(name, opts.out, opts.fmt, inputs, opts.aspect)
    check_not_beside(opts.out, inputs)


def check_name(name: str, file: str) -> None:
    """A clip's name gives its outputs names no other clip's have (:func:`name_problem`); else
    the storyboard's problem, at its first line."""
    if (problem := name_problem(name)) is not None:
        raise StoryboardError([Problem(os.path.relpath(file), 1, 1, problem)])


def check_not_beside(out: str | Path, inputs: list[str]) -> None:
    """``out`` is not the folder an input is in: outputs written among the storyboards would be
    mixed with them (and an article's folder ``NAME/`` would sit beside ``NAME.yaml``)."""
    for given in inputs:
        if _same_file(Path(out), Path(given).parent):
            raise OutputRefused(f"--out {out}: the folder of the storyboard {given}; the outputs go in a "
                                "folder of their own: choose another --out (the default is out)")


def check_outputs(name: str, out: str | Path, fmt: str, inputs: list[str], aspect: str = ASPECTS[0]) -> None:
    """No output of clip ``name`` at ``aspect`` is one of ``inputs`` (the storyboard), nor an
    existing file gradreel did not write; OutputRefused naming the first such path."""
    targets = outputs(name, Path(out), fmt, aspect)
    listing = read_listing(Path(out))
    for kind, target in targets.items():
        if not os.path.lexists(target):
            continue
        for given in inputs:
            if _same_file(target, Path(given)):
                raise OutputRefused(f"{target}: the render's {kind} would overwrite its input {given}; "
                                    "choose another --out or rename the storyboard")
        check_written(target, kind, listing)


KIND_WORDS = {"srt": "caption file", "vtt": "caption file", "events": "event log"}
"""A clip's outputs (:func:`outputs`' kinds) in words, where the kind is not one."""


def read_listing(folder: Path) -> manifest.Listing:
    """What ``folder``'s list records (:mod:`.manifest`); a list that is not gradreel's is refused."""
    try:
        return manifest.read(folder)
    except manifest.ManifestError as exc:
        raise OutputRefused(str(exc)) from None


def check_written(target: Path, what: str, listing: manifest.Listing | None = None) -> None:
    """An existing ``target`` is a file gradreel wrote, so that writing its ``what`` there again
    loses nothing: recorded in its folder's list as it is now, or (not recorded) written before
    lists were kept and known by its first bytes, or empty. Else OutputRefused naming it: a file
    an author wrote, or changed since, is never replaced."""
    if not os.path.lexists(target):
        return
    what = KIND_WORDS.get(what, what)
    if target.is_symlink() or not target.is_file():
        raise OutputRefused(f"{target}: is {_kind(target)}; gradreel writes its {what} there, "
                            "and only replaces files it wrote")
    versions = (read_listing(target.parent) if listing is None else listing).get(target.name)
    try:
        if target.stat().st_size == 0 or (manifest.holds(versions, target) if versions else _made_by_gradreel(target)):
            return  # an empty file holds nothing to lose
    except OSError as exc:
        raise OutputRefused(f"{target}: cannot read it ({exc.strerror or exc})") from None
    if versions:
        raise OutputRefused(f"{target}: changed since gradreel wrote it; writing the {what} again would lose "
                            "the change (move it away, or delete it to have it written anew)")
    article = "an" if what[0] in "aeiou" else "a"
    raise OutputRefused(f"{target}: not {article} {what} gradreel made; writing the {what} would overwrite it "
                        "(move it away or choose another folder)")


_BEAT_FILES = {".svg": "figure", ".png": "still"}
"""A beat's file in an article folder: its figure (a still, in the folders of earlier versions)."""


def check_article_folder(folder: Path, files: dict[str, str], key_file: str, inputs: list[str]) -> None:
    """The article's folder is absent, or a folder that holds none of ``inputs`` (at any depth),
    where each file the article writes or replaces (``files``: name -> what it is; its figures
    ``beat-NN.svg``, and the stills ``beat-NN.png`` it once wrote and now removes) is one
    gradreel wrote (:func:`check_written`). A folder gradreel has not
    written in (no list, no ``key_file``) holds nothing else but a killed writer's
    ``.NAME.tmp-pidN``. Why: ``render article clip/clip.md --out .`` once replaced its own
    storyboard by the article, and an author's own ``NAME.md`` by the article's."""
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputRefused(f"{folder}: is {_kind(folder)}; the article is written in a folder of that name "
                            "(move it away or choose another --out)")
    if not folder.is_dir():
        return
    for given in inputs:
        if Path(given).resolve().is_relative_to(folder.resolve()):
            raise OutputRefused(f"{folder}: holds the storyboard {given}; the article would write its files "
                                "beside it: choose another --out")
    listing = read_listing(folder)
    ours = bool(listing) or (folder / key_file).is_file()
    for entry in sorted(os.listdir(folder)):
        what = files.get(entry) or (_BEAT_FILES.get(Path(entry).suffix) if entry.startswith("beat-") else None)
        if what is not None:
            check_written(folder / entry, what, listing)
        elif not ours and entry != manifest.MANIFEST and ".tmp-pid" not in entry:
            raise OutputRefused(f"{folder}: holds {entry}, which no article writes; the article's folder holds "
                                f"only its own files (move {entry} away or choose another --out)")


PAGE_MARK = '<link rel="stylesheet" href="gradreel.css">'
"""What the head of every page gradreel writes (an article, the site) holds: its style sheet."""
SCHEMA_MARK = '"$id": "https://gradreel.invalid/schema/storyboard.schema.json"'
"""What the head of the storyboard schema ``render schema --write`` writes holds."""


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _made_by_gradreel(target: Path) -> bool:
    """Whether a file no list records looks like one gradreel wrote before it kept lists, by its
    first bytes: a clip's outputs, a page, a key, the schema. A Markdown file or a style sheet
    cannot be told from an author's, and is not."""
    with open(target, "rb") as f:
        head = f.read(4096)
    if target.suffix in SIGNATURES:
        at, magic = SIGNATURES[target.suffix]
        return head[at:at + len(magic)] == magic
    text = head.decode("utf-8", "replace")
    if target.suffix == ".key":
        return len(text.strip()) == 64 and all(c in "0123456789abcdef" for c in text.strip())
    if target.suffix == ".srt":
        return text.split("\n", 1)[0].strip() == "1"
    if target.suffix == ".html":
        return PAGE_MARK in text
    if target.suffix == ".json":
        return SCHEMA_MARK in text
    return False
