"""What is said for a written phrase: numbers as words, code through the theme's table, the
author's say: table, and one Word per written token however the voice counted."""

from __future__ import annotations

import pytest

from scenes.voice.base import pronunciation
from scenes.voice.numwords import number_words
from scenes.voice.spoken import Pronunciation, spoken


@pytest.mark.parametrize("written, said", [
    ("4/9", "four ninths"),
    ("8/3", "eight thirds"),
    ("1/2", "one half"),
    ("3/2", "three halves"),
    ("5/64", "five over sixty four"),
    ("-0.3715", "minus zero point three seven one five"),
    ("2.6667", "two point six six six seven"),
    ("5.52e-06", "five point five two times ten to the minus six"),
    ("1e+03", "one times ten to the three"),
    ("tensor(2.6667)", "tensor two point six six six seven"),
    ("1", "one"),
    ("12", "twelve"),
    ("36", "thirty six"),
    ("1,024", "one thousand twenty four"),
    ("-13/10", "minus thirteen tenths"),
])
def test_numbers_as_words(written: str, said: str) -> None:
    assert " ".join(number_words(written) or []) == said


def test_numbers_in_a_phrase_keep_their_punctuation() -> None:
    s = spoken("so L is 4/9, and w is tensor(2.6667).", Pronunciation())
    assert s.text == "so L is four ninths, and w is tensor two point six six six seven."
    assert spoken("(8/3) or 50%", Pronunciation()).said == (("eight", "thirds"), ("or",), ("fifty", "percent"))
    assert spoken("of (yh - y)².", pronunciation()).text == "of y hat minus y squared."


def test_the_theme_table_says_code() -> None:
    p = pronunciation()
    assert spoken("`w1.grad` and `yh`", p).said == (("w", "one", "dot", "grad"), ("and",), ("y", "hat"))
    assert spoken("`L.backward()` then `b ** 2`", p).text == "L dot backward then b to the power two"
    assert spoken("`grad_fn`", p).text == " ".join(p.code["grad_fn"].split())


def test_the_code_table_is_what_is_used() -> None:
    assert spoken("`yh`", Pronunciation(code={"yh": "why hat"})).text == "why hat"
    assert spoken("`a.b`", Pronunciation(symbols={".": "of"})).text == "a of b"


def test_say_table_wins() -> None:
    p = pronunciation({"ReLU": "ray loo", "yh": "prediction"})
    assert spoken("the ReLU of `yh`", p).text == "the ray loo of prediction"
    assert spoken("so `yh`, then", pronunciation({"`yh`": "the guess"})).said == (("so",), ("the", "guess,"), ("then",))


def test_one_word_per_written_token_when_the_voice_agrees() -> None:
    s = spoken("`w1` is 4/9 — done", Pronunciation())
    spans = [(0.0, 0.1), (0.1, 0.2), (0.3, 0.4), (0.5, 0.6), (0.6, 0.7), (0.8, 0.9)]
    t = s.timing(spans, 1.0)
    assert [w.text for w in t.words] == "`w1` is 4/9 — done".split()
    assert [(w.start, w.end) for w in t.words] == [(0.0, 0.2), (0.3, 0.4), (0.5, 0.7), (0.7, 0.7), (0.8, 0.9)]


def test_a_count_mismatch_spreads_by_characters() -> None:
    s = spoken("aa b 4/9", Pronunciation())  # said: aa b four ninths (4 words)
    t = s.timing([(0.0, 0.5), (0.6, 1.0)], 2.0)  # the voice said 2
    assert [w.text for w in t.words] == ["aa", "b", "4/9"]
    starts = [w.start for w in t.words]
    assert starts == sorted(starts) and t.words[-1].end <= 2.0
    total = sum(len(w) + 1 for w in s.words)  # by spoken characters: "aa " is 3 of 20
    assert t.words[1].start == pytest.approx(2.0 * 3 / total)


def test_every_rule_has_words_to_say() -> None:
    """Each backward rule declares, beside its on-screen notation, what a voice says for it: words
    only (its input's name at ``{}``), never the notation's symbols."""
    from engine.optable import RULES

    for rule in RULES.values():
        assert rule.spoken, rule.words
        assert all(w.strip(",.:;").isalpha() for w in rule.spoken.replace("{}", "d").split()), rule.spoken


