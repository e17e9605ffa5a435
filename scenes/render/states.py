"""What the scene looks like at the start of a beat, remembered between renders.

Why: to draw beat k alone, the scene must hold the picture beat k starts from. That picture is a
pure function of the clip's fixed part (code, layout, theme, options, event log) and the steps of
beats 0..k-1, so it is stored under a hash of exactly those (the *prefix*):

* ``PREFIX.digest``: the picture's ``state_digest``, which a segment key needs (a few bytes);
* ``PREFIX.state``: the scene's records (``scene.state``, :mod:`scenes.draw.state`) with the
  mobjects on screen and the ledger, pickled in one piece (about a megabyte; a mobject in a record
  is the one on screen), written at the start of every beat that was drawn.

An edit in the last beat leaves every earlier prefix unchanged: the render reads the digests,
finds the earlier segments in the cache, loads the last beat's starting state and draws that beat
alone, without applying any earlier step. Files sit in ``OUT/.segments/`` beside the segments,
are written beside their target and renamed into place, and are trimmed with them. They are
read only by this program, from the folder it writes.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

from scenes.atomic import write_atomic

SNAPSHOT_ATTRIBUTES = ("state", "mobjects", "foreground_mobjects", "ledger")
"""What a snapshot holds of a scene: its records, what is drawn, and what was said."""


class BeatStates:
    """The digests and pickled scene states under ``folder``, by prefix hash."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, prefix: str, suffix: str) -> Path:
        return self.folder / f"{prefix}.{suffix}"

    def digest(self, prefix: str) -> str | None:
        """The stored digest, marked as recently used (the cache is trimmed oldest first)."""
        p = self._path(prefix, "digest")
        try:
            text = p.read_text().strip()
            os.utime(p)
        except OSError:
            return None
        return text or None

    def put_digest(self, prefix: str, digest: str) -> None:
        if self.digest(prefix) != digest:
            self._write(self._path(prefix, "digest"), digest.encode())

    def has_state(self, prefix: str) -> bool:
        return self._path(prefix, "state").exists()

    def save_state(self, prefix: str, scene: Any) -> None:
        """Pickle what the scene shows and knows, once per prefix."""
        p = self._path(prefix, "state")
        if p.exists():
            os.utime(p)
            return
        state = {n: getattr(scene, n) for n in SNAPSHOT_ATTRIBUTES}
        self._write(p, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

    def load_state(self, prefix: str, scene: Any) -> bool:
        """Put a stored state into ``scene`` (made from the same plan); False when there is none
        or it cannot be read or is not a snapshot of such a scene (it is then simply rebuilt)."""
        p = self._path(prefix, "state")
        try:
            state = pickle.loads(p.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return False
        if not isinstance(state, dict) or set(state) != set(SNAPSHOT_ATTRIBUTES) \
                or type(state["state"]) is not type(scene.state):
            return False
        for name, value in state.items():
            setattr(scene, name, value)
        os.utime(p)
        return True

    def _write(self, target: Path, data: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
