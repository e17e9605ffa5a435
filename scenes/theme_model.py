"""The theme's typed model: one frozen dataclass per section of scenes/theme.yaml.

Why apart from the loader (scenes/theme.py): this is what code reads (``theme.font_sizes.card_value``),
and the file a newcomer opens to see which visual constants exist; the loader checks a YAML file
against it. No Manim and no YAML here, so the pure layout can use it too.
"""

from __future__ import annotations

from dataclasses import dataclass

Rect = tuple[float, float, float, float]  # left, bottom, right, top


KIND_MEANING: dict[str, str] = {
    "leaf_grad": "weight", "leaf_nograd": "input", "op": "result", "internal": "result", "loss": "loss",
    "bucket": "gradient",
}
"""A graph item's kind (scenes/layout/graph.py) -> the meaning of ``Theme.meanings`` it is drawn
in: an internal node is an intermediate result too, and a bucket holds a gradient."""

MEANINGS: tuple[str, ...] = ("loss", "weight", "input", "result", "gradient", "forward_mode", "now", "forward",
                             "skipped", "error")
"""The meanings the drawers ask a colour for (``Theme.colour``): a theme must declare each."""


class ThemeError(ValueError):
    """A bad value in the theme file; the message names the file and the dotted key."""


@dataclass(frozen=True)
class Colors:
    background: str
    text: str
    text_muted: str
    leaf_grad: str
    leaf_nograd: str
    op: str
    loss: str
    bucket: str
    bucket_fill: str
    grad: str
    wavefront: str
    tangent: str
    error: str
    dimmed: str
    edge: str
    card_fill: str
    code_bg: str
    code_text: str
    code_highlight: str
    code_span: str
    caption_bg: str
    caption_text: str


@dataclass(frozen=True)
class Opacity:
    card_fill: float
    code_bg: float
    caption_bg: float
    title_cover: float
    dimmed: float
    kept: float
    skipped_lit: float
    wavefront_glow: float


@dataclass(frozen=True)
class Fonts:
    sans: str
    mono: str


@dataclass(frozen=True)
class FontSizes:
    card_name: float
    card_value: float
    card_fn: float
    card_flag: float
    bucket_label: float
    token: float
    code: float
    code_min: float
    code_wrap: float
    caption: float
    title: float
    unit_name: float
    counter: float
    counter_least: float  # the tallies' words shrink to a narrow column no further (its width grows)
    unit_name_least: float  # a unit's name is never smaller (its circle grows to hold it)
    tally: float  # the MLP view's pass counts
    code_pass: float
    curve_label: float
    note: float
    bucket_sum: float  # a bucket's sums, at its value's size
    min_glyph_px: float
    min_glyph_main_px: float
    glyph_cap: float

    @property
    def min_readable(self) -> float:
        """The least font size any text is drawn at: the one whose digits are `min_glyph_px`
        high at 854x480 (`glyph_cap` pixels per size unit). Smaller, a label is dropped."""
        return self.min_glyph_px / self.glyph_cap

    @property
    def min_readable_main(self) -> float:
        """The least font size a value or a name is drawn at: its digits `min_glyph_main_px`
        high at 854x480. Compact cards (where they fit) and bucket values are sized for it."""
        return self.min_glyph_main_px / self.glyph_cap


@dataclass(frozen=True)
class Strokes:
    card: float
    edge: float
    edge_backward: float
    bucket: float
    wavefront: float
    code_bar: float
    link: float
    curve_axis: float
    curve_line: float
    tag_halo: float


@dataclass(frozen=True)
class Radii:
    card: float
    bucket: float
    code: float
    caption: float
    token: float


