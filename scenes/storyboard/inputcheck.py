"""Checks of what the author typed that need no meaning from the log: text a viewer reads is
bounded and drawable (the program too, as the code pane and the cards draw it), ``forward_mode``
is a name, ``voice:`` a voice there is, and a ``--set`` that breaks the program is named as the cause. Each adds located
problems to the file's :class:`ErrorList`."""

from __future__ import annotations

import io
import tokenize
import unicodedata
from pathlib import Path as FsPath
from typing import Any

from engine.records import Error

from .errors import INVISIBLE, ErrorList, Path, did_you_mean
from .fontcover import undrawable
from .program import ProgramPlace, Run
from .yamlsafe import Document
from scenes.voice.registry import known, voice_problem

MAX_TITLE_CHARS = 120
MAX_NARRATION_CHARS = 600
MAX_BEATS = 200
MAX_BEAT_TITLE_CHARS = 60
"""A beat's ``title:`` is its chapter's: a player's chapter menu shows one short line."""
MAX_CHECKLIST_ITEMS = 8
MAX_CHECKLIST_ITEM_CHARS = 30
"""The checklist stays on screen in one corner, a row per item at the note size: 30 of the widest
letter (W, 0.233 scene units there) after the tick box fit the narrowest frame, 8 units wide at
9:16 and 1:1 (measured with ``render inspect``; 40 put the list off the frame), and so do 8 rows."""


def check_text_bounds(doc: Document, errors: ErrorList) -> None:
    """Titles and narrations are text a viewer reads: bounded in length (a 100 KB title took a
    minute and 893 MB to draw as a grey smudge) and free of control characters (BEL, ESC and DEL
    went raw into the .srt and the picture), and a clip has a bounded number of beats. Why
    absolute bounds here: the reading-rate rules of captions belong to the caption timing."""
    data = doc.data if isinstance(doc.data, dict) else {}
    beats = data.get("beats") if isinstance(data.get("beats"), list) else []
    if len(beats) > MAX_BEATS:
        line, col = doc.at(("beats",))
        errors.add(line, col, f"{len(beats)} beats; a clip may have at most {MAX_BEATS}", ("beats",))
    checklist = data.get("checklist") if isinstance(data.get("checklist"), list) else []
    if len(checklist) > MAX_CHECKLIST_ITEMS:
        line, col = doc.at(("checklist",))
        errors.add(line, col, f"{len(checklist)} items; a checklist may have at most "
                   f"{MAX_CHECKLIST_ITEMS} (they stay on screen in one corner)", ("checklist",))
    texts = [(("title",), "title", data.get("title"), MAX_TITLE_CHARS)]
    texts += [(("beats", i, "narration"), "narration", b.get("narration"), MAX_NARRATION_CHARS)
              for i, b in enumerate(beats) if isinstance(b, dict)]
    texts += [(("beats", i, "title"), "a beat's title", b.get("title"), MAX_BEAT_TITLE_CHARS)
              for i, b in enumerate(beats) if isinstance(b, dict)]
    takeaway = data.get("takeaway")
    if isinstance(takeaway, dict):
        texts.append((("takeaway", "text"), "text", takeaway.get("text"), MAX_NARRATION_CHARS))
        points = takeaway.get("points") if isinstance(takeaway.get("points"), list) else []
        texts += [(("takeaway", "points", i), f"key takeaway {i + 1}", point, MAX_NARRATION_CHARS)
                  for i, point in enumerate(points[:MAX_CHECKLIST_ITEMS])]
    texts += [(("checklist", i), f"checklist item {i + 1}", item, MAX_CHECKLIST_ITEM_CHARS)
              for i, item in enumerate(checklist[:MAX_CHECKLIST_ITEMS])]
    for path, what, text, limit in texts:
        if isinstance(text, str):
            _check_text(doc, path, what, text, limit, errors)


def _check_text(doc: Document, path: Path, what: str, text: str, limit: int,
                errors: ErrorList) -> None:
    """One text a viewer reads: at most ``limit`` characters, no control character, every
    character drawable; ``what`` names it in the message (``narration``, ``checklist item 2``)."""
    line, col = doc.at(path)
    if len(text) > limit:
        errors.add(line, col, f"{what} is {len(text)} characters; at most {limit} can be read on screen", path)
    bad = next((c for c in text if unicodedata.category(c) == "Cc" or c in INVISIBLE), None)
    if bad is not None:
        errors.add(line, col, f"{what} holds the control character U+{ord(bad):04X} "
                   f"({unicodedata.name(bad, 'a control character')}); text on screen is plain text", path)
        return
    missing = undrawable(text)
    if missing is not None:
        errors.add(line, col, _cannot_draw(what, missing), path)


