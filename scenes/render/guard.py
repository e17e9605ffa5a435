"""What a render may write: checked before the program runs, so that outputs are never inputs.

Why: a render renames its outputs into place over whatever is there. ``render scene ./clip.srt``
would replace the storyboard by its own captions; ``--out afile`` failed only after the whole
program had run (nine times over in ``render all``). So the output folder is checked to be a
folder this process can write into, and each output that already exists is checked to be one
gradreel made (by what it starts with) and not an input of the render.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from scenes.atomic import not_regular
from scenes.render.options import ASPECTS, RenderOptions, outputs

SIGNATURES: dict[str, tuple[int, bytes]] = {
    ".mp4": (4, b"ftyp"), ".webm": (0, b"\x1a\x45\xdf\xa3"), ".gif": (0, b"GIF8"),
    ".png": (0, b"\x89PNG\r\n\x1a\n"), ".jsonl": (0, b'{"format":"gradreel-events"'), ".vtt": (0, b"WEBVTT"),
}
"""Where an output's first bytes say that gradreel wrote it, by its file ending: a video container,
a PNG, an event log's header, WebVTT captions. An ending not listed is not checked."""


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
        raise OutputRefused(f"{flag} {out}: cannot write there ({exc.strerror or exc})") from None


def _kind(p: Path) -> str:
    what = not_regular(p)
    return "a file" if what is None else what


def check_render(name: str, opts: RenderOptions, inputs: list[str]) -> None:
    """What every command that renders clip ``name`` checks first (``render scene``, ``all``,
    ``watch``, ``article``): ``--out`` is a folder it can write, no output of the clip (at its
    aspect) is an input or a file gradreel did not make, and ``--out`` is not an input's folder."""
    check_out_dir(opts.out)
    check_outputs(name, opts.out, opts.fmt, inputs, opts.aspect)
    check_not_beside(opts.out, inputs)


def check_not_beside(out: str | Path, inputs: list[str]) -> None:
    """``out`` is not the folder an input is in: outputs written among the storyboards would be
    mixed with them (and an article's folder ``NAME/`` would sit beside ``NAME.yaml``)."""
    for given in inputs:
        if _same_file(Path(out), Path(given).parent):
            raise OutputRefused(f"--out {out}: the folder of the storyboard {given}; the outputs go in a "
                                "folder of their own: choose another --out (the default is out)")


def check_outputs(name: str, out: str | Path, fmt: str, inputs: list[str], aspect: str = ASPECTS[0]) -> None:
    """No output of clip ``name`` at ``aspect`` is one of ``inputs`` (the storyboard), nor an
    existing file gradreel did not make; OutputRefused naming the first such path."""
    targets = outputs(name, Path(out), fmt, aspect)
    for kind, target in targets.items():
        if not os.path.lexists(target):
            continue
        for given in inputs:
            if _same_file(target, Path(given)):
                raise OutputRefused(f"{target}: the render's {kind} would overwrite its input {given}; "
                                    "choose another --out or rename the storyboard")
        if target.is_symlink() or not target.is_file():
            raise OutputRefused(f"{target}: is {_kind(target)}; the render writes its {kind} there, "
                                "and only replaces files it made")
        if not _made_by_gradreel(kind, target):
            raise OutputRefused(f"{target}: not a {kind} gradreel made; the render would overwrite it "
                                "(move it away or choose another --out)")


def check_article_folder(folder: Path, names: set[str], key_file: str, inputs: list[str]) -> None:
    """The article's folder is absent, or a folder that holds none of ``inputs`` (at any depth)
    and either gradreel's ``key_file`` or only files the article writes (``names``, its stills
    ``beat-NN.png``, a killed writer's ``.NAME.tmp-pidN``). Why: the article writes ``NAME.md``
    and ``index.html`` there, and removes old stills; ``render article clip/clip.md --out .``
    once replaced its own storyboard by the article."""
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputRefused(f"{folder}: is {_kind(folder)}; the article is written in a folder of that name "
                            "(move it away or choose another --out)")
    if not folder.is_dir():
        return
    for given in inputs:
        if Path(given).resolve().is_relative_to(folder.resolve()):
            raise OutputRefused(f"{folder}: holds the storyboard {given}; the article would write its files "
                                "beside it: choose another --out")
    if (folder / key_file).is_file():
        return
    check_page(folder / "index.html", folder / key_file)
    for entry in sorted(os.listdir(folder)):
        own = entry in names or (entry.startswith("beat-") and entry.endswith(".png")) or ".tmp-pid" in entry
        if not own:
            raise OutputRefused(f"{folder}: holds {entry}, which no article writes; the article's folder holds "
                                f"only its own files (move {entry} away or choose another --out)")


PAGE_MARK = '<link rel="stylesheet" href="gradreel.css">'
"""What the head of every page gradreel writes (an article, the site) holds: its style sheet."""


def check_page(page: Path, key: Path) -> None:
    """An existing ``page`` (``index.html``) is one gradreel wrote: its ``key`` is beside it, or
    its head links gradreel's style sheet; else OutputRefused (``render site DIR`` once replaced
    a folder's own index.html)."""
    if not os.path.lexists(page) or key.is_file():
        return
    if page.is_symlink() or not page.is_file():
        raise OutputRefused(f"{page}: is {_kind(page)}; the page is written there, and only over a page gradreel made")
    try:
        with open(page, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError as exc:
        raise OutputRefused(f"{page}: cannot read it ({exc.strerror or exc})") from None
    if PAGE_MARK not in head:
        raise OutputRefused(f"{page}: not a page gradreel made; writing the page would overwrite it "
                            "(move it away or choose another folder)")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _made_by_gradreel(kind: str, target: Path) -> bool:
    try:
        with open(target, "rb") as f:
            head = f.read(64)
    except OSError as exc:
        return exc.errno == errno.ENOENT
    if not head:
        return True  # an empty file holds nothing to lose
    if target.suffix in SIGNATURES:
        at, magic = SIGNATURES[target.suffix]
        return head[at:at + len(magic)] == magic
    text = head.decode("utf-8", "replace")
    if target.suffix == ".key":
        return len(text.strip()) == 64 and all(c in "0123456789abcdef" for c in text.strip())
    if target.suffix == ".srt":
        return text.split("\n", 1)[0].strip() == "1"
    return True