@dataclass(frozen=True)
class Sizes:
    card_width: float
    card_height: float
    internal_width: float
    internal_height: float
    bucket_width: float
    bucket_height: float
    bucket_gap: float
    dummy_width: float
    arrow_tip: float
    token_pad: float
    wavefront_pad: float
    card_pad: float
    code_pad: float
    console_reserve: float
    code_lit: float
    code_line_spacing: float
    caption_line_spacing: float
    caption_pad: float
    unit_radius: float  # a unit of the MLP view, at most (it shrinks to fit its layer)
    curve_dot: float
    curve_pad: float
    badge_width: float  # where a visit's gradient badge goes is chosen as if it were this wide


@dataclass(frozen=True)
class Spacing:
    layer_gap_min: float
    layer_gap_max: float
    item_gap: float
    edge_clearance: float


@dataclass(frozen=True)
class Proportions:
    card_name_row: float
    card_value_row: float
    card_sub_row: float
    label_fill: float
    name_value_gap: float  # the least gap either side of a card's "=", as a share of the name's gap to its value
    unit_main: float
    unit_cross: float
    unit_label: float
    unit_ring: float
    tally_side: float  # MLP view: the pass tallies' column in a wide region, this much of its width
    min_stroke_scale: float
    min_token_scale: float
    bucket_inner_width: float
    bucket_inner_height: float
    bucket_taper: float
    bucket_label_width: float
    bucket_label_height: float
    arrow_tip_half_width: float
    port_spread: float
    caption_shrink_step: float
    title_height: float
    tag_slide_step: float
    tag_gap: float  # a tag's halo keeps this much of its height off its card's border (`tag_room.tag_gap`)
    ring_tag_gap: float  # ... and this much off the ink of its card's ring (`tag_room.op_tag_gap`)
    tag_apart: float
    token_wait_min: float
    ride_grid: float
    ride_apart: float


@dataclass(frozen=True)
class Timings:
    node_appear: float
    edge_grow: float
    grad_travel: float
    bucket_fill: float
    wavefront_step: float
    caption_fade: float
    code_highlight_move: float
    sweep_step: float  # one unit or weight reached by the reverse sweep over the MLP view
    focus_move: float  # the camera moving to a beat's focus: cards and back
    camera_move: float  # the walk's camera moving in on a visit, on to the next, or out for the whole: at most
    camera_least: float  # and at least (it moves only in a pause the plan has)
    camera_hold: float  # a close view held less than this: not gone in to before the way out, no closer before the next: no pump
    phrase_gap: float  # silence after a spoken phrase (scenes/storyboard/phrases.py)
    highlight_hold: float  # the walk's glow on a node, at least
    rule_hold: float  # a visit's rule and products on screen, at least
    graph_freed: float  # a freed graph seen freed before a pass records it again in its place


@dataclass(frozen=True)
class Reading:
    """How long a caption event may hold and how much it may say (scenes/storyboard/reading.py)."""

    chars_per_second: float
    line_chars: int
    lines: int
    min_seconds: float
    max_seconds: float
    min_words: int


@dataclass(frozen=True)
class Labels:
    """Fixed words: beside the MLP view's pass counters (the numbers come from the log), and the
    legend that says what each colour of the graph means."""

    reverse_count: str
    forward_count: str
    pass_mark: str  # with {count} and {total}
    branch_mark: str  # with {taken}
    curve_passes: str
    legend_weight: str
    layer_input: str
    layer_hidden: str
    layer_output: str
    reached: str
    op_symbols: dict[str, str]
    legend_input: str
    legend_result: str
    legend_loss: str  # the legend's words for the red: its meaning, the loss (not "where backward() starts")
    legend_grad: str
    console_earlier: str  # with {n}: how many printed lines scrolled out of the console
    console_earlier_one: str  # the same when one line did
    name_value: str  # between a card's name and its value on one row, on every card (one form)


@dataclass(frozen=True)
class Pronounce:
    """How a voice says code (scenes/voice/spoken.py): a whole name or snippet -> words, and an
    operator -> words (a symbol not listed, such as a bracket, is not said)."""

    code: dict[str, str]
    symbols: dict[str, str]
    pace: float  # a piper voice's length_scale: 1 is the model's own pace, more is slower
    sentence_pause: float  # seconds of silence at least between two sentences a voice (neural, draft) says in one phrase


