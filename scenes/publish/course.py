"""A course: its title and its clips in order, read from ``course.yaml``.

Where: beside the folder that holds the storyboards (an author's repository holds
``course.yaml``, ``storyboards/`` and ``out/``; this checkout ``scenes/course.yaml`` beside
``scenes/storyboards/``). Without one, the course is every storyboard in the order of
``render list``, titled by the folder. A malformed file is one located problem per mistake, as a
storyboard's are.

>>> from pathlib import Path
>>> Course.of(Path("scenes/storyboards")).names[:2]
['graph_build', 'backward_graph']
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenes.storyboard.errors import ErrorList, did_you_mean
from scenes.storyboard.store import find_storyboards
from scenes.storyboard.yamlsafe import load_file

COURSE_FILE = "course.yaml"
KEYS = ("title", "clips")


@dataclass(frozen=True)
class Course:
    title: str
    names: list[str]
    storyboards: Path
    file: Path | None
    text: str
    """The course file's text ("" without one): part of the site's key."""

    def storyboard(self, name: str) -> Path:
        return self.storyboards / f"{name}.yaml"

    @classmethod
    def of(cls, storyboards: Path) -> "Course":
        """The course of the storyboards in ``storyboards``; raises StoryboardError for a bad file."""
        known = [Path(f).stem for f in find_storyboards(storyboards)]
        file = storyboards.resolve().parent / COURSE_FILE
        if not file.is_file():
            return cls(storyboards.resolve().parent.name.replace("_", " ").capitalize() or "Course", known,
                       storyboards, None, "")
        doc = load_file(str(file))
        errors = ErrorList(doc.file)
        data = doc.data if isinstance(doc.data, dict) else {}
        if not isinstance(doc.data, dict):
            errors.add(1, 1, "a course file is a mapping with title: and clips:")
        for key in data:
            if key not in KEYS:
                errors.add(*doc.key_pos.get((key,), (1, 1)), f"unknown key '{key}'{did_you_mean(str(key), KEYS)}"
                           f" (a course has {' and '.join(KEYS)})", (key,))
        title = data.get("title")
        if not isinstance(title, str) or not title.strip():
            errors.add(*doc.pos.get(("title",), (1, 1)), "title: must be the course's title, a line of text")
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
        errors.raise_if_any()
        return cls(str(title).strip(), names, storyboards, file, doc.text)
