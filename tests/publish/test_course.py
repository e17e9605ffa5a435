"""course.yaml: its introduction (optional Markdown text, refused with its line when it is
anything else) and the project's own course, in the order of the articles its clips illustrate."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scenes.publish.course import Course
from scenes.publish.site import intro_html
from scenes.storyboard.errors import StoryboardError

ROOT = Path(__file__).resolve().parents[2]


def course_of(tmp_path: Path, text: str) -> Course:
    (tmp_path / "storyboards").mkdir()
    (tmp_path / "storyboards" / "build.yaml").write_text((ROOT / "scenes" / "storyboards" / "graph_build.yaml").read_text())
    (tmp_path / "course.yaml").write_text(text)
    return Course.of(tmp_path / "storyboards")


def test_the_intro_is_read_as_text(tmp_path: Path) -> None:
    course = course_of(tmp_path, "title: T\nintro: |\n  One *idea*.\n\n  Two.\nclips: [build]\n")
    assert course.intro == "One *idea*.\n\nTwo."
    assert intro_html(course.intro) == "<p>One <em>idea</em>.</p>\n<p>Two.</p>"


def test_without_an_intro_there_is_none(tmp_path: Path) -> None:
    assert course_of(tmp_path, "title: T\nclips: [build]\n").intro == ""


@pytest.mark.parametrize("value, col", [("\n  - a\n  - b", 3), (" 3", 8), (" ''", 8), (" {a: 1}", 8)])
def test_an_intro_of_the_wrong_shape_is_refused_at_its_line(tmp_path: Path, value: str, col: int) -> None:
    with pytest.raises(StoryboardError) as err:
        course_of(tmp_path, f"title: T\nintro:{value}\nclips: [build]\n")
    line = str(err.value)
    assert line.count("\n") == 0, line
    assert re.match(rf".*course\.yaml:{2 if col == 8 else 3}:{col}: intro: must be the course's introduction, "
                    r"Markdown text .*'intro: \|'.*, or leave it out$", line), line


def test_a_misspelt_key_names_the_four(tmp_path: Path) -> None:
    with pytest.raises(StoryboardError, match=r"unknown key 'intor'; did you mean 'intro'\? \(a course has title, "
                                              r"intro, clips and voice\)"):
        course_of(tmp_path, "title: T\nintor: Hi\nclips: [build]\n")


def test_the_intro_makes_no_raw_html_heading_image_or_script_link() -> None:
    page = intro_html("# Big\n\n<script>x()</script> ![a](http://far/a.png) [b](javascript:x()) [c](https://ok.org)")
    assert "<h1" not in page and "<script" not in page and "<img" not in page and 'href="javascript' not in page
    assert '<a href="https://ok.org">c</a>' in page


def test_the_project_course_follows_its_articles_and_types_no_number() -> None:
    """Each article's clips in the order of its sections ("Leaf Nodes and the Computation Graph":
    leaf_nodes, mlp, missing_gradient; "How does PyTorch find every gradient by itself?":
    graph_build to dynamic_graph), interleaved so that a clip comes after what it uses: once,
    the first clip called L.backward() and showed gradients three clips before the walk."""
    course = Course.of(ROOT / "scenes" / "storyboards")
    assert course.names == ["graph_build", "backward_graph", "backward_walk", "leaf_nodes", "mlp",
                            "missing_gradient", "grad_accumulation", "reverse_mode", "dynamic_graph"]
    at = course.names.index
    assert at("leaf_nodes") < at("mlp") < at("missing_gradient")
    walk = ["graph_build", "backward_graph", "backward_walk", "grad_accumulation", "reverse_mode", "dynamic_graph"]
    assert [at(n) for n in walk] == sorted(at(n) for n in walk)
    assert at("backward_walk") < at("leaf_nodes")  # backward() is taught before a clip calls it as a tool
    assert at("leaf_nodes") < at("missing_gradient")  # "is it a leaf?"
    assert at("mlp") < at("reverse_mode")  # the network whose 36 weights reverse mode reaches
    assert course.intro and not re.search(r"\d", course.intro)
