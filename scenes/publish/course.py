"""A course: its title, its introduction and its clips in order, read from ``course.yaml``.

Where: beside the folder that holds the storyboards (an author's repository holds
``course.yaml``, ``storyboards/`` and ``out/``; this checkout ``scenes/course.yaml`` beside
``scenes/storyboards/``). Without one, the course is every storyboard in the order of
``render list``, titled by the folder. A malformed file is one located problem per mistake, as a
storyboard's are; a ``course.yaml`` that is not a regular file (a FIFO, a folder, a device, a
symlink to nothing) is refused, not taken for "no course file".

>>> from pathlib import Path
>>> Course.of(Path("scenes/storyboards")).names[:2]
['graph_build', 'backward_graph']
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenes.atomic import not_regular
from scenes.storyboard.errors import ErrorList, Problem, StoryboardError, did_you_mean
from scenes.storyboard.store import COURSE_FILE, find_storyboards
from scenes.storyboard.yamlsafe import load_file
from scenes.voice.registry import known as voice_names, voice_problem

KEYS = ("title", "intro", "clips", "voice")
INTRO_HELP = ("intro: must be the course's introduction, Markdown text of one paragraph or more "
              "(write it after 'intro: |' on lines of its own, a blank line between paragraphs), or leave it out")


@dataclass(frozen=True)
class Course:
    title: str
    names: list[str]
    storyboards: Path
    file: Path | None
    text: str
    """The course file's text ("" without one): part of the site's key."""
    intro: str = ""
    """What the course is about, in Markdown, as its page opens ("" when the file has none)."""
    voice: str | None = None
    """The voice of every clip that names none (``voice:``: a name of scenes/voice/registry.py,
    ``off`` or a piper model's path relative to the course file); None when the file has none."""

    def storyboard(self, name: str) -> Path:
        return self.storyboards / f"{name}.yaml"

    @classmethod
    def of(cls, storyboards: Path) -> "Course":
        """The course of the storyboards in ``storyboards``; raises StoryboardError for a bad file."""
        known = [Path(f).stem for f in find_storyboards(storyboards)]
        file = storyboards.resolve().parent / COURSE_FILE
        what = not_regular(file) or ("a symlink to nothing" if file.is_symlink() and not file.exists() else None)
        if what is not None:  # asked of stat, so a FIFO is never opened (it would block)
            raise StoryboardError([Problem(str(file), 1, 1, f"{COURSE_FILE} is {what}, not a regular file: make it a "
                                           "YAML file with title: and clips:, or remove it to list every storyboard "
                                           "in the order of render list")])
        if not file.is_file():
            return cls(storyboards.resolve().parent.name.replace("_", " ").capitalize() or "Course", known,
                       storyboards, None, "")
        doc = load_file(str(file))
        errors = ErrorList(doc.file)
        data = doc.data if isinstance(doc.data, dict) else {}
        if not isinstance(doc.data, dict):
            errors.add(1, 1, "a course file is a mapping with title:, clips: and (if you like) intro:")
        for key in data:
            if key not in KEYS:
                errors.add(*doc.key_pos.get((key,), (1, 1)), f"unknown key '{key}'{did_you_mean(str(key), KEYS)}"
                           f" (a course has {', '.join(KEYS[:-1])} and {KEYS[-1]})", (key,))
        title = data.get("title")
        if not isinstance(title, str) or not title.strip():
            errors.add(*doc.pos.get(("title",), (1, 1)), "title: must be the course's title, a line of text")
        intro = data.get("intro", "")
        if "intro" in data and (not isinstance(intro, str) or not intro.strip()):
            errors.add(*doc.pos.get(("intro",), (1, 1)), INTRO_HELP)
        clips = data.get("clips")
        names: list[str] = []
        if not isinstance(clips, list) or not clips:
            errors.add(*doc.pos.get(("clips",), (1, 1)), "clips: must be a list of storyboard names, in course order")
        else:
            for i, name in enumerate(clips):
                where = doc.pos.get(("clips", i), (1, 1))
                if not isinstance(name, str) or name not in known:
                    errors.add(*where, f"no storyboard {name!r} in {storyboards}{did_you_mean(str(name), known)}",
                               ("clips", i))
                elif name in names:
                    errors.add(*where, f"{name!r} is already in the course", ("clips", i))
                else:
                    names.append(name)
        voice = data.get("voice")
        if "voice" in data and (problem := voice_problem(voice, file.parent, did_you_mean(str(voice), voice_names()))):
            errors.add(*doc.pos.get(("voice",), (1, 1)), problem, ("voice",))
        errors.raise_if_any()
        return cls(str(title).strip(), names, storyboards, file, doc.text, str(intro).strip(),
                   voice if isinstance(voice, str) else None)
