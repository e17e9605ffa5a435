"""What an article says, without rendering a clip: every number is the log's (as the captions
show it), the prose is the captions' text, and the Markdown holds the same sections as the page."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TypeVar

import pytest
from markdown_it import MarkdownIt

from engine.records import Accumulate, Event, Print, Tensor
from scenes.publish import pages
from scenes.publish.article import article_data
from scenes.publish.prose import md_escape
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.numfmt import show

FILES = {"video": "x.mp4", "poster": "x.png", "captions": "x.vtt", "chapters": "x.chapters.vtt",
         "style": "gradreel.css", "script": "gradreel.js", "markdown": "x.md"}


def _data(name: str, sets: tuple[str, ...] = (), generated: bool = False) -> tuple[dict, object, object]:
    """The article's data; ``generated``: as written from the plan, without the storyboard's ``article:``."""
    checked, p = load_and_plan(storyboard_path(name), sets, name)
    if generated:
        checked = replace(checked, storyboard=checked.storyboard.model_copy(update={"article": ()}))
    data = article_data(checked, p, FILES)
    data.update(video_type="video/mp4", size=(854, 480),
                tracks={"captions": "data:,", "chapters": "data:,"}, captions_shown=False, portrait=False)
    return data, checked, p


E = TypeVar("E", bound=Event)


def _last(events: list[Event], kind: type[E], **match: object) -> E:
    return [e for e in events if isinstance(e, kind) and all(getattr(e, k) == v for k, v in match.items())][-1]


@pytest.mark.parametrize("sets", [(), ("w1=0.5",)])
def test_the_values_table_is_the_logs(sets: tuple[str, ...]) -> None:
    data, checked, _ = _data("backward_walk", sets)
    events = checked.run.events
    rows = {r.name: r for r in data["rows"]}
    ids = {e.name: e.id for e in events if isinstance(e, Tensor) and e.name}
    for name in ("w1", "w2"):
        assert rows[name].grads == (_last(events, Accumulate, tensor=ids[name]).after_exact,)
        assert rows[name].value == _last(events, Tensor, name=name).exact
    assert rows["L"].grad_fn == "PowBackward0" and rows["L"].value == _last(events, Tensor, name="L").exact
    assert rows["x"].grads == ("None",)  # needs no grad: PyTorch's None


def test_a_result_the_storyboard_names_is_listed_by_its_expression() -> None:
    """leaf_nodes' captions call ``yh - y`` d (its ``names:``); the program binds no d, so the
    table lists it as ``yh - y``, the captions' name beside it, and the PyTorch block prints no d."""
    data, checked, _ = _data("leaf_nodes")
    rows = {r.name: r for r in data["rows"]}
    assert "d" not in rows and rows["yh - y"].said == "d"
    assert rows["yh - y"].value == _last(checked.run.events, Tensor, name=None, op="sub").exact
    assert all(r.said == "" for name, r in rows.items() if name != "yh - y")
    assert "d.grad" not in data["try_program"]
    assert "<code>d</code> in the captions" in pages.render("article.html.j2", data)
    assert "| `yh - y` (`d` in the captions) |" in pages.render("article.md.j2", data)


def test_a_set_value_changes_the_numbers_of_the_prose_and_the_table() -> None:
    plain, _, _ = _data("backward_walk", generated=True)
    changed, checked, _ = _data("backward_walk", ("w1=0.5",), generated=True)
    assert plain["beats"][0]["text"] != changed["beats"][0]["text"]
    loss = _last(checked.run.events, Tensor, name="L").exact
    assert f"The loss, {loss}, is on top." in changed["beats"][0]["text"]
    assert f"`{loss}`" in changed["beats"][0]["markdown"] and f"<code>{loss}</code>" in changed["beats"][0]["html"]
    assert {r.name: r.grads for r in plain["rows"]}["w1"] != {r.name: r.grads for r in changed["rows"]}["w1"]


@pytest.mark.parametrize("name", ["backward_walk", "grad_accumulation", "missing_gradient", "reverse_mode"])
def test_the_prose_is_the_captions_with_their_numbers_marked(name: str) -> None:
    """Each beat's prose is its captions, every number from the log marked as code; so is what the
    narration quotes as code in backticks (missing_gradient's `z - 1`), and nothing else."""
    data, checked, p = _data(name, generated=True)
    for k, beat in enumerate(data["beats"]):
        captions = [c for c in p.captions if c.beat == k and c.style != "title"]  # the title is not narration
        assert beat["text"] == " ".join(c.text for c in captions)
        quoted = set(re.findall(r"`([^`]+)`", checked.storyboard.beats[k].narration or ""))
        marked = re.findall(r"<code>(.*?)</code>", beat["html"])
        assert [m for m in marked if m not in quoted] == [s.text for c in captions for s in c.strings]


