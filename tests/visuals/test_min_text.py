"""The least text size: the theme derives it from the 9 px minimum, texts built at it measure at
least that, tags and unit names never shrink under it, and a card comes in without growing its
texts from a point (docs/inspect.md, "Text too small to read")."""

from __future__ import annotations

import pytest

pytest.importorskip("manim")

from manim import Text  # noqa: E402

from scenes.draw.collisions import SHORT_SIDE, glyph_height  # noqa: E402
from scenes.draw.grow_in import GrowIn  # noqa: E402
from scenes.draw.record import opacity  # noqa: E402
from scenes.draw.refill import refill  # noqa: E402
from scenes.draw.visuals import bucket, card_tag, label, node_card  # noqa: E402
from scenes.draw.visuals.network import unit_circle  # noqa: E402
from scenes.layout.place import Box  # noqa: E402
from scenes.theme import default_theme  # noqa: E402

THEME = default_theme()
F = THEME.font_sizes
PX = SHORT_SIDE / THEME.aspect("16:9").frame_height  # pixels per scene unit at 854x480


def _px(m: Text) -> float:
    """``m``'s glyph height in pixels at 854x480, measured as the frame check measures it."""
    return glyph_height({"bbox": [0.0, 0.0, m.width * PX, m.height * PX], "text": m.text})


@pytest.mark.parametrize("text", ["0", "1", "4", "7", "1/3", "-4/3", "w1", "mul", "** 2", "MulBackward0", "AccumulateGrad"])
@pytest.mark.parametrize("font", ["sans", "mono"])
def test_a_text_at_the_least_size_is_at_least_the_minimum(text: str, font: str) -> None:
    assert _px(label(text, getattr(THEME.fonts, font), F.min_readable, "#ffffff")) >= F.min_glyph_px


def test_the_least_size_follows_the_minimum() -> None:
    assert F.min_readable == pytest.approx(F.min_glyph_px / F.glyph_cap)


def test_a_tag_too_wide_for_its_card_reaches_past_it_rather_than_shrink() -> None:
    narrow = Box("bucket:t0", "bucket", 0.0, 0.0, 0.4, 0.3)
    tag = card_tag("AccumulateGrad", narrow, THEME, scale=0.3)
    text = tag.submobjects[1]  # the text over its halo
    assert _px(text) >= F.min_glyph_px
    assert text.width > narrow.w


def test_a_long_unit_name_in_a_small_circle_stays_readable() -> None:
    """A unit's name is a name: 11 px at 854x480, as a card's (issue 39), not the 9 px floor."""
    unit = unit_circle("h1_0", (0.0, 0.0), 0.2, "result", THEME)
    assert _px(unit.text) >= 11


def test_a_card_comes_in_with_its_texts_at_their_own_size() -> None:
    box = Box("t4", "op", 0.0, 0.0, THEME.sizes.card_width, THEME.sizes.card_height)
    card = node_card(box, THEME, name="z", value="1/3", grad_fn="MulBackward0", scale=1.0)
    anim = GrowIn(card)
    anim.begin()
    texts = [m for m in card.submobjects if isinstance(m, Text)]
    assert texts, "the card has texts"
    start = [m for m in anim.starting_mobject.submobjects if isinstance(m, Text)]
    for before, after in zip(start, texts):
        assert before.height == pytest.approx(after.height)  # not grown from a point
        assert before.get_fill_opacity() == pytest.approx(0.0)  # faded in instead
    frame = anim.starting_mobject.submobjects[0]
    assert frame.width == pytest.approx(0.0, abs=1e-9)  # the card's frame grows from its centre
    anim.interpolate(1.0)
    assert card.submobjects[0].width == pytest.approx(box.w, rel=1e-3)


@pytest.mark.parametrize("grad_fn", ["MulBackward0", "PowBackward0", "ReluBackward0", "SubBackward0"])
def test_a_growing_card_holds_the_texts_it_shows(grad_fn: str) -> None:
    """While a card grows, a text drawn in it shows (opacity above nothing) only once the growing
    frame holds it: ``MulBackward0`` at its own size ran past z's half-grown border (REVIEW7 10)."""
    box = Box("t4", "op", 0.0, 0.0, THEME.sizes.card_width, THEME.sizes.card_height)
    card = node_card(box, THEME, name="z", value="1/3", grad_fn=grad_fn, scale=1.0)
    anim = GrowIn(card)
    anim.begin()
    frame = card.submobjects[0]
    for k in range(1, 40):
        anim.interpolate(k / 40)
        for m in card.submobjects:
            if isinstance(m, Text) and opacity(m) > 0.0 and frame.width > 0:
                assert m.width <= frame.width + 1e-6, (k, m.text, m.width, frame.width)


def test_a_bucket_s_value_is_replaced_not_morphed() -> None:
    """``None`` becomes ``-1``: the first fades out at its size, then the second fades in at its
    own; the liquid rises meanwhile. No frame shows a glyph between the two."""
    box = Box("bucket:t0", "bucket", 0.0, 0.0, THEME.sizes.bucket_width, THEME.sizes.bucket_height)
    old = bucket(box, THEME, level=0.0, value="None")
    new = bucket(box, THEME, level=1.0, value="-1")
    was, will = old.value.height, new.value.height
    going = old.value
    anim = refill(old, new)
    anim.begin()
    anim.interpolate(0.25)
    assert going.height == pytest.approx(was) and opacity(going) > 0.1
    assert opacity(old.value) == pytest.approx(0.0)
    anim.interpolate(0.75)
    assert opacity(going) == pytest.approx(0.0)
    assert old.value.height == pytest.approx(will) and opacity(old.value) > 0.1
    anim.interpolate(1.0)
    assert old.fill.height == pytest.approx(new.fill.height)  # the level rose
