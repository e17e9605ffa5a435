"""One loaded voice of each kind for the whole session (loading the neural model takes seconds),
each with its own speech cache in a temporary folder."""

from __future__ import annotations

import pytest

from scenes.voice.base import Voice, pronunciation
from scenes.voice.cache import SpeechCache
from scenes.voice.draft import draft
from scenes.voice.neural import joe


@pytest.fixture(scope="session")
def neural(tmp_path_factory: pytest.TempPathFactory) -> Voice:
    return joe(pronunciation(), SpeechCache(tmp_path_factory.mktemp("neural-cache")))


@pytest.fixture(scope="session")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Voice:
    return draft(pronunciation(), SpeechCache(tmp_path_factory.mktemp("draft-cache")))