@pytest.mark.parametrize("name", ["backward_walk", "leaf_nodes", "missing_gradient"])
def test_a_caption_quoting_a_rule_is_said_in_words(name: str) -> None:
    """The caption shows the rule's notation (``pow: d² → × 2d``); the voice says its spoken form
    ("the power rule: times two d"), not the symbols one by one ("pow: d squared to times 2d",
    REVIEW5 4). Every word said for such a caption is a word: no symbol, no ``2d``."""
    from scenes.storyboard import load, plan_of, storyboard_path

    checked = load(storyboard_path(name))
    p = plan_of(checked)
    table = pronunciation(dict(checked.storyboard.say))
    quoting = [c for c in p.captions if any(s.field == "rule" for s in c.strings)]
    assert quoting
    for c in quoting:
        said = spoken(c.text, table)
        assert all(w.strip(",.:;!?'").isalpha() for w in said.words), said.text
        assert "the power rule: times two" in said.text, said.text
        assert "→" in c.text  # the screen keeps the notation


def test_what_is_said_keys_the_levelled_phrase(tmp_path) -> None:
    """A caption said otherwise (a rule's spoken form or a ``say:`` entry changed, the caption's
    text and the voice the same) is said and levelled again, not read back from the track's
    cache under its written text."""
    from scenes.voice.cache import SpeechCache
    from scenes.voice.draft import draft
    from scenes.voice.track import levelled

    text = "ReLU: pow: d² → × 2d."
    rule = ("pow: {}² → × 2{}", "the power rule: times two {}")
    first = draft(Pronunciation(say={"ReLU": "ray loo"}, rules=(rule,)), SpeechCache(tmp_path))
    again = draft(Pronunciation(say={"ReLU": "rectifier"}, rules=(rule,)), SpeechCache(tmp_path))
    other = draft(Pronunciation(say={"ReLU": "ray loo"}, rules=((rule[0], "the square rule: times two {}"),)),
                  SpeechCache(tmp_path))
    assert first.key() == again.key() == other.key()
    made = levelled(first, text)
    assert len(levelled(again, text)) != len(made) or not (levelled(again, text) == made).all()
    assert len(levelled(other, text)) != len(made) or not (levelled(other, text) == made).all()


NINE = ("graph_build", "backward_graph", "backward_walk", "leaf_nodes", "missing_gradient", "grad_accumulation",
        "dynamic_graph", "mlp", "reverse_mode")


@pytest.mark.parametrize("name", NINE)
def test_every_written_thing_is_said_in_words(name: str) -> None:
    """What a voice is given for a caption is words (letters, an apostrophe, a hyphen): no name
    with an underscore or digits (``h1_0`` -> "h one zero"), no printed ``grad_fn=<PowBackward0>``
    passed raw, no number left to the voice. An operator between spaces is said ("y = w * w":
    "w times w", REVIEW7 1); a token left silent is a dash or a bracket, or part of a backward
    rule's notation, which is said in the rule's words."""
    from scenes.storyboard import load, plan_of, storyboard_path

    checked = load(storyboard_path(name))
    table = pronunciation(dict(checked.storyboard.say))
    for c in plan_of(checked).captions:
        said = spoken(c.text, table)
        assert all(w.strip(",.:;!?'\"").replace("'", "").replace("-", "").isalpha() for w in said.words), said.text
        quotes_rule = any(s.field == "rule" for s in c.strings)
        silent = [tok for tok, words in zip(said.written, said.said) if not words and tok not in "—–-()"]
        assert quotes_rule or not silent, (c.text, silent)


def test_punctuation_after_code_is_kept_and_printed_values_read_as_numbers() -> None:
    """A pause after a name in backticks ("`yh - y`: pow") and a sentence's end after code are
    kept; PyTorch's ``tensor(12.)`` and ``1.0000`` are said as the numbers they are."""
    p = pronunciation()
    assert spoken("d = `yh - y`: then", p).said[-2:] == (("y:",), ("then",))
    assert spoken("it is `w1.grad`.", p).text == "it is w one dot grad."
    assert spoken("prints `tensor(12.)` and y = 1.0000", p).text == "prints tensor twelve and y equals one"
    assert spoken("shows tensor(0.4444, grad_fn=<PowBackward0>).", p).text == (
        "shows tensor zero point four four four four, grad F N equals Pow Backward zero.")