def test_what_the_program_prints_and_the_pytorch_block_come_from_the_log() -> None:
    data, checked, _ = _data("grad_accumulation")
    prints = [e.text for e in checked.run.events if isinstance(e, Print)]
    assert data["printed"] == prints and prints  # this program prints w.grad twice
    assert data["try_program"].startswith(checked.index.source.rstrip("\n"))
    # its last line already prints w.grad: the block adds no second print of it
    assert data["try_program"] == checked.index.source.rstrip("\n") + "\n" and data["try_output"].splitlines() == prints
    walk, checked, _ = _data("backward_walk")  # prints nothing: the block adds a print of each .grad
    grads = [_last(checked.run.events, Accumulate, tensor=[e for e in checked.run.events
                                                           if isinstance(e, Tensor) and e.name == n][0].id).str
             for n in ("w1", "w2")]
    assert walk["try_program"].endswith('print("w1.grad =", w1.grad)\nprint("w2.grad =", w2.grad)\n')
    assert walk["try_output"].splitlines() == [f"w1.grad = {grads[0]}", f"w2.grad = {grads[1]}"]


def test_the_markdown_and_the_page_hold_the_same_sections() -> None:
    data, checked, p = _data("backward_walk", generated=True)
    md = pages.render("article.md.j2", data)
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    h2 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    shown = len(data["beats"])  # the storyboard's beats; the takeaway is the page's lead, not a section
    assert h2[:shown] == [b["heading"] for b in data["beats"]]
    assert h2[shown:] == ["The program", "Values from the log", "What the program prints", "Try it in PyTorch"]
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(rows) == 1 + len(data["rows"])
    html = pages.render("article.html.j2", data)
    assert html.count('<section class="beat"') == shown and data["takeaway"] in html
    assert all(f'href="#{b["anchor"]}"' in html and f'id="{b["anchor"]}"' in html for b in data["beats"])
    assert all(f'data-start="{pages._environment().filters["seconds"](b.start)}"' in html for b in p.beats[:shown])
    assert "://" not in html.replace("data:", "")  # nothing from another host


def test_markdown_markup_in_narration_reads_as_itself() -> None:
    text = "Take y = w * w [twice] <b> _here_ #1"
    tokens = MarkdownIt("commonmark").parseInline(md_escape(text))
    assert "".join(t.content for t in tokens[0].children if t.type == "text") == text


@pytest.mark.parametrize("name", ["graph_build", "backward_graph", "backward_walk", "grad_accumulation", "reverse_mode",
                                  "dynamic_graph", "leaf_nodes", "mlp", "missing_gradient"])
def test_generated_headings_are_titles_of_their_own(name: str) -> None:
    """Written from the plan, a section's heading is never cut ("…") nor the paragraph under it."""
    data, checked, _ = _data(name, generated=True)
    headings = [b["heading"] for b in data["beats"]]
    assert len(headings) == len(checked.storyboard.beats)
    for b in data["beats"]:
        assert b["heading"] and "…" not in b["heading"] and not b["heading"].endswith("...")
        assert " ".join(b["heading"].lower().split()) != " ".join(b["text"].lower().rstrip(".!? ").split())
    assert not set(data["takeaways"]) & set(headings)  # key takeaways say more than the titles


def test_an_untitled_one_phrase_beat_is_headed_by_its_code() -> None:
    data, checked, _ = _data("grad_accumulation", generated=True)
    untitled = checked.storyboard.model_copy(update={"beats": tuple(b.model_copy(update={"title": None})
                                                                    for b in checked.storyboard.beats)})
    _, p = load_and_plan(storyboard_path("grad_accumulation"))
    again = article_data(replace(checked, storyboard=untitled), replace(p, beats=tuple(replace(b, title=None)
                                                                                      for b in p.beats)), FILES,
                         [f"beat-{k + 1:02d}.png" for k in range(len(p.beats))])
    forward_once_more = again["beats"][8]
    assert forward_once_more["text"] == "Forward once more."
    assert forward_once_more["heading"] == "y = w * w"  # line 9, the line the beat shows


