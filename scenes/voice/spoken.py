"""What is said for a written phrase, word by word, and how a voice's word times come back to it.

Why a mapping kept per written token: the plan asks when a written token ("8/3", "`w1.grad`") is
said, but the voice is given other words ("eight thirds", "w one dot grad"). :func:`spoken`
keeps, for each whitespace token of the phrase, the words said for it; :meth:`Spoken.timing`
turns the voice's times of the words it said into one :class:`~.speech.Word` per written token.
When the voice's word count is not what was asked (it merged or split a word), the phrase's
duration is spread over its tokens by their spoken characters instead.

What is said: numbers as words (:mod:`.numwords`), code in backticks (and prose that looks like
code, ``w1.grad``) through the theme's pronunciation table, and the storyboard's ``say:`` table
for the author's own words, which wins over both.

>>> p = Pronunciation(code={"yh": "y hat"}, symbols={".": "dot", "**": "to the power"})
>>> spoken("`yh` is 4/9.", p).text
'y hat is four ninths.'
>>> spoken("`w1.grad` = -0.5", p).said
(('w', 'one', 'dot', 'grad'), ('equals',), ('minus', 'zero', 'point', 'five'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .numwords import digits, number_words
from .speech import Timing, Word

_PUNCT_LEAD = re.compile(r"^[\"'(\[“‘]+")
_PUNCT_TRAIL = re.compile(r"[\"'\],.;:!?”’]+$")
_CODE_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+(?:\.\d*)?(?:e[-+]?\d+)?|\*\*|==|!=|<=|>=|->|\S")
_LOOKS_LIKE_CODE = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*(?:[.(][A-Za-z_0-9().]*)+$|^[A-Za-z]+\d*_[A-Za-z_0-9]*$"
                              r"|^[A-Za-z]+\d+$|^[A-Za-z_]\w*=<?\w+>?$")
"""Prose that reads as code without backticks: ``w1.grad``, ``x.detach()``, ``grad_fn``, ``w1``,
``h1_0``, and a printed keyword (``grad_fn=<PowBackward0>``)."""
_TAGGED = re.compile(r"<(\w+)>")
"""A name in angle brackets as PyTorch prints it (``<PowBackward0>``): the brackets are not said."""
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
"""The words of a CamelCase name (``PowBackward0`` -> Pow Backward 0)."""
_WORD_SYMBOLS = {"=": "equals", "+": "plus", "-": "minus", "×": "times", "−": "minus", "->": "to", "→": "to",
                 "÷": "over"}
"""Prose symbols standing alone between spaces ("c = 9"); code's own symbols come from the theme."""
_POWERS = {"²": "squared", "³": "cubed"}
"""A power written as a superscript after a word or a bracket: ``(yh - y)²``."""


@dataclass(frozen=True)
class Pronunciation:
    """How code and the author's words are said: ``code`` maps a whole name or snippet
    (``yh``, ``L.backward()``) to words, ``symbols`` an operator (``**``, ``.``) to words (a
    symbol missing from it is silent: brackets), ``say`` the storyboard's own written -> spoken."""

    code: Mapping[str, str] = field(default_factory=dict)
    symbols: Mapping[str, str] = field(default_factory=dict)
    say: Mapping[str, str] = field(default_factory=dict)
    rules: tuple[tuple[str, str], ...] = ()
    """The backward rules' on-screen notation and spoken form, ``{}`` standing for a name in
    both (``("pow: {}² → × 2{}", "the power rule: times two {}")``, from ``engine.optable``): a
    caption quoting a rule shows the notation and the voice says the words."""

    def with_say(self, say: Mapping[str, str]) -> "Pronunciation":
        """The same table with a storyboard's ``say:`` entries."""
        return Pronunciation(self.code, self.symbols, {**self.say, **say}, self.rules)


