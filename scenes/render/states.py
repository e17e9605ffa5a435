"""What the scene looks like at the start of a beat, remembered between renders.

Why: to draw beat k alone, the scene must hold the picture beat k starts from. That picture is a
pure function of the clip's fixed part (code, layout, theme, options, event log) and the steps of
beats 0..k-1, so it is stored under a hash of exactly those (the *prefix*):

* ``PREFIX.digest``: the picture's ``state_digest``, which a segment key needs (a few bytes);
* ``PREFIX.state``: the scene's records (``scene.state``, :mod:`scenes.draw.state`) with the
  mobjects on screen and the ledger, in one piece (a few megabytes; a mobject in a record is the
  one on screen), written at the start of every beat that was drawn.

A state is data (:mod:`scenes.draw.datafile`: JSON and arrays, never pickle), since an out/ folder
may be shared, copied or downloaded: reading one back builds only the scene's own classes, runs
none of their code, and is checked before it is used (its shape, then its digest against the
stored one). A state that fails is treated as missing, with one line saying so, and the beat's
start is rebuilt from the earlier steps.

An edit in the last beat leaves every earlier prefix unchanged: the render reads the digests,
finds the earlier segments in the cache, loads the last beat's starting state and draws that beat
alone, without applying any earlier step. Files sit in ``OUT/.segments/`` beside the segments,
are written beside their target and renamed into place, and are trimmed with them.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Callable

from scenes.atomic import read_regular, write_atomic
from scenes.draw import datafile

SNAPSHOT_ATTRIBUTES = ("state", "mobjects", "foreground_mobjects", "ledger")
"""What a snapshot holds of a scene: its records, what is drawn, and what was said."""


MAX_STATE_BYTES = 256 << 20
"""A state file larger than this is not one this program wrote (they are a few megabytes)."""
_DIGEST = re.compile(r"[0-9a-f]{16,128}")


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class BeatStates:
    """The digests and scene states under ``folder``, by prefix hash; ``log`` hears of a state
    that could not be used."""

    def __init__(self, folder: Path, log: Callable[[str], None] = _say) -> None:
        self.folder = folder
        self.log = log

    def _path(self, prefix: str, suffix: str) -> Path:
        return self.folder / f"{prefix}.{suffix}"

    def digest(self, prefix: str) -> str | None:
        """The stored digest, marked as recently used (the cache is trimmed oldest first)."""
        p = self._path(prefix, "digest")
        try:
            raw = read_regular(p, 256)
            os.utime(p)
        except OSError:
            return None
        text = raw.decode("ascii", "replace").strip()
        return text if _DIGEST.fullmatch(text) else None

    def put_digest(self, prefix: str, digest: str) -> None:
        if self.digest(prefix) != digest:
            self._write(self._path(prefix, "digest"), digest.encode())

    def has_state(self, prefix: str) -> bool:
        return self._path(prefix, "state").exists()

    def save_state(self, prefix: str, scene: Any) -> None:
        """Store what the scene shows and knows, once per prefix."""
        p = self._path(prefix, "state")
        if p.is_file():
            os.utime(p)
            return
        state = {n: getattr(scene, n) for n in SNAPSHOT_ATTRIBUTES}
        self._write(p, datafile.dumps(state, _allowed(scene)))

    def load_state(self, prefix: str, scene: Any, digest: Callable[[Any], str] | None = None) -> bool:
        """Put a stored state into ``scene`` (made from the same plan); False when there is none,
        or it cannot be read, is not a snapshot of such a scene, or (given ``digest``, the
        picture's digest of a scene) does not show the picture the stored digest names: the
        scene is then left as it was, the state deleted, and the beat's start rebuilt."""
        p = self._path(prefix, "state")
        if not p.exists():
            return False
        try:
            state = datafile.loads(read_regular(p, MAX_STATE_BYTES), _allowed(scene))
            _check_shape(state, scene)
        except (OSError, datafile.DataFileError) as exc:
            return self._unusable(p, f"{exc}")
        before = {n: getattr(scene, n) for n in SNAPSHOT_ATTRIBUTES}
        for name, value in state.items():
            setattr(scene, name, value)
        if digest is not None and digest(scene) != self.digest(prefix):
            for name, value in before.items():
                setattr(scene, name, value)
            return self._unusable(p, "it does not show the picture its digest names")
        os.utime(p)
        return True

    def _unusable(self, p: Path, why: str) -> bool:
        self.log(f"{p}: stored beat state not used ({why}); the beat's start is drawn again")
        try:
            p.unlink()
        except OSError:
            pass
        return False

    def _write(self, target: Path, data: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)


def _allowed(scene: Any) -> Callable[[type], bool]:
    """The classes a state may hold: Manim's and this program's, and the record types of the
    scene's state (a test may extend one)."""
    ours = datafile.under("manim", "scenes")
    records = tuple({type(scene.state), *(type(v) for v in vars(scene.state).values())})
    return lambda cls: ours(cls) or issubclass(cls, records)


def _check_shape(state: Any, scene: Any) -> None:
    """A snapshot of such a scene: the snapshot's keys, the scene's record type, mobject lists
    and a ledger of (text, seq) pairs."""
    from manim import Mobject

    ok = (isinstance(state, dict) and set(state) == set(SNAPSHOT_ATTRIBUTES)
          and type(state["state"]) is type(scene.state)
          and all(isinstance(state[k], list) and all(isinstance(m, Mobject) for m in state[k])
                  for k in ("mobjects", "foreground_mobjects"))
          and isinstance(state["ledger"], list)
          and all(isinstance(e, (list, tuple)) and len(e) == 2 and isinstance(e[0], str)
                  and (e[1] is None or type(e[1]) is int) for e in state["ledger"]))
    if not ok:
        raise datafile.DataFileError("not a snapshot of this scene")