def test_the_generated_arithmetic_is_what_the_screen_writes() -> None:
    data, checked, p = _data("backward_walk", generated=True)
    rules = {c.beat: [] for c in p.cues}
    for c in p.cues:
        if c.kind == "local_rule":
            factors = " × ".join(s.text for s in c.strings if s.role == "factor")
            rules[c.beat].append(f"{c.text('in')} × {factors} = {c.text('out')}")
    for k, beat in enumerate(data["beats"]):
        assert [b.split(" gets ")[-1] for b in beat["bullets"]] == rules[k]
    style = checked.storyboard.number_style
    w2 = _last(checked.run.events, Accumulate, tensor=[e for e in checked.run.events
                                                     if isinstance(e, Tensor) and e.name == "w2"][0].id)
    s = _last(checked.run.events, Tensor, name="s")
    arrived = [e for e in checked.run.events if type(e).__name__ == "Visit" and e.grad_fn == "MulBackward0"][0]
    line = (f"Mul: w2 gets {show(arrived.grad_in, arrived.grad_in_exact, style)} × "
            f"{show(s.value, s.exact, style)} = {show(w2.after, w2.after_exact, style)}")
    assert line in data["beats"][3]["bullets"]  # 4/3 × 1/3 = 4/9, in the storyboard's style
    assert "On screen" not in data["beats"][3]["html"] and data["beats"][0]["shows"].endswith(
        f"L = {_last(checked.run.events, Tensor, name='L').exact}")


def test_the_storyboards_article_is_its_sections_with_the_logs_numbers() -> None:
    data, checked, _ = _data("backward_walk")
    sections = checked.storyboard.article
    assert [b["heading"] for b in data["beats"]] == [s.heading or "" for s in sections]
    assert [b["figure"] and b["figure"].file for b in data["beats"]] == [
        f"beat-{s.figure:02d}.svg" if s.figure else None for s in sections]
    text = " ".join(b["html"] for b in data["beats"])
    assert "{" not in text and "8/3 × x = 8/3" in text.replace("&times;", "×")
    assert data["takeaways"] == []  # the storyboard writes its own
    changed, _, _ = _data("backward_walk", ("w1=0.5",))
    assert changed["beats"][2]["html"] != data["beats"][2]["html"]  # the buckets hold other numbers


def test_an_authors_closing_sections_end_the_page() -> None:
    """backward_walk's `article:` ends with "Key takeaways" (no figure): the page and the Markdown
    show it after "Try it in PyTorch", as the seed articles do, not between the walk and the program."""
    data, _, _ = _data("backward_walk")
    assert [b["heading"] for b in data["beats"] if b["closing"]] == ["Key takeaways"]
    html = pages.render("article.html.j2", data)
    h2 = re.findall(r'<h2><a class="anchor" href="#[^"]+">([^<]+)</a></h2>', html)
    assert h2[-4:] == ["Values from the log", "What the program prints", "Try it in PyTorch", "Key takeaways"]
    md = pages.render("article.md.j2", data)
    assert md.index("## Try it in PyTorch") < md.index("## Key takeaways") and md.count("## Key takeaways") == 1


def test_key_takeaways_say_what_to_keep_with_the_logs_numbers() -> None:
    """leaf_nodes' "Key takeaways" are its storyboard's lines (``takeaway: points:``) with the
    numbers filled from the log, not its sections' headings again (REVIEW5's page: seven titles,
    none with w1.grad or b.grad); the numbers are those its values table gives each leaf."""
    data, checked, _ = _data("leaf_nodes")
    headings = {b["heading"] for b in data["beats"]}
    assert data["takeaways"] and not headings & set(data["takeaways"])
    grads = {r.name: r.grads[-1] for r in data["rows"]}
    first = data["takeaways"][0]
    assert f"`w1.grad` is {grads['w1']}" in first and f"`b.grad` is {grads['b']}" in first, first
    assert not any("{" in t for t in data["takeaways"])
    html = pages.render("article.html.j2", data)
    listed = re.search(r'<section id="takeaways">.*?</section>', html, re.S).group(0)
    assert listed.count("<li>") == len(checked.storyboard.takeaway.points)
    assert f"<code>w1.grad</code> is {grads['w1']}" in listed
    md = pages.render("article.md.j2", data)
    assert md.index("## Try it in PyTorch") < md.index("## Key takeaways")


def test_an_article_written_from_the_plan_lists_no_headings_as_its_takeaways() -> None:
    """Without the author's key takeaways (backward_graph has none) the page has no such list:
    one of its sections' headings would repeat the chapters it opens with, and teach nothing."""
    data, checked, _ = _data("backward_graph")
    assert data["takeaways"] == []
    assert not checked.storyboard.article and not checked.storyboard.takeaway.points
    assert "Key takeaways" not in pages.render("article.html.j2", data)
    assert "Key takeaways" not in pages.render("article.md.j2", data)