@dataclass(frozen=True)
class Spoken:
    """A written phrase's tokens and the words said for each (none for a dash)."""

    written: tuple[str, ...]
    said: tuple[tuple[str, ...], ...]

    @property
    def words(self) -> tuple[str, ...]:
        """Every word said, in order (what a voice's word times are counted against)."""
        return tuple(w for group in self.said for w in group)

    @property
    def text(self) -> str:
        """What the voice is given: the words said, one space apart."""
        return " ".join(self.words)

    def timing(self, spans: Sequence[tuple[float, float]] | None, duration: float) -> Timing:
        """One :class:`Word` per written token from the voice's ``spans`` (start, end of each word
        it said, seconds); by spoken characters over ``duration`` when the count differs."""
        if spans is None or len(spans) != len(self.words):
            spans = spread(self.words, duration)
        out: list[Word] = []
        i, last = 0, 0.0
        for token, group in zip(self.written, self.said):
            if group:
                start = max(last, min(spans[i][0], duration))
                end = max(start, min(spans[i + len(group) - 1][1], duration))
                i += len(group)
            else:
                start = end = last
            out.append(Word(token, start, end))
            last = end
        return Timing(duration, tuple(out))


def spread(words: Sequence[str], duration: float) -> list[tuple[float, float]]:
    """Each word's share of ``duration`` by its characters (a space counted with each word)."""
    total = sum(len(w) + 1 for w in words) or 1
    out, at = [], 0.0
    for w in words:
        end = at + duration * (len(w) + 1) / total
        out.append((at, at + duration * len(w) / total))
        at = end
    return out


_NAME_IN_RULE = r"(?P<n>[A-Za-z_]\w*|\([^()]*\))"
"""A name where a rule's notation writes ``{}``: an identifier, or an expression in brackets."""


