"""The storyboard subcommands of ``render``: check, plan, list, schema.

``scenes/commands/main.py`` calls :func:`register` with its subparsers; each subcommand sets ``run`` (and
``func``) to a
handler taking the parsed arguments and returning the exit status (0, or 2 for any error, with
every error printed as ``FILE:LINE:COL: message (at path)`` on stderr and nothing written).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="render"); register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["plan", "backward_walk", "--json"]).json
True
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from scenes.commands.problems import report
from scenes.commands.scene_args import voice_argument
from scenes.render.options import ASPECTS
from scenes.storyboard import StoryboardError, find_storyboards, storyboard_path
from scenes.storyboard.errors import Problem


def _add_set(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a number of the program, e.g. --set w1=0.5 (repeatable)")


def register(subparsers: Any) -> None:
    """Add ``check``, ``plan``, ``list`` and ``schema`` to ``render``'s subparsers."""
    p = subparsers.add_parser("check", help="validate storyboards, run their programs, compare with PyTorch")
    p.add_argument("storyboards", nargs="*", metavar="NAME|FILE", help="default: every storyboard")
    _add_set(p)
    p.add_argument("--no-torch", action="store_true", help="skip the comparison with real PyTorch")
    p.add_argument("--torch-python", metavar="PYTHON", default=None,
                   help="compare with the PyTorch of this Python (default: $GRADREEL_TORCH_PYTHON, "
                        "else this environment's, else python3 or python on PATH)")
    p.set_defaults(func=cmd_check, run=cmd_check)

    p = subparsers.add_parser("plan", help="print a storyboard's timed cues and captions")
    p.add_argument("storyboard", metavar="NAME|FILE")
    _add_set(p)
    form = p.add_mutually_exclusive_group()  # one form a run: a second was once silently dropped
    form.add_argument("--json", action="store_true", help="print the plan as JSON data")
    form.add_argument("--srt", action="store_true", help="print the captions as SubRip text")
    form.add_argument("--vtt", action="store_true", help="print the captions as WebVTT text")
    form.add_argument("--chapters", action="store_true",
                      help="print YouTube chapter lines (from 0:00, beats merged so each lasts at least 10 s)")
    form.add_argument("--beats", action="store_true",
                      help="print each beat's start and end time (s), number, visual and heading")
    form.add_argument("--speech", action="store_true",
                      help="print what each beat says, each word with the time (s) it is said at")
    voice_argument(p)
    p.add_argument("--aspect", choices=list(ASPECTS), default=None,
                   help="the plan of the clip at this aspect: the plan every aspect shares (the default), with "
                        "the walk's camera moves laid into its pauses where the camera moves there")
    p.set_defaults(func=cmd_plan, run=cmd_plan)

    p = subparsers.add_parser("list", help="every storyboard with its title and duration")
    p.set_defaults(func=cmd_list, run=cmd_list)

    p = subparsers.add_parser("schema", help="print the storyboard JSON Schema, or write it beside your storyboards")
    p.add_argument("--write", metavar="DIR", default=None,
                   help="write DIR/storyboard.schema.json and print the $schema line for storyboards in DIR")
    p.set_defaults(func=cmd_schema, run=cmd_schema)


def cmd_check(args: argparse.Namespace) -> int:
    """Validate each storyboard; all of its problems are printed; exit 2 if any storyboard failed."""
    from scenes.oracle.check import compare, torch_available
    from scenes.oracle.remote import TorchUnavailable, find_torch
    from scenes.layout.readable import sizing_lines
    from scenes.layout.unshown import empty_beats, refuse_if_nothing_shown, unshown, unshown_prints
    from scenes.theme import load_theme
    from scenes.storyboard import load, plan_of  # the model: not on every `render`'s path

    files = [storyboard_path(w) for w in args.storyboards] or find_storyboards()
    status = 0
    at = None
    if not args.no_torch:
        try:
            at = find_torch(getattr(args, "torch_python", None), in_process=torch_available())
        except TorchUnavailable as exc:
            print(f"render check: {exc}", file=sys.stderr)
            return 2
        if at is None:
            print(f"render check: PyTorch is not installed, so no program is compared with it (nothing was "
                  f"compared); install it with: {install_oracle()}, or name a Python that has it with "
                  "--torch-python PYTHON", file=sys.stderr)
        elif at.python is not None:
            print(f"render check: comparing with {at.label()}", file=sys.stderr)
    for file in files:
        try:
            checked = load(file, sets=args.sets)
        except StoryboardError as exc:
            status = report(exc)
            continue
        note = "not compared (--no-torch)" if args.no_torch else "not compared (torch not installed)"
        if at is not None:
            try:
                verdict = compare(checked.run, checked.index.source, f"{checked.name}.py", at)
            except Exception as exc:  # the oracle could not run the program at all
                print(f"{checked.file}:1:1: {exc}", file=sys.stderr)
                status = 2
                continue
            if verdict.differences:
                problems = [Problem(checked.file, *checked.place.yaml_pos(d.line, 1), d.message, "program")
                            for d in verdict.differences]
                status = report(StoryboardError(problems))
                continue
            note = verdict.note
        try:
            p = plan_of(checked)
        except StoryboardError as exc:  # a plan too long to be a clip
            status = report(exc)
            continue
        lays = clip_layouts(checked, p)
        visuals = [b.visual for b in checked.storyboard.beats]
        missing = empty_beats(p, visuals) + unshown(p, lays) + unshown_prints(p, checked.run.events)
        try:
            refuse_if_nothing_shown(checked, missing)
        except StoryboardError as exc:
            status = report(exc)
            continue
        print(f"ok {checked.name}: {len(checked.storyboard.beats)} beats, {p.duration:.1f} s, {note}")
        for line in folding_lines(checked, lays) + sizing_lines(p, lays, load_theme(), visuals):
            print(f"  {line}")
        for u in missing:
            line, col = checked.doc.at(("beats", u.beat, "visual"))
            print(f"  warning: {checked.file}:{line}:{col}: at {u.aspect}, beat {u.beat + 1} "
                  f"({checked.storyboard.beats[u.beat].visual}): {u.what}")
    return status


