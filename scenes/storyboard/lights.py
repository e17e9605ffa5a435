"""Lights: what a phrase about something already drawn points at (the ``light`` cue's plan side).

Why apart from :mod:`.phrases`: binding phrases to the cues a beat already has is one job;
adding cues that exist only because a phrase talks about a thing on screen is another. A cue mark
naming a tensor no cue still to come shows lights its card (on the MLP view, its unit or
weight), ``[[from L]]`` lights the backward walk's path from L level by level (:func:`path`),
``[[layer h1_0]]`` the network layer unit h1_0 is in (:func:`layer`), and :func:`light_cues`
places those lights in time: each as its phrase starts (with a voice: as its first marked word is said, :func:`light_times`),
a path spread over the time until the next light, and none left at the beat's end.
"""

from __future__ import annotations

from typing import Sequence

from scenes.voice.speech import Timing

from .builder import _t
from .cues import Cue
from .logindex import LogIndex
from .network import read_network
from .timings import PlanTimings

Levels = list[tuple[str, ...]]
"""What a phrase lights, level by level: the ids each ``light`` cue adds (one level: a card)."""


def path(index: LogIndex, name: str, made: int) -> Levels:
    """The nodes the backward walk from tensor ``name`` reaches, level by level (its node
    first, the leaves' AccumulateGrad last), following each node's edges once."""
    nodes = [i for i in index.ids_of(name, until=made) if i in index.node_event][-1:]
    seen, out = set(nodes), []
    while nodes:
        out.append(tuple(nodes))
        nxt = [e for n in nodes for e in index.node_event[n].edges if e is not None and e in index.node_event]
        nodes = [e for e in dict.fromkeys(nxt) if e not in seen]
        seen |= set(nodes)
    return out


def layer(index: LogIndex, name: str) -> tuple[str, ...]:
    """The units of the MLP view's layer that tensor ``name`` is a unit of (ids, in order; none
    when ``name`` is no unit of the program's network). Why a mark of its own: a phrase about a
    layer ("the input layer is where data enters") names no single tensor.

    The network is the whole program's: a layer still to come is lit where its units' outlines
    stand; a unit of a later pass (a training loop's second ``h[0]``) stands in the first
    pass's layer."""
    net = read_network(index.events)
    units = [u for u in (net.unit_of(i) for i in index.ids_of(name)) if u is not None]
    return tuple(next((l for l in net.layers if units and units[0] in l), []))


def light_times(timings: Sequence[Timing], marks: Sequence[Sequence[tuple[int, str]]], voiced: bool) -> list[float]:
    """Seconds into each phrase its lights come: as it starts, or with a voice as the word after
    its first mark is said (without one a phrase shows all at once, so its light comes with it)."""
    return [t.start_of(m[0][0]) if voiced and m else 0.0 for t, m in zip(timings, marks)]


def light_cues(starts: list[float], lights: list[Levels], end: float, tm: PlanTimings, beat: int) -> list[Cue]:
    """The ``light`` cues of a beat's phrases: each phrase's levels as it starts, a path's levels
    one after another over the time until the next phrase that lights something (or the beat's
    end; the whole path then stays lit for the last fifth of it), and none lit by the beat's end
    (the takeaway's too: the clip's last picture, its poster, is the plain one).

    >>> tm = PlanTimings()
    >>> cues = light_cues([0.0, 4.0, 9.0], [[("a",), ("b", "c")], [], [("d",)]], 12.0, tm, 0)
    >>> [(c.start, c.ids) for c in cues]
    [(0.0, ('a',)), (3.6, ('a', 'b', 'c')), (9.0, ('d',)), (11.7, ())]
    """
    at = [(t, lv) for t, lv in zip(starts, lights) if lv]
    out: list[Cue] = []
    for j, (t, levels) in enumerate(at):
        until = at[j + 1][0] if j + 1 < len(at) else end
        gap = max(tm.caption_fade, 0.8 * (until - t) / len(levels))
        ids: tuple[str, ...] = ()
        for k, level in enumerate(levels):
            ids += level
            when = _t(t + k * gap)
            if when < until or k == 0:
                out.append(Cue(when, tm.caption_fade, "light", beat, ids))
    if out:  # out by the end, not from it: a takeaway's end is the clip's, whose last frames are its poster
        out.append(Cue(_t(max(end - tm.caption_fade, out[-1].start)), tm.caption_fade, "light", beat))
    return out


def emphasis_lit(lights: list[Levels], cues: Sequence[Cue], glows: frozenset[str]) -> list[Levels]:
    """``lights`` with the beat's ``emphasis:`` cards lit by its first phrase, when that phrase
    lights nothing itself. Why: an emphasis pulses once as the beat starts, a flash of 0.3 s that
    a viewer reading the caption misses; lit, the card stays marked until a later phrase lights
    something else, or the beat ends. A card the beat itself draws is left out: it is not there
    to light yet, and it comes in as its phrase names it. Nor in a walk: its own glow marks the
    node it visits (``glows``: the cue kinds that move it), and a second card held in the same
    glow would read as visited too."""
    if any(c.kind in glows for c in cues):
        return lights
    drawn = {i for c in cues if c.kind == "node_appear" for i in c.ids}
    ids = tuple(dict.fromkeys(i for c in cues if c.kind == "emphasis" for i in c.ids if i not in drawn))
    if not ids or not lights or lights[0]:
        return lights
    return [[ids], *lights[1:]]