def _rule_words(text: str, pron: Pronunciation) -> dict[int, tuple[int, tuple[str, ...]]]:
    """Per token (by index) that starts a rule's notation in ``text``: how many tokens the
    notation takes and the words said for all of them (the rule's spoken form, its name said as
    any name is, the last token's punctuation kept)."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    out: dict[int, tuple[int, tuple[str, ...]]] = {}
    plain = Pronunciation(pron.code, pron.symbols, pron.say)
    for notation, voice in dict(pron.rules).items():
        parts = notation.split("{}")
        pattern = re.escape(parts[0]) + "".join((_NAME_IN_RULE if k == 1 else "(?P=n)") + re.escape(p)
                                               for k, p in enumerate(parts[1:], 1))
        for m in re.finditer(pattern, text):
            first = next((k for k, (a, _) in enumerate(spans) if a == m.start()), None)
            last = next((k for k, (a, b) in enumerate(spans) if a < m.end() <= b), None)
            if first is None or last is None or first in out:
                continue
            rest = text[m.end():spans[last][1]]
            if rest.strip(",.;:!?)"):
                continue  # the notation runs into a word: not a rule quoted
            name = m.groupdict().get("n") or ""
            words = spoken(voice.replace("{}", name), plain).words
            if words and rest:
                stop = next((c for c in reversed(rest) if c in ",.;:!?"), "")
                words = (*words[:-1], words[-1].rstrip(",.;:!?") + stop)
            out[first] = (last - first + 1, words)
    return out


def spoken(text: str, pron: Pronunciation) -> Spoken:
    """What is said for ``text``, token by token (see the module's doc). A rule's notation
    (``pow: d² → × 2d``) is said as the rule's spoken form, on its first token (the others are
    silent): "the power rule: times two d"."""
    tokens = text.split()
    said: list[tuple[str, ...]] = []
    in_code = False
    rules = _rule_words(text, pron) if pron.rules else {}
    skip = 0
    for k, token in enumerate(tokens):
        if skip:
            skip -= 1
            said.append(())
            continue
        if k in rules:
            skip = rules[k][0] - 1
            said.append(rules[k][1])
            continue
        bare = token.rstrip(",.;:!?")
        if bare in pron.say and bare.count("`") % 2 == 0:  # the author's words for the token as written
            said_words = pron.say[bare].split()
            said.append((*said_words[:-1], said_words[-1] + token[len(bare):][-1:]) if said_words else ())
            continue
        words: list[str] = []
        pieces = token.split("`")
        for k, piece in enumerate(pieces):
            if k:
                in_code = not in_code
            if piece:
                words += _code(piece, pron) if in_code else _prose(piece, pron)
        stop = _PUNCT_TRAIL.search(token.rstrip("`"))
        mark = next((c for c in reversed(stop.group()) if c in ",.;:!?"), "") if stop and len(pieces) > 1 else ""
        if words and mark and not words[-1].endswith(mark):  # "`yh - y`:" pauses after y, as prose does
            words[-1] += mark
        said.append(tuple(words))
    return Spoken(tuple(tokens), tuple(said))


def _prose(piece: str, pron: Pronunciation) -> list[str]:
    """A piece of prose: the author's table, then numbers, code-like names and plain words, with
    its punctuation kept on its last word (a voice pauses on it)."""
    if piece in pron.say:
        return pron.say[piece].split()
    lead = _PUNCT_LEAD.match(piece)
    core = piece[lead.end():] if lead else piece
    trail = _PUNCT_TRAIL.search(core)
    core, tail = (core[:trail.start()], trail.group()) if trail else (core, "")
    power = core[-1:] if core[-1:] in _POWERS else ""
    core = core[:len(core) - len(power)]
    while core.endswith(")") and core.count("(") < core.count(")"):  # "(8/3)": the bracket is not the number's
        core = core[:-1]
    words = _core(core, pron) + ([_POWERS[power]] if power else [])
    if words and tail:
        words[-1] += next((c for c in reversed(tail) if c in ",.;:!?"), "")
    return words


def _core(core: str, pron: Pronunciation) -> list[str]:
    if not core:
        return []
    for table in (pron.say, pron.code):
        if core in table:
            return table[core].split()
    if core in _WORD_SYMBOLS:
        return [_WORD_SYMBOLS[core]]
    if core in pron.symbols:  # an operator standing alone in prose: "y = w * w"
        return pron.symbols[core].split()
    number = number_words(core)
    if number is not None:
        return number
    if core.endswith("%") and (number := number_words(core[:-1])) is not None:
        return number + ["percent"]
    if _LOOKS_LIKE_CODE.match(core):
        return _code(core, pron)
    if all(not c.isalnum() for c in core):
        return []  # a dash or a lone symbol: seen, not said
    return [core]


def _code(piece: str, pron: Pronunciation) -> list[str]:
    """Code: the whole snippet from the table, else name by name (``w1`` -> w one, ``a_b`` -> a b),
    numbers as words and each symbol as the table says (brackets silent)."""
    for table in (pron.say, pron.code):
        if piece in table:
            return table[piece].split()
    out: list[str] = []
    for tok in _CODE_TOKEN.findall(_TAGGED.sub(r" \1 ", piece)):
        if tok in pron.code:
            out += pron.code[tok].split()
        elif tok[0].isalpha() or tok[0] == "_":
            out += _name(tok)
        elif tok[0].isdigit():
            out += number_words(tok) or digits(tok)
        elif tok in pron.symbols:
            out += pron.symbols[tok].split()
    return out


def _name(name: str) -> list[str]:
    """A program name said: its parts between underscores (``h1_0`` -> h one zero), a CamelCase
    name word by word (``PowBackward0`` -> Pow Backward zero), digits as a number."""
    out: list[str] = []
    for part in filter(None, name.split("_")):
        m = re.match(r"^(.*?)(\d+)$", part)
        head, tail = (m[1], m[2]) if m else (part, "")
        if head:
            camel = _CAMEL.findall(head)
            out += camel if "".join(camel) == head and len(camel) > 1 else [head]
        if tail:
            out += number_words(tail) or digits(tail)
    return out
