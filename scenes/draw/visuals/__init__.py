"""Manim mobject builders for gradreel, one family per module; each takes the Theme.

Why builders and not a scene: the generic scene (and tests) compose these; keeping each family
small and theme-driven means a colour or size change is a YAML edit, never a code edit.
"""

from scenes.draw.visuals.bucket import bucket, bucket_fill
from scenes.draw.visuals.caption import balanced_wrap, caption_bar, wrap_words
from scenes.draw.visuals.cards import card_tag, node_card
from scenes.draw.visuals.code_pane import CodePane, pass_mark, soft_wrap
from scenes.draw.visuals.edges import arrow_length, arrow_reach, edge_arrow, route_path, token_rests, token_ride
from scenes.draw.visuals.glyphs import label, text_width
from scenes.draw.visuals.legend import legend
from scenes.draw.visuals.note import formula, note_block
from scenes.draw.visuals.token import grad_token, nominal_token_size
from scenes.draw.visuals.wavefront import wavefront

__all__ = [
    "CodePane",
    "soft_wrap",
    "arrow_length",
    "arrow_reach",
    "balanced_wrap",
    "bucket",
    "bucket_fill",
    "caption_bar",
    "card_tag",
    "edge_arrow",
    "grad_token",
    "formula",
    "label",
    "legend",
    "node_card",
    "nominal_token_size",
    "note_block",
    "route_path",
    "text_width",
    "token_rests",
    "token_ride",
    "wavefront",
    "wrap_words",
]