def _cannot_draw(what: str, missing: str) -> str:
    """The words of a refused glyph: what holds it, its code point and name, and what it would be."""
    return (f"{what} holds {missing!r} (U+{ord(missing):04X} {unicodedata.name(missing, '')}), which no "
            "installed font can draw; it would show as a box")


def check_program_glyphs(source: str, place: ProgramPlace, errors: ErrorList) -> None:
    """The program is drawn, in the code pane and by its names on the cards: a character no
    installed font can draw is refused at its line as a caption's is (`undrawable`): each name
    holding one once (``w𓀀``: rename it), other text (a comment, a string) once a line."""
    if undrawable(source) is None:
        return
    names = _names_by_line(source)
    told: set[str] = set()
    for n, text in enumerate(source.splitlines(), 1):
        line_told = False
        for at, c in enumerate(text):
            missing = undrawable(c) if not c.isascii() else None
            if missing is None:
                continue
            name = next((w for a, b, w in names.get(n, []) if a <= at < b), None)
            if name in told or (name is None and line_told):
                continue
            line, col = place.yaml_pos(n, at + 1)
            if name is not None:
                told.add(name)
                message = (f"{_cannot_draw(f'the name {name!r} on program line {n}', missing)} on its card and "
                           "in the code; rename it with letters the fonts draw (Latin, Greek, Cyrillic...)")
            else:
                line_told = True
                message = (f"{_cannot_draw(f'program line {n}', missing)} in the code; write it with "
                           "characters the fonts draw")
            errors.add(line, col, message, ("program",))


def _names_by_line(source: str) -> dict[int, list[tuple[int, int, str]]]:
    """``{line: [(start, end, name)]}`` of the program's names (0-based columns in characters),
    as far as the program tokenizes (a syntax error is reported by the run)."""
    out: dict[int, list[tuple[int, int, str]]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.NAME and tok.start[0] == tok.end[0]:
                out.setdefault(tok.start[0], []).append((tok.start[1], tok.end[1], tok.string))
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def check_forward_mode_name(doc: Document, fmode: Any, errors: ErrorList) -> None:
    """``forward_mode`` must be a name (``"y; import os"`` is not one, and was once ignored)."""
    if isinstance(fmode, str) and not fmode.isidentifier():
        line, col = doc.pos.get(("forward_mode",), (1, 1))
        errors.add(line, col, f"forward_mode: {fmode!r} is not a name; expected the name of a tensor "
                   "the program ends with (its loss)", ("forward_mode",))


def check_set_errors(result: Run, overrides: dict[str, str], place: ProgramPlace, errors: ErrorList) -> None:
    """An error raised on a line whose number ``--set`` replaced is the real cause of whatever
    follows (``--set w=2``: an int cannot require grad, then ``w`` is undefined): it is reported
    alone, naming --set and the value, and the problems it causes are not."""
    from engine.overrides import override_lines

    lines = override_lines(result.header["source"], list(overrides))
    for ev in result.events:
        names = [n for n, line in lines.items() if isinstance(ev, Error) and ev.line == line]
        if names:
            line, col = place.yaml_pos(ev.line, 1)
            errors.add(line, col, f"--set {names[0]}={overrides[names[0]]}: program line {ev.line} then raises "
                       f"{ev.type or 'an error'}: {ev.message}", ("program",))
            errors.raise_if_any()


def check_voice(doc: Document, folder: FsPath, errors: ErrorList) -> None:
    """``voice:`` names a voice that can be had (a piper model's path is relative to the
    storyboard's folder) and each ``say:`` key is one word as the narration writes it (a key with
    a space would never match: narration is said word by word)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    voice = data.get("voice")
    if isinstance(voice, str) and voice.strip() and (problem := voice_problem(
            voice, folder, did_you_mean(voice, known()))) is not None:
        errors.add(*doc.at(("voice",)), problem, ("voice",))
    say = data.get("say")
    for key in say if isinstance(say, dict) else ():
        if isinstance(key, str) and len(key.split()) > 1:
            at: Path = ("say", key)
            errors.add(*doc.key_pos.get(at, doc.at(at)), f"say: the key {key!r} is several words: give each "
                       "word its own key (as written in the narration, e.g. ReLU: ray loo)", at)
