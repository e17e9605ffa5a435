"""Binding: which step of a beat's cues each phrase talks about, and what it lights.

Why: a phrase's picture is the cue that shows what it names, so the plan starts that cue as
the phrase starts (:mod:`.phrases` lays the beat out from these bindings):

- binding: a phrase naming a filled number is bound to the first cue of the beat that shows it;
  one naming no number, to the first cue after the previous binding that shows or lights a
  tensor it names (``w2``, ``yh.grad``: a result's ``yh.grad = None`` note first) or an op
  (``Mul``, ``Pow``); an author's cue mark
  (:mod:`.cuemarks`) overrides both. A phrase bound to nothing takes the next step of cues in
  order, so the picture still changes as it starts. Bindings only move forward in the beat.
- with a voice, numbers on the move: a cue carrying a number from card to card (``carries``, a
  gradient token) whose number the phrase says lands as the number is said; a visit's outgoing
  tokens whose number it does not say ride with the visit's phrase, landing as a word names
  where they go and after the rule's words (:func:`_sent_at`), not under the next phrase.
- lights: a phrase about a thing already drawn (its cue mark names a tensor no cue still to come
  shows) lights its card, and ``[[from L]]`` the walk's path from L (:mod:`.lights`), so the
  picture points at what is said even when the beat has nothing left to draw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Collection, Iterable
from typing import Sequence

from .caption_events import CaptionEvent, CaptionSpan
from .cuemarks import LAYER, PATH, op_word
from .cues import Cue, cue_kind
from .lights import Levels, layer, light_times, path
from .logindex import LogIndex
from .phrase_timing import Phrase
from .placeholders import Shown
from .steps import DECOR, Steps

TO_KINDS = frozenset({"grad_travel", "edge_grow", "local_rule"})
"""Cue kinds whose first id is where they come from: they show or light their other ids."""
_WORD = re.compile(r"(?<![\w.])[A-Za-z_][\w\[\]]*(?:\.\w+)*(?:\(\))?")
"""A word that may name a tensor: ``w2``, ``w1.grad`` (not ``L.backward()``, a call of it)."""
_OF_TENSOR = ("", "grad", "grad_fn", "grad_in")


GRAD_NONE = "grad_none"
"""The cue kind of a result's ``yh.grad = None`` note: bound by words naming ``yh.grad``, not
``yh`` (a phrase about yh itself lights its card, as before)."""


def _lit(c: Cue) -> tuple[str, ...]:
    if c.kind == GRAD_NONE:
        return ()
    return c.ids[1:] if c.kind in TO_KINDS else c.ids


def _bindings(ph: Phrase, steps: Steps, floor: int, index: LogIndex, made: int, voiced: bool = False
              ) -> list[tuple[int, int]]:
    """``(step, char)`` pairs phrase ``ph`` is bound to, past step ``floor``, in step order;
    ``voiced``: also the step carrying each number it says (:func:`_rides`)."""
    ev = ph.event
    marked = [(at, name) for at, name in ev.marks if not name.startswith((PATH, LAYER))]  # a path or layer binds no cue
    said: list[tuple[str, int]] = []
    pos = 0
    for s in ev.strings:  # the numbers, where the phrase says them
        where = ev.text.find(s.text, pos)
        pos = where + len(s.text) if where >= 0 else pos
        said.append((s.text, where))
    rides: list[tuple[int, int]] = []
    for text, where in said if voiced else []:
        if where >= 0:
            rides += [(k, where) for k in _rides(steps, text, floor, {k for k, _ in rides})]
    if marked:
        named = [(_named(name, steps, floor, index, made), at) for at, name in marked]
        return _monotone([(k, at) for k, at in named if k is not None] + rides)
    found: list[tuple[int, int]] = []
    for text, where in said:  # numbers: the first cue of the beat showing them, when it is still to come
        hit = [steps.step[i] for i, c in enumerate(steps.cues)
               if steps.step[i] >= 0 and any(x.text == text for x in c.strings)]
        if hit and min(hit) > floor:
            found.append((min(hit), max(where, 0)))
    found += rides
    if found:
        return sorted(found)
    for m in _WORD.finditer(ev.text):  # else the first tensor or op it names that is still to come
        name, _, attr = m.group(0).partition(".")
        if attr not in _OF_TENSOR:
            continue
        k = steps.first(floor, lambda c: c.kind == GRAD_NONE and f"{c.text('name')}.grad" == m.group(0)) \
            if attr == "grad" else None
        if k is None:
            k = _named(name, steps, floor, index, made, loose=True)
        if k is not None:
            return [(k, m.start())]
    return []


def _rides(steps: Steps, number: str, floor: int, taken: set[int]) -> list[int]:
    """The first step past ``floor`` and not ``taken`` that carries ``number`` from one card to
    another (``carries``), as a list: said, the number rides as it is said (REVIEW7 7: the
    ``8/3`` rode s -> z under "ReLU: z was positive", 3 s before "passes 8/3 through")."""
    hits = [k for c, k in zip(steps.cues, steps.step) if k > floor and k not in taken
            and cue_kind(c.kind).carries and any(x.text == number for x in c.strings)]
    return [min(hits)] if hits else []


def _leaving(steps: Steps, k: int, visit: int) -> bool:
    """Whether step ``k`` only carries gradients away from the node step ``visit`` visits: the
    visit's own consequence, said with the visit's words."""
    nodes = {c.ids[0] for c in steps.in_step(visit) if c.kind == "visit"}
    moving = [c for c in steps.in_step(k) if c.kind not in DECOR]
    return bool(nodes and moving) and all(cue_kind(c.kind).carries and c.ids[0] in nodes for c in moving)


def _sent_at(ph: Phrase, steps: Steps, k: int, after: int, index: LogIndex, made: int) -> float | None:
    """Seconds into phrase ``ph`` a visit's outgoing gradients (step ``k``) ride when it does not
    say their number: landing as a word after char ``after`` names where they go ("with respect
    to yh", "b receives"), and not before the rule's words (``pow: d² → × 2d``) are said, since
    they carry what the rule makes; None when neither is said (right after the visit)."""
    ev, timing = ph.event, ph.timing
    rules = [(a, a + len(s.text)) for s in ev.strings if s.field == "rule" for a in [ev.text.find(s.text)] if a >= 0]
    to = {c.ids[1] for c in steps.in_step(k) if len(c.ids) > 1}
    named = [m.start() for m in _TOKEN.finditer(ev.text.replace("`", " ")) if m.start() >= after
             and not any(a <= m.start() < b for a, b in rules) and _names(m.group(0), to, set(), index, made)]
    options = [timing.start_of(named[0]) - steps.arrival(k)] if named else []
    options += [timing.start_of(b - 1) for a, b in rules if a >= after]
    return max(options) if options else None


def _named(name: str, steps: Steps, floor: int, index: LogIndex, made: int, loose: bool = False) -> int | None:
    """The first step past ``floor`` that shows or lights tensor ``name`` or op ``name``."""
    if loose and len(name) == 1 and name in "aAI":
        return None  # an English word before it is a name
    ids = set(index.ids_of(name, until=made))
    if ids:
        return steps.first(floor, lambda c: bool(ids & set(_lit(c))) or (c.kind != GRAD_NONE and c.text("name") == name))
    op = op_word(name)
    if op is None:
        return None
    return steps.first(floor, lambda c: any(x.role == "grad_fn" and op_word(x.text) == op for x in c.strings))


_TOKEN = re.compile(r"\S+")
_BARE = re.compile(r"^[^\w]*(.*?)(?:'s)?[^\w]*$")


def _names_of_visit(c: Cue, index: LogIndex) -> tuple[set[str], set[str]]:
    """The ids a word must name to name visit ``c``'s node (its node and tensor), and the words
    of its op: the grad_fn's (``relu`` for ReluBackward0) and the op its tensor records."""
    ops = {op_word(x.text) or "" for x in c.strings if x.role == "grad_fn"}
    tensors = [index.tensor_event[i] for i in c.ids if i in index.tensor_event]
    ops |= {t.op.lower() for t in tensors if t.op}
    return set(c.ids), {o for o in ops if o}


def naming_word(text: str, strings: Sequence[Shown], c: Cue, index: LogIndex, made: int | None = None) -> int | None:
    """Where in a phrase's ``text`` (its filled ``strings``) the first word naming visit ``c``'s
    node begins: its tensor's name (``w2``, ``w1.grad``, ``L.backward()``: the name before the
    dot), a storyboard name, or its op's word, any case (``ReLU``, ``Mul``, ``Sub's``); None when
    no word does. A rule's own words (``{L.rule}``, ``pow: d² → × 2d``) are not counted: they
    name the rule, and the voice says them last."""
    ids, ops = _names_of_visit(c, index)
    rules = [(a, a + len(s.text)) for s in strings if s.field == "rule" for a in [text.find(s.text)] if a >= 0]
    for m in _TOKEN.finditer(text.replace("`", " ")):
        if any(a <= m.start() < b for a, b in rules):
            continue
        if _names(m.group(0), ids, ops, index, made):
            return m.start()
    return None


def named_tensors(text: str, index: LogIndex, among: Collection[str] = ()) -> set[str]:
    """The tensor ids the words of ``text`` name (``w``, ``w.grad``, ``L1.backward()``, a
    storyboard name such as ``d``; punctuation and a ``'s`` off), any tensor ever bound to the
    name: what a caption speaks about, which the picture keeps in view while it is up. An
    ordinal before a name bound to several (``the first h`` of a loop's three) names the one
    of that rank by the order they were made, of those of ``among`` (the tensors its beat
    shows, where some are: a freed graph's h is no longer counted).

    >>> index = type("I", (), {"ids_of": lambda self, w: {"w": ["t1", "n0"], "d": ["t4"], "h": ["t2", "t5", "t7"]}.get(w, []),
    ...                        "tensor_event": {k: type("E", (), {"seq": n})() for n, k in enumerate(["t1", "t2", "t4", "t5", "t7"])}})()
    >>> sorted(named_tensors("reading w.grad gives None; d's rule: d² → × 2d", index))
    ['t1', 't4']
    >>> sorted(named_tensors("w and the first h.", index)), sorted(named_tensors("the first h", index, {"t5", "t7"}))
    (['t1', 't2'], ['t5'])
    """
    out: set[str] = set()
    rank: int | None = None
    for m in _TOKEN.finditer(text.replace("`", " ")):
        word = _word(m.group(0))
        ids = [t for t in index.ids_of(word) if t in index.tensor_event] if word else []
        if rank is not None and len(ids) > 1:
            pool = sorted([t for t in ids if t in among] or ids, key=lambda t: index.tensor_event[t].seq)
            ids = (pool[rank:][:1] if rank >= 0 else pool[rank:]) or ids
        out |= set(ids)
        rank = ORDINALS.get(m.group(0).lower())
    return out


ORDINALS = {"first": 0, "second": 1, "third": 2, "last": -1}
"""Words before a name that pick one of the tensors bound to it, by the order they were made."""


def caption_names(captions: Iterable[CaptionSpan], cues: Iterable[Cue], index: LogIndex) -> dict[int, set[str]]:
    """Per caption (its index), the tensor ids its words name (`named_tensors`), an ordinal read
    among the tensors its beat's cues show."""
    shown: dict[int, set[str]] = {}
    for c in cues:
        shown.setdefault(c.beat, set()).update(c.ids)
    return {c.index: named_tensors(c.text, index, shown.get(c.beat, set())) for c in captions}


def _word(token: str) -> str:
    """The name a word may be (its name before a dot or bracket, punctuation and a ``'s`` off);
    "" for none (an English ``a``, ``A``, ``I``)."""
    bare = _BARE.match(token)
    word = (bare.group(1) if bare else token).split(".")[0].split("(")[0]
    return "" if len(word) == 1 and word in "aAI" else word


def _names(token: str, ids: set[str], ops: set[str], index: LogIndex, made: int | None) -> bool:
    """Whether ``token`` names one of tensor or node ``ids`` or an op of ``ops`` (its name before
    a dot or bracket, its punctuation and a ``'s`` off, any case for the op)."""
    word = _word(token)
    if not word:
        return False
    return re.sub(r"backward\d*$", "", word.lower()) in ops or bool(ids & set(index.ids_of(word, until=made)))


def _on_names(ev: CaptionEvent, got: list[tuple[int, int]], steps: Steps, index: LogIndex, made: int
              ) -> tuple[list[tuple[int, int]], set[int]]:
    """``got`` with each step that visits a node bound to the first word naming it, where the
    phrase has one (and the steps so bound: on a name, not on a number shown late): a viewer
    hears "ReLU" as the walk reaches the ReLU node, not seconds before, as it reaches the number
    (REVIEW5 1). A step with no such word keeps its binding."""
    out: list[tuple[int, int]] = []
    by_name: set[int] = set()
    got = sorted(got)
    for j, (k, at) in enumerate(got):
        visits = [c for c in steps.in_step(k) if c.kind == "visit"]
        if any(m_at == at and _names(name, *_names_of_visit(c, index), index, made) for m_at, name in ev.marks
               for c in visits):
            out.append((k, at))  # an author's mark naming the node: it binds where it stands
            continue
        named = [w for c in visits for w in [naming_word(ev.text, ev.strings, c, index, made)] if w is not None]
        floor = max([at if ev.marks else 0] + [a for _, a in out])  # another mark: among the words after it
        if named and floor <= min(named) <= min([len(ev.text)] + [a for _, a in got[j + 1:]]):
            at = min(named)  # the words keep the order of the steps
            by_name.add(k)
        out.append((k, at))
    return out, by_name


def _monotone(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs whose characters come in the order of their steps (a later word, a later cue)."""
    out: list[tuple[int, int]] = []
    for s, at in sorted(pairs):
        if not out or (s > out[-1][0] and at >= out[-1][1]):
            out.append((s, at))
    return out


@dataclass(frozen=True)
class Bound:
    """A beat's cues in steps, per phrase its anchors ``(step, seconds into the phrase)``, and
    per phrase what it lights (:func:`lights_of`; none for most)."""

    steps: Steps
    anchors: list[list[tuple[int, float]]]
    lights: list[Levels] = field(default_factory=list)
    light_at: list[float] = field(default_factory=list)
    """Per phrase, seconds into it its lights come: with a voice, as the first marked word is said."""


def lights_of(ev: CaptionEvent, steps: Steps, floor: int, index: LogIndex, made: int) -> Levels:
    """What phrase ``ev`` lights: the tensors its cue marks name that no cue of the beat still
    to come shows (all of them in a takeaway, which has no cues) and the units of the layers its
    ``[[layer NAME]]`` marks name, as one level; and for a ``[[from L]]`` mark, the backward
    walk's path from L's node, a level per step down it."""
    one: list[str] = []
    levels: Levels = []
    for _, name in ev.marks:
        if name.startswith(PATH):
            levels += path(index, name[len(PATH):], made)
        elif name.startswith(LAYER):
            one += [i for i in layer(index, name[len(LAYER):]) if i not in one]
        elif _named(name, steps, floor, index, made) is None:
            one += [i for i in index.ids_of(name, until=made) if i not in one]
    return ([tuple(one)] if one else []) + levels


def bind(phrases: list[Phrase], cues: list[Cue], index: LogIndex, made: int, voiced: bool) -> Bound:
    """Per phrase, its anchors, steps rising over the beat. Without a voice, one anchor at the
    phrase's start: the last of its bindings, so that every number it names is on screen as it
    shows (the first as long before as the Builder had it). The title, when nothing binds it,
    takes the first step (the clip opens on its picture), or only the code line leading into it
    when a later phrase names what that step shows; so do a beat's first words that name
    nothing, so that they are not said under the last beat's line."""
    steps = Steps.of(cues)
    bound = _bound(phrases, steps, index, made, voiced)
    title = [k for k, ph in enumerate(phrases) if ph.event.style == "title" and not bound[k]]
    opens = [0] if phrases and not bound[0] and 0 not in title else []  # the beat's first words
    first = (title or opens)[:1]
    if first and steps.times and any(g and g[0][0] == 0 for g in bound[first[0] + 1:]):
        own = Steps.of(cues, own_first=True)
        if len(own.times) > len(steps.times):
            steps, bound = own, _bound(phrases, own, index, made, voiced)
            title += opens  # they take the code line leading into what a later phrase names
            # (backward_graph's "Each operation becomes its backward function:" was said
            # under the last beat's line, review 2)
    for k in title:
        if steps.times and not any(g and g[0][0] == 0 for g in bound[k + 1:]):
            bound[k] = [(0, 0)]
    floors = [-1] + [max([-1] + [g[-1][0] for g in bound[:k + 1] if g]) for k in range(len(phrases) - 1)]
    lights = [lights_of(ph.event, steps, f, index, made) for ph, f in zip(phrases, floors)]
    out: list[list[tuple[int, float]]] = []
    last = -1
    for k, (ph, got) in enumerate(zip(phrases, bound)):
        if not got and lights[k]:  # it lights what it talks about: the steps before the next
            out.append([])  # binding come in order from the last, none waits for a later phrase
            last = max(last, min((g[0][0] for g in bound[k + 1:] if g), default=len(steps.times)) - 1)
            continue
        if not got:  # the next step in order (its lead-in with the phrase), if before the next binding
            nxt = min((g[0][0] for g in bound[k + 1:] if g), default=len(steps.times))
            out.append([(last + 1, steps.lead(last + 1))] if last + 1 < nxt else [])
            last = last + 1 if last + 1 < nxt else last
            continue
        if k in title:
            out.append([(0, steps.lead(0))])
        elif voiced:
            got, by_name = _on_names(ph.event, got, steps, index, made)
            got = _monotone(got)
            anchors = [(s, ph.timing.start_of(at) - (0.0 if s in by_name else max(steps.reveal(s), steps.arrival(s))))
                       for s, at in got]
            for j in range(len(got) - 2, -1, -1):  # a number shown, then carried on: shown as long before
                (s, at), (ride, then) = got[j], got[j + 1]
                if at == then and s not in by_name and steps.arrival(ride) > 0 and steps.arrival(s) == 0:
                    anchors[j] = (s, anchors[j + 1][1] - (steps.times[ride] - steps.times[s]))
            taken = {s for g in bound for s, _ in g}
            while got[-1][0] + 1 < len(steps.times) and got[-1][0] + 1 not in taken \
                    and _leaving(steps, got[-1][0] + 1, got[-1][0]):  # the visit's gradient leaves with its words
                got.append((got[-1][0] + 1, got[-1][1]))  # (REVIEW7 7: sub's 4/3 rode to yh under the next phrase)
                sent = _sent_at(ph, steps, got[-1][0], got[-2][1], index, made)
                anchors.append((got[-1][0], anchors[-1][1] if sent is None else sent))
            out.append(anchors)
        else:  # its first number as long before it as the Builder had it before the last
            lead = steps.times[got[-1][0]] - steps.times[got[0][0]]
            whole = steps.reveal(got[-1][0])
            out.append([(got[0][0], -lead - whole)] * (lead > 0) + [(got[-1][0], -whole)])
        last = got[-1][0]
    return Bound(steps, out, lights, lit_at(phrases, voiced))


def lit_at(phrases: Sequence[Phrase], voiced: bool) -> list[float]:
    """Seconds into each phrase its lights come (:func:`.lights.light_times`)."""
    return light_times([ph.timing for ph in phrases], [ph.event.marks for ph in phrases], voiced)


def _bound(phrases: list[Phrase], steps: Steps, index: LogIndex, made: int, voiced: bool = False
           ) -> list[list[tuple[int, int]]]:
    """Each phrase's bindings ``(step, char)``, each phrase's past the one's before."""
    floor = -1
    out: list[list[tuple[int, int]]] = []
    for ph in phrases:
        got = _bindings(ph, steps, floor, index, made, voiced)
        out.append(got)
        if got:
            floor = got[-1][0]
    return out
