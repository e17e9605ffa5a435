"""The JSON Schema of a storyboard, generated from the pydantic model (``render schema``).

Why generated: the file in scenes/schema/ is what editors (yaml-language-server) use to complete
and check storyboards; ``model_json_schema()`` of the same models that check a file keeps the two
equal. Pydantic's output is kept as it is but for the header (``$schema``, ``$id``, the title)
and the per-field titles it derives from field names ("Forward Mode"), which would only repeat
the key above each description. A test compares the committed file with this output.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic.json_schema import GenerateJsonSchema

from .model import Storyboard

SCHEMA_ID = "https://gradreel.invalid/schema/storyboard.schema.json"


class _WithoutFieldTitles(GenerateJsonSchema):
    """Pydantic's generator (draft 2020-12), without a title for each field."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def schema() -> dict[str, Any]:
    """The schema as data (draft 2020-12)."""
    body = Storyboard.model_json_schema(schema_generator=_WithoutFieldTitles)
    defs = body.pop("$defs")
    body.pop("title")
    return {"$schema": GenerateJsonSchema.schema_dialect, "$id": SCHEMA_ID,
            "title": "gradreel storyboard", **body, "$defs": defs}


def schema_text() -> str:
    """The schema as the committed file holds it: indented JSON with a final newline."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"
