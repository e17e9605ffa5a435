"""Playing a ClipScene's steps into frames, or applying them at once without drawing.

Why not ``Scene.play``: a segment of a clip must start from the picture its beat starts with, and
that picture follows from the plan alone. When it is not stored (``scenes.render.states``),
``apply`` reaches it by taking each earlier step straight to its end state (begin, finish, clean
up: no frame is drawn or encoded; Manim's skip mode still draws once per play). ``play`` draws
the frames ``Scene.play`` draws, in the same order, but the shapes below the lowest moving one
and above the highest are drawn once per play instead of once per frame. A held frame is drawn
once and handed to the encoder with a repeat count.

The digests (:mod:`scenes.video.digest`) say what a segment depends on: ``state_digest`` covers
every mobject on screen (points, colours, widths, order) and the scene's records (which cards,
buckets and lines are up), so two starts with equal digests draw equal frames from equal steps.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from manim import Animation, AnimationGroup, Mobject, Transform
from manim.utils.family import extract_mobject_family_members
from manim.utils.iterables import list_update

from scenes.video.timeline import Step, play_seconds
from scenes.video.damage import PixelRect, damage, drawable, shape_box, shapes_box


class FrameSink(Protocol):
    def put(self, rgba: np.ndarray, repeat: int = 1, at: PixelRect | None = None) -> None: ...


def _draw(scene: Any, shapes: list[Mobject], background: np.ndarray | None) -> np.ndarray:
    """Draw ``shapes`` (flat, in drawing order) over ``background`` (or the empty frame)."""
    cam = scene.camera
    if background is not None:
        cam.set_frame_to_background(background)
    else:
        cam.reset()
    cam.capture_mobjects(shapes, include_submobjects=False)
    return cam.pixel_array.copy()


def _everything(scene: Any) -> list[Mobject]:
    """Every shape on screen, flat, in the order Cairo draws them (by z_index, then as added):
    Manim's ``extract_mobject_family_members(..., only_those_with_points=True)``, the same list,
    by one walk instead of a recursive generator and a pass removing repeats per family (twice
    a step: its hold and its play). A shape met twice stays where it is met last, as there."""
    met: list[Mobject] = []
    path: set[int] = set()

    def walk(m: Mobject) -> None:
        if id(m) in path:  # a family holding itself, which Manim's walk skips too
            return
        path.add(id(m))
        met.append(m)
        for sub in m.submobjects:
            walk(sub)
        path.discard(id(m))

    for top in list_update(scene.mobjects, scene.foreground_mobjects):
        walk(top)
    seen: set[int] = set()
    out = [m for m in reversed(met) if not (id(m) in seen or seen.add(id(m))) and m.get_num_points() > 0]
    out.reverse()
    return sorted(out, key=lambda m: m.z_index) if scene.camera.use_z_index else out


def _animated(animations: list[Any]) -> set[int]:
    """ids of every shape an animation (or one nested in a group or succession) moves."""
    out: set[int] = set()
    todo = list(animations)
    while todo:
        a = todo.pop()
        todo += getattr(a, "animations", [])
        if getattr(a, "mobject", None) is not None:
            out.update(id(m) for m in a.mobject.get_family())
    return out


def _updated(scene: Any) -> bool:
    """Whether any mobject on screen has an updater (our clips use none; Manim's may). A walk
    that stops at the first, not ``get_family_updaters`` per mobject: that lists every family
    whole, once per play, and a play's fixed cost is what a short step (a light) mostly is."""
    todo, seen = list(list_update(scene.mobjects, scene.foreground_mobjects)), set()
    while todo:
        m = todo.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        if m.updaters:
            return True
        todo += m.submobjects
    return False


def _advance(scene: Any, t: float, updated: bool) -> None:
    """``Scene.update_to_time(t)``; when no mobject on screen has an updater, without its walk
    through every mobject's family to call none (each frame of every play)."""
    if updated:
        scene.update_to_time(t)
        return
    dt, scene.last_t = t - scene.last_t, t
    for animation in scene.animations:
        animation.update_mobjects(dt)
        animation.interpolate(t / animation.run_time)
    scene.update_meshes(dt)
    scene.update_self(dt)


def split_by_motion(scene: Any, moving: set[int]) -> tuple[list[Mobject], list[Mobject], list[Mobject]]:
    """(below, between, above), in drawing order: ``between`` runs from the first moving shape to
    the last and is redrawn every frame; what lies below it or above it cannot change during the
    play and is drawn once (Manim splits by the order mobjects were added and redraws everything
    after the first mover: the whole graph above a code-line bar that slides, for instance)."""
    shapes = _everything(scene)
    at = [i for i, m in enumerate(shapes) if id(m) in moving]
    if not at:
        return shapes, [], []
    return shapes[: at[0]], shapes[at[0]: at[-1] + 1], shapes[at[-1] + 1:]


def hold(scene: Any, frames: int, sink: FrameSink) -> None:
    """``frames`` frames of the picture as it stands."""
    if frames > 0:
        sink.put(_draw(scene, _everything(scene), None), frames)


def _begin(scene: Any, anims: list[Any], frames: int, fps: int) -> None:
    scene.compile_animation_data(AnimationGroup(*anims), run_time=play_seconds(frames, fps))
    _families_kept(scene.animations)
    for animation in scene.animations:
        animation._setup_scene(scene)
        animation.begin()


_LISTED = (Animation.get_all_families_zipped, Transform.get_all_families_zipped)


def _families_kept(animations: list[Any]) -> None:
    """Manim's own animations (and those nested in a group or succession) list the parts they
    interpolate once per play, not on every frame: Manim's ``interpolate_mobject`` walks the
    families of the shape, its start and its target again for each frame (a tenth of a camera
    move's cost), though their parts are fixed once the animation has begun (``Transform.begin``
    aligns them; ``Animation.begin`` then interpolates to 0, the first listing). Ours, which may
    reshape what they move, list them as Manim does."""
    todo = list(animations)
    while todo:
        a = todo.pop()
        todo += getattr(a, "animations", [])
        if type(a).__module__.startswith("manim.") and type(a).get_all_families_zipped in _LISTED:
            a.get_all_families_zipped = _once(a.get_all_families_zipped)


def _once(listing: Any) -> Any:
    """``listing()``'s parts, listed at the first call and handed out again after."""
    kept: list[list[tuple]] = []

    def parts() -> list[tuple]:
        if not kept:
            kept.append(list(listing()))
        return kept[0]
    return parts


def _end(scene: Any) -> None:
    """Finish the play's animations; then the scene's ``step_done`` (if it has one) sees them:
    one place for what a finished play leaves (a ClipScene's shapes take their targets' tags),
    so a render (`play`, `apply`) and ``render inspect`` (`scenes.draw.record.sample`) go on
    from the same scene, and place what comes next alike."""
    animations = list(scene.animations)
    for animation in animations:
        animation.finish()
        animation.clean_up_from_scene(scene)
    scene.update_mobjects(0)
    scene.animations = None
    done = getattr(scene, "step_done", None)
    if done is not None:
        done(animations)


class _Overlay:
    """Shapes drawn once onto a transparent layer, then laid over each frame by Cairo (OVER, the
    operator drawing them directly would use)."""

    def __init__(self, scene: Any, shapes: list[Mobject]) -> None:
        import cairo

        cam = scene.camera
        frame = cam.pixel_array
        self.layer = np.zeros_like(frame)
        cam.pixel_array = self.layer
        try:
            cam.capture_mobjects(shapes, include_submobjects=False)
        finally:
            cam.pixel_array = frame
            cam.pixel_array_to_cairo_context.pop(id(self.layer), None)  # the camera would keep it forever
        self.surface = cairo.ImageSurface.create_for_data(self.layer.data, cairo.FORMAT_ARGB32,
                                                          self.layer.shape[1], self.layer.shape[0])

    def paint(self, scene: Any, inside: PixelRect | None = None) -> None:
        """Lay the layer over the frame, or over the pixels of ``inside`` only."""
        cam = scene.camera
        ctx = cam.get_cairo_context(cam.pixel_array)
        ctx.save()
        ctx.identity_matrix()
        ctx.set_source_surface(self.surface, 0, 0)
        if inside is None:
            ctx.paint()
        else:
            ctx.new_path()  # Manim leaves each shape's path behind (fill_preserve, stroke_preserve)
            ctx.rectangle(inside.x0, inside.y0, inside.x1 - inside.x0, inside.y1 - inside.y0)
            ctx.fill()
        ctx.restore()


def play(scene: Any, anims: list[Any], frames: int, fps: int, sink: FrameSink) -> None:
    """Draw ``anims`` over ``frames`` frames at times 0, 1/fps, ...: the frames Scene.play draws.

    The first frame is drawn whole; each later one only inside its damaged rectangle (see
    ``scenes.video.damage``): the background is restored there, the shapes that reach into it are
    drawn, and the sink gets only its pixels."""
    _begin(scene, anims, frames, fps)
    moving = _animated(scene.animations)
    below, between, above = split_by_motion(scene, moving)
    background = _draw(scene, below, None)
    overlay = _Overlay(scene, above) if above else None
    cam = scene.camera
    movers = [m for m in between if id(m) in moving]
    # shapes changed by updaters are not in ``moving``: such a play is drawn whole
    updated = _updated(scene)
    boxed = all(drawable(m) for m in between) and not updated
    rests = {id(m): shape_box(cam, m) for m in between if id(m) not in moving} if boxed else {}
    before: PixelRect | None = None
    for i in range(frames):
        _advance(scene, i / fps, updated)
        now = shapes_box(cam, movers) if boxed else None
        rect = damage([before, now], cam.pixel_width, cam.pixel_height) if i and boxed else None
        before = now
        if i == 0 or not boxed:
            cam.set_frame_to_background(background)
            cam.capture_mobjects(between, include_submobjects=False)
            if overlay is not None:
                overlay.paint(scene)
            sink.put(cam.pixel_array.copy(), 1)
        elif rect is None:
            sink.put(cam.pixel_array[:0, :0].copy(), 1, PixelRect(0, 0, 0, 0))
        else:
            area = rect.slices()
            cam.pixel_array[area] = background[area]
            # every shape that reaches into the rectangle, whole: Cairo is not clipped (a clip can
            # change the rounding of a pixel by one level), so pixels outside the rectangle
            # become wrong in the camera's frame; they are never handed on, and the next frame
            # restores the background wherever it draws.
            reaching = [m for m in between if id(m) in moving or ((box := rests[id(m)]) is not None and box.meets(rect))]
            cam.capture_mobjects(reaching, include_submobjects=False)
            if overlay is not None:
                overlay.paint(scene, rect)
            sink.put(cam.pixel_array[area].copy(), 1, rect)
    _end(scene)


def apply(scene: Any, anims: list[Any], frames: int, fps: int) -> None:
    """Take ``anims`` to their end state without drawing a frame."""
    _begin(scene, anims, frames, fps)
    _end(scene)


def run_step(scene: Any, step: Step, fps: int, sink: FrameSink | None) -> None:
    """One step of a segment: its hold, then its actions drawn into ``sink``, or, without a sink,
    taken to their end state."""
    if sink is not None:
        hold(scene, step.hold, sink)
    if not step.frames:
        return
    anims: list[Any] = scene.step_animations(step.actions)
    if not anims:
        if sink is not None:
            hold(scene, step.frames, sink)
    elif sink is None:
        apply(scene, anims, step.frames, fps)
    else:
        play(scene, anims, step.frames, fps, sink)
