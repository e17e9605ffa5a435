"""Visual tests build Manim Text, which writes SVG files under config.media_dir; point it at a
private temporary folder so tests never race other runs over ./media/texts."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # graph_fixtures, whatever the import mode


@pytest.fixture(autouse=True, scope="session")
def _private_media_dir():
    try:
        from manim import config
    except ImportError:  # layout tests do not need Manim
        yield
        return
    old = config.media_dir
    with tempfile.TemporaryDirectory(prefix="gradreel-visuals-") as tmp:
        config.media_dir = tmp
        yield
    config.media_dir = old
