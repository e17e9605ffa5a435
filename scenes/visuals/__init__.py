"""Manim mobject builders for gradreel, one family per module; each takes the Theme.

Why builders and not a scene: the generic scene (and tests) compose these; keeping each family
small and theme-driven means a colour or size change is a YAML edit, never a code edit.
"""

from scenes.visuals.bucket import bucket, bucket_fill
from scenes.visuals.caption import caption_bar, wrap_words
from scenes.visuals.cards import node_card
from scenes.visuals.code_pane import CodePane
from scenes.visuals.edges import edge_arrow, route_path, token_ride
from scenes.visuals.glyphs import label, text_width
from scenes.visuals.token import grad_token
from scenes.visuals.wavefront import wavefront

__all__ = [
    "CodePane",
    "bucket",
    "bucket_fill",
    "caption_bar",
    "edge_arrow",
    "grad_token",
    "label",
    "node_card",
    "route_path",
    "text_width",
    "token_ride",
    "wavefront",
    "wrap_words",
]
