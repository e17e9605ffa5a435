#!/usr/bin/env python3
"""Developer preview (not part of the product): still frames of the seed graph with cards,
buckets, code pane and caption, in every aspect, written to /tmp/preview/*.png.

Why: overlap, clipping and legibility are only visible in pixels; this renders one frame per
aspect at 480p (and the 109-node MLP at 1080p) so a developer can look at a layout or visual
change without playing a clip.

    python scripts/dev_preview.py [--quality l|h] [--only seed|mlp]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "visuals")]

from manim import Scene, tempconfig  # noqa: E402

from graph_fixtures import SEED_SOURCE, mlp_events, seed_events  # noqa: E402
from engine.records import Event, Tensor as TensorEvent  # noqa: E402
from scenes.layout.place import Layout, layout_events  # noqa: E402
from scenes.theme import Theme, default_theme  # noqa: E402
from scenes.draw.visuals import CodePane, bucket, caption_bar, edge_arrow, grad_token, node_card, route_path, wavefront  # noqa: E402

OUT = Path("/tmp/preview")
PIXELS = {"l": 480, "h": 1080}


def value_text(ev: TensorEvent) -> str:
    """What a card shows: the exact fraction when there is one, else 4 decimals."""
    return ev.exact if ev.exact else f"{ev.value:.4f}"


def build(scene: Scene, events: list[Event], lay: Layout, theme: Theme, aspect: str, backward: bool, code: bool) -> None:
    """Compose one still: edges, cards, buckets, code pane with a bar, caption, a token."""
    spec = theme.aspect(aspect)
    tensors = {e.id: e for e in events if isinstance(e, TensorEvent)}
    for r in lay.routes:
        scene.add(edge_arrow(r, theme, backward=backward, scale=lay.scale, dimmed=backward and not r.needs_grad))
    if backward:
        scene.add(wavefront([lay.boxes[lay.layers[-3][-1]]], theme, scale=lay.scale))
    for box in lay.boxes.values():
        if box.kind == "bucket":
            leaf = lay.items[box.id].tensor
            grads = {"t1": (1.0, "8/3"), "t2": (0.42, "4/9")}
            level, val = grads.get(leaf, (0.6, "0.12")) if backward else (0.0, None)
            scene.add(bucket(box, theme, level=level, value=val, scale=lay.scale))
            continue
        t = tensors.get(box.id)
        scene.add(node_card(box, theme, name=t.name if t else None, value=value_text(t) if t else None,
                            grad_fn=(t.grad_fn if t else None) or lay.items[box.id].grad_fn,
                            requires_grad=bool(t and t.requires_grad), detail=lay.detail, scale=lay.scale))
    if backward:
        r = next(r for r in lay.routes if r.needs_grad and r.src.startswith("t") and lay.items[r.src].kind == "op")
        tok = grad_token("8/3", theme, scale=lay.scale)
        scene.add(tok.move_to(route_path(r, backward=True).point_from_proportion(0.5)))
    if code:
        pane = CodePane(SEED_SOURCE, spec.code, theme)
        pane.highlight(9, (6, 12)) if backward else pane.highlight(6)
        scene.add(pane)
    text = ("Mul: w2 gets 4/3 x s = 4/9, and s gets 4/3 x w2 = 8/3. The path to y is skipped."
            if backward else "Typing the forward pass builds the graph, one node per line: the loss is 4/9.")
    scene.add(caption_bar(text, spec.caption, theme))


def render(name: str, events: list[Event], aspect: str, quality: str, backward: bool, code: bool = True) -> Path:
    theme = default_theme()
    spec = theme.aspect(aspect)
    region = spec.graph
    if not code:  # no code pane: the graph may use the frame above the caption
        m = spec.margin
        region = (-spec.frame_width / 2 + m, spec.caption[3] + m, spec.frame_width / 2 - m, spec.frame_height / 2 - m)
    lay = layout_events(events, aspect, theme, region)
    short = PIXELS[quality]
    k = short / min(spec.pixel_width, spec.pixel_height)
    cfg = {
        "pixel_width": round(spec.pixel_width * k), "pixel_height": round(spec.pixel_height * k),
        "frame_width": spec.frame_width, "frame_height": spec.frame_height,
        "background_color": theme.colors.background, "save_last_frame": True, "write_to_movie": False,
        "media_dir": str(OUT / "media"), "verbosity": "WARNING", "disable_caching": True,
        "output_file": name,
    }

    class Preview(Scene):
        def construct(self) -> None:
            build(self, events, lay, theme, aspect, backward, code)

    with tempconfig(cfg):
        scene = Preview()
        scene.render()
        png = Path(scene.renderer.file_writer.image_file_path)
    dest = OUT / f"{name}.png"
    shutil.copyfile(png, dest)
    print(f"{dest}  scale={lay.scale:.2f} detail={lay.detail} boxes={len(lay.boxes)}")
    return dest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quality", choices=sorted(PIXELS), default="l")
    ap.add_argument("--only", choices=("seed", "mlp"))
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for aspect in ("16:9", "9:16", "1:1"):
        tag = aspect.replace(":", "x")
        if args.only in (None, "seed"):
            ev = seed_events()
            render(f"seed_fwd_{tag}", ev, aspect, args.quality, backward=False)
            render(f"seed_bwd_{tag}", ev, aspect, args.quality, backward=True)
        if args.only in (None, "mlp"):
            render(f"mlp_{tag}", mlp_events(), aspect, "h", backward=True, code=False)


if __name__ == "__main__":
    main()
