"""The JSON Schema of a storyboard, generated from the model (``render schema``).

Why generated: the file in scenes/schema/ is what editors (yaml-language-server) use to complete
and check storyboards; generating it from the same type hints as the checker keeps the two equal.
A test compares the committed file with this output.
"""

from __future__ import annotations

import json
from typing import Any

from .model import Storyboard
from .typed import schema_of

SCHEMA_ID = "https://gradreel.invalid/schema/storyboard.schema.json"


def schema() -> dict[str, Any]:
    """The schema as data (draft 2020-12)."""
    defs: dict[str, Any] = {}
    root = schema_of(Storyboard, defs)
    name = root["$ref"].rsplit("/", 1)[1]
    body = defs.pop(name)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "gradreel storyboard", **body, "$defs": defs}


def schema_text() -> str:
    """The schema as the committed file holds it: indented JSON with a final newline."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"