def clip_layouts(checked: Any, p: Any) -> dict[str, Any]:
    """The clip's graph layout at each aspect of the theme (`clip_layout`, as the scene draws it)."""
    from scenes.layout.clip import clip_layout
    from scenes.theme import load_theme

    theme = load_theme()
    return {aspect: clip_layout(p, checked.run.events, checked.index.source, aspect, theme)
            for aspect in theme.aspects}


def folding_lines(checked: Any, lays: dict[str, Any]) -> list[str]:
    """Per aspect whose picture of the graph had to give something up so that every card shows
    its value (``lays``: `clip_layouts`), one line saying what: results drawn in the card of the
    result they feed (`collapse`), and a code pane of the lit line alone."""
    from scenes.layout.collapse import folded_into
    from scenes.layout.graph import graph_from_events

    graph = graph_from_events(checked.run.events, checked.index.source)
    out = []
    for aspect, lay in lays.items():
        cards = folded_into(graph, lay.merged)
        if not cards and not lay.code_lit:
            continue
        said = ["the code pane shows only its lit line"] if lay.code_lit else []
        if cards:
            said.append(f"{len(lay.merged)} results are drawn in the card of the result they feed: "
                        + "; ".join(f"{', '.join(f'`{t}`' for t in folds)} in `{title}`" for title, folds in cards))
        out.append(f"at {aspect}, so that every card shows its value: " + "; ".join(said))
    return out


