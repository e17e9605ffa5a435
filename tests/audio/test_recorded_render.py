"""`voice: recorded` through the command line: a storyboard whose recordings are missing is one
located line per missing recording and exit 2; with them in place (said here by the draft
voice, a stand-in for the author's own), `render plan --speech` times the phrases by them."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from scenes.storyboard import load, plan_of
from scenes.storyboard.recordings import parts_of
from scenes.voice.registry import voice_for

BOARD = """voice: recorded
title: One multiply
numbers: fraction
program: |
  import torch
  w = torch.tensor(2.0, requires_grad=True)
  y = w * 3
  y.backward()
beats:
  - visual: code_and_graph_build
    lines: [2, 3]
    narration: "The multiply makes y, which is {y}."
"""


def _plan(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scenes.commands.main", "plan", "storyboards/one.yaml", *args],
                          cwd=folder, capture_output=True, text=True, timeout=300)


@pytest.mark.xdist_group("voice")
def test_recordings_missing_then_said(tmp_path: Path) -> None:
    (tmp_path / "storyboards").mkdir()
    board = tmp_path / "storyboards" / "one.yaml"
    board.write_text(BOARD)
    missing = _plan(tmp_path, "--speech")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr, missing.stderr
    lines = missing.stderr.strip().splitlines()
    assert len(lines) == 2 and all("one.voice/" in ln and "has no recording" in ln for ln in lines), lines

    draft = voice_for("draft", tmp_path)
    assert draft is not None
    recordings = tmp_path / "storyboards" / "one.voice"
    recordings.mkdir()
    for part in parts_of(plan_of(load(str(board)))):
        said = draft.speech(part.text)
        pcm = np.concatenate([np.zeros(said.rate // 2), said.samples])  # the author starts after a breath
        with wave.open(str(recordings / f"{part.name}.wav"), "wb") as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(said.rate)
            w.writeframes((np.clip(pcm, -1, 1) * 32767).astype("<i2").tobytes())
    told = _plan(tmp_path, "--speech")
    assert told.returncode == 0, told.stderr
    assert "which@" in told.stdout and "6.@" in told.stdout  # each word timed, the number too