@dataclass(frozen=True)
class LayoutRules:
    leaf_layer: str
    sweeps: int
    max_scale: float
    detail_full: float
    detail_name: float
    compact_min: float
    compact_main_min: float
    name_over: float
    value_chars: int
    glyph_advance_sans: float
    glyph_advance_mono: float
    glyph_advance_words: float  # a prose character's width, on average (a checklist's items: clip.checklist_room)
    glyph_height: float
    focus_zoom: float
    camera_zoom: float  # the walk's camera (scenes/layout/camera.py): at most this much larger
    camera_text_px: float  # it moves in where the whole graph's values are under this many px at 480p
    camera_share: float  # or where the graph's box takes under this share of the walk's free frame
    code_first_zoom: float  # the code pane alone before the first picture: centred, at most this much larger
    whole_zoom: float  # the whole graph, built, grown as the pane steps aside (scenes/layout/whole.py): cards at most this much larger
    whole_stretch: float  # ... its cards' centres spread apart at most this much further along an axis
    safe_edge: float
    fill_graph: float
    fill_empty: float
    fill_empty_seconds: float


@dataclass(frozen=True)
class Aspect:
    pixel_width: int
    pixel_height: int
    frame_width: float
    frame_height: float
    flow: str
    margin: float
    code: Rect
    graph: Rect
    caption: Rect
    checklist: str  # "corner": a storyboard's checklist goes to a free corner; "aside": room is kept for it
    walk_code: str  # "all": the code pane stays whole in the backward walk; "lit": it shows the lit line only
    walk_camera: str  # "visits": the walk's camera moves in on each visit where the graph is dense; "home": it stays
    whole_graph: str  # "grow": the whole graph, once built, grows as the pane steps aside (scenes/render/whole_plan.py); "home": it stays


@dataclass(frozen=True)
class Theme:
    colors: Colors
    opacity: Opacity
    fonts: Fonts
    font_sizes: FontSizes
    strokes: Strokes
    radii: Radii
    sizes: Sizes
    spacing: Spacing
    proportions: Proportions
    timings: Timings
    reading: Reading
    layout: LayoutRules
    labels: Labels
    pronounce: Pronounce
    meanings: dict[str, str]  # meaning -> the `colors` keys (space-separated) that show it
    aspects: dict[str, Aspect]

    def colour(self, meaning: str) -> str:
        """The colour that shows ``meaning`` (the first of its ``meanings`` keys): draw code takes
        a colour by what it means, so one meaning is one colour across the series.

        A meaning the theme does not declare is a coding error, said with the meanings there are."""
        try:
            key = self.meanings[meaning].split()[0]
        except KeyError:
            raise ThemeError(f"unknown meaning {meaning!r}; the theme has {sorted(self.meanings)}") from None
        return str(getattr(self.colors, key))

    def safe_rect(self, spec: Aspect) -> Rect:
        """The frame of ``spec`` inside its margin, kept clear of the frame's edge by
        ``layout.safe_edge`` of its width (left, right) and of its height (top, bottom) at least:
        where anything drawn stays."""
        mx = max(spec.margin, self.layout.safe_edge * spec.frame_width)
        my = max(spec.margin, self.layout.safe_edge * spec.frame_height)
        return (-spec.frame_width / 2 + mx, -spec.frame_height / 2 + my, spec.frame_width / 2 - mx, spec.frame_height / 2 - my)

    def aspect(self, name: str) -> Aspect:
        """The frame spec for "16:9", "9:16" or "1:1"; a clear error for anything else."""
        try:
            return self.aspects[name]
        except KeyError:
            raise ThemeError(f"unknown aspect {name!r}; the theme has {sorted(self.aspects)}") from None