def install_oracle() -> str:
    """The one command that installs real PyTorch (the ``oracle`` extra) into this install."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():
        return f"{sys.executable} -m pip install -e '{root}[oracle]'"
    return f"{sys.executable} -m pip install 'gradreel[oracle]'"


def _shows(strings) -> str:
    return " ".join(f"{s.role}={s.text!r}" + (f"@{s.seq}" if s.seq is not None else "") for s in strings)


def plan_table(p) -> str:
    """The plan as a readable table: one cue a line, then the captions."""
    rows = [f"{p.title}: {p.duration:.2f} s, {len(p.cues)} cues, {len(p.captions)} captions", "",
            f"{'start':>7} {'dur':>5} {'beat':>4}  {'kind':<15} {'ids':<14} shows (role='text'@seq)"]
    for c in p.cues:
        ids = ",".join(c.ids) or "-"
        line = f"L{c.line} " if c.kind == "code_line" else ""
        rows.append(f"{c.start:7.2f} {c.duration:5.2f} {c.beat + 1:>4}  {c.kind:<15} {ids:<14} {line}{_shows(c.strings)}")
    rows += ["", "captions:"]
    rows += [f"{c.start:7.2f} {c.end:7.2f}  {c.text}" + (f"  [{c.style}]" if c.style != "caption" else "")
             for c in p.captions]
    return "\n".join(rows)


def speech_table(p, said: dict | None, spoken: Any = None) -> str:
    """What each beat says: its phrases, each from its start, the words the voice says for it
    (``spoken``: written phrase -> spoken text, where the voice tells), then each written word
    at the time (s) it is said (``said``: the voice's timings by phrase; None for a silent clip,
    which says nothing and shows its captions for reading)."""
    from scenes.storyboard.chapters import beat_chapters

    rows = [f"{p.title}: {p.duration:.2f} s" + ("" if said is not None else ", silent (voice off): captions only")]
    for b, ch in zip(p.beats, beat_chapters(p)):
        rows += ["", f"beat {b.index + 1} ({b.visual}) {ch.start:.2f}-{ch.end:.2f} s: {ch.title}"]
        for c in (c for c in p.captions if c.beat == b.index):
            rows.append(f"{c.start:7.2f}  {c.text}")
            if spoken is not None and (words := spoken(c.text)) != c.text:
                rows.append(f"         says: {words}")
            if said is not None and c.text in said:
                rows.append("         " + " ".join(f"{w.text}@{c.said + w.start:.2f}" for w in said[c.text].words))
    return "\n".join(rows)


def beats_table(p) -> str:
    """One line per beat: start and end in seconds, its 1-based number (the storyboard's
    ``beats[i]`` is beat ``i + 1``; the takeaway is the last), its visual and its heading (its
    ``title:``, else the first phrase of its narration, as the chapters name it).

    Why: a document that says which beat shows a sentence names the beat, not the time, and
    this prints the times of the clip as it is planned now (they move with the narration)."""
    from scenes.storyboard.chapters import beat_chapters

    rows = [f"{p.title}: {p.duration:.2f} s, {len(p.beats)} beats", "",
            f"{'start':>7} {'end':>7} {'beat':>4}  {'visual':<20} heading"]
    for b, ch in zip(p.beats, beat_chapters(p)):
        rows.append(f"{ch.start:7.2f} {ch.end:7.2f} {b.index + 1:>4}  {b.visual:<20} {ch.title}")
    return "\n".join(rows)


def cmd_plan(args: argparse.Namespace) -> int:
    """Print one storyboard's plan (table, ``--json``), its captions (``--srt``, ``--vtt``), its
    YouTube chapters (``--chapters``), its beats' times (``--beats``) or what each beat says
    (``--speech``); timed by the voice a render would use (``--voice``), at ``--aspect``."""
    from scenes.storyboard import load, plan_of, srt, vtt
    from scenes.storyboard.chapters import youtube_chapters, youtube_lines, youtube_problem

    from scenes.render.options import RenderOptions
    from scenes.render.sound import Recorder, voice_of, with_voice
    from scenes.voice.registry import VoiceError

    file = storyboard_path(args.storyboard)
    try:
        checked = load(file, sets=args.sets)
        voice = voice_of(with_voice(file, RenderOptions(voice=args.voice)), checked)
    except StoryboardError as exc:
        return report(exc)
    except VoiceError as exc:
        print(f"render: {file}: {exc}", file=sys.stderr)
        return 2
    speak = Recorder(voice) if voice is not None else None
    from scenes.render.camera_plan import plan_at

    p = plan_at(checked, plan_of(checked, speak), args.aspect)  # timed as the clip is: by the voice its render would use
    if args.speech:
        says = getattr(voice, "spoken", None)
        print(speech_table(p, speak.table if speak is not None else None,
                           (lambda text: says(text).text) if says is not None else None))
    elif args.json:
        print(p.to_json())
    elif args.srt:
        print(srt(p.captions), end="")
    elif args.vtt:
        print(vtt(p.captions), end="")
    elif args.chapters:
        chapters = youtube_chapters(p)
        print(youtube_lines(chapters), end="")
        if (problem := youtube_problem(chapters)) is not None:
            print(f"render: {checked.name}: {problem}", file=sys.stderr)
    elif args.beats:
        print(beats_table(p))
    else:
        print(plan_table(p))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """One line per storyboard: name, duration, title (a broken one says so, exit 2)."""
    from scenes.storyboard import load, plan_of

    status = 0
    for file in find_storyboards():
        try:
            checked = load(file)
        except StoryboardError as exc:
            first = exc.problems[0]
            print(f"{file.rsplit('/', 1)[-1][:-5]:<20} {'-':>7}  BROKEN: {first}")
            status = 2
            continue
        p = plan_of(checked)
        print(f"{checked.name:<20} {p.duration:6.1f}s  {checked.storyboard.title}")
    return status


SCHEMA_FILE = "storyboard.schema.json"


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema generated from the model; with ``--write DIR``, write it into DIR
    (atomically) for storyboards that live there, outside the checkout, and print the comment
    line that points their editor at it. An existing ``DIR/storyboard.schema.json`` is replaced
    only when it is gradreel's schema; a folder that takes no file is one line, exit 2."""
    from pathlib import Path

    from scenes.atomic import write_atomic
    from scenes.commands.problems import write_failed
    from scenes.render.guard import OutputRefused, check_out_dir, check_written
    from scenes.storyboard import schema_text

    if getattr(args, "write", None) is None:
        print(schema_text(), end="")
        return 0
    if not args.write.strip():
        print("render schema: --write needs a folder (--write . for this one)", file=sys.stderr)
        return 2
    folder = Path(args.write)
    if not folder.is_dir():
        print(f"render schema: --write {folder}: no such folder", file=sys.stderr)
        return 2
    target = folder / SCHEMA_FILE
    try:
        check_out_dir(folder, "--write")
        check_written(target, "schema")
        write_atomic(target, schema_text())
    except OutputRefused as exc:
        print(f"render schema: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if (status := write_failed(exc, target)) is None:
            raise
        return status
    print(target, file=sys.stderr)
    print(f"# yaml-language-server: $schema=./{SCHEMA_FILE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run these subcommands alone (tests, and until scenes/commands/main.py registers them)."""
    parser = argparse.ArgumentParser(prog="render")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
