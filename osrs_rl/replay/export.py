"""A replay as pictures: one PNG, a folder of PNG frames, a GIF or an MP4 (``osrs-rl replay render``).

    render_replay(load_replay("run/replays/0.orlr"), "fight.mp4", fps=5, overlays="los,danger")

Frame ``k`` is the state after ``k`` ticks (frame 0: the initial state), re-simulated from the replay
(``scenes_for_replay``). Its annotation lines, when the replay has them, are the policy's outputs for
the decision taken in that state (value, the option each head took with its probability, and the
most likely one when that differs)
and the reward of the tick that led to it, with its components; the actions taken next are listed too.
Every file is written atomically: to a temporary file in the same folder, then renamed.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from osrs_rl.io.atomic import atomic_write, temp_name
from osrs_rl.replay.file import Replay
from osrs_rl.replay.render import TILE_PX, overlay_names, render_scene, scene_size
from osrs_rl.replay.scene import entity_labels, option_target, scenes_for_replay
from osrs_rl.runtime.registry import get_spec

DEFAULT_FPS = 5.0           # three times game speed (a tick is 0.6 s): --fps 1.667 plays in real time
KINDS = {".png": "png", ".gif": "gif", ".mp4": "mp4"}


def output_kind(out_path, frames: bool = False) -> str:
    """``png``, ``frames`` (a folder), ``gif`` or ``mp4`` from the path; ValueError for anything else."""
    text = str(out_path)
    if frames or text.endswith(("/", os.sep)):
        return "frames"
    kind = KINDS.get(Path(text).suffix.lower())
    if kind is None:
        raise ValueError(f"cannot write {text!r}: unknown output type {Path(text).suffix or '(no extension)'!r}; "
                         "use .png (one frame), .gif, .mp4, or a folder ending in / (or --frames) for PNG frames")
    return kind


def frame_annotations(replay: Replay, k: int, labels: dict[str, str] | None = None) -> list[str]:
    """Annotation lines for frame ``k`` (the state after ``k`` ticks); empty when there is nothing to say.
    ``labels``: the frame's entity labels (``scene.entity_labels``), so that an option naming an entity
    (an attack's target) reads as that entity's name."""
    spec = get_spec(replay.encounter)
    labels = labels or {}

    def _option(head, v: int) -> str:
        text = head.labels[v] if head.labels else str(v)
        return labels[text] if option_target(text, labels) else text
    lines = []
    if k >= 1:
        t = k - 1
        reward = ", ".join(f"{r:+.3f}" for r in replay.rewards[t])
        parts = [f"{name} {float(v[t]):+.3f}" for name, v in replay.reward_components.items()]
        lines.append(f"reward of tick {t}: {reward}" + (f" ({', '.join(parts)})" if parts else ""))
    if k < replay.ticks:
        if replay.values is not None:
            lines.append(f"value {float(replay.values[k]):+.3f}")
        if replay.probs is not None:
            # the option the policy took (agent 0's action), with its probability; the most likely one
            # beside it when the sample fell elsewhere
            for h, (head, p) in enumerate(zip(spec.action_heads, replay.probs, strict=True)):
                chosen, best = int(replay.actions[k, 0, h]), int(np.argmax(p[k]))
                line = f"{head.name}: {_option(head, chosen)} {float(p[k][chosen]):.0%}"
                if best != chosen:
                    line += f" (most likely {_option(head, best)} {float(p[k][best]):.0%})"
                lines.append(line)
        for a, agent in enumerate(spec.agents):
            taken = [f"{h.name}={_option(h, v)}"
                     for h, v in zip(spec.action_heads, replay.actions[k, a].tolist(), strict=True) if v != 0]
            lines.append(f"next action {agent}: {' '.join(taken) or 'nothing'}")
    return lines



def frame_range(replay: Replay, kind: str, tick: int | None, start: int | None, end: int | None) -> range:
    """The frames to draw; ValueError naming a tick outside ``0..ticks``."""
    last = replay.ticks
    if kind == "png":
        k = last if tick is None else tick
        if not 0 <= k <= last:
            raise ValueError(f"--tick {k} is outside 0..{last} (the replay has {last} ticks)")
        return range(k, k + 1)
    lo, hi = (0 if start is None else start), (last if end is None else end)
    if not 0 <= lo <= hi <= last:
        raise ValueError(f"--start {lo} --end {hi}: need 0 <= start <= end <= {last} (the replay has {last} ticks)")
    return range(lo, hi + 1)


def render_replay(replay: Replay, out_path, fps: float = DEFAULT_FPS, start: int | None = None,
                  end: int | None = None, tick: int | None = None, frames: bool = False, overlays=(),
                  tile_px: int = TILE_PX, progress: Callable[[int, int], None] | None = None) -> Path:
    """Write the replay's frames to ``out_path`` (kind from its extension, see ``output_kind``);
    ``progress(done, total)`` is called after each frame. Returns the path written."""
    kind = output_kind(out_path, frames)
    overlays = overlay_names(overlays)
    if not fps > 0:
        raise ValueError(f"--fps must be positive, got {fps}")
    ks = frame_range(replay, kind, tick, start, end)
    scenes = scenes_for_replay(replay)
    notes = {k: frame_annotations(replay, k, entity_labels(scenes[k])) for k in ks}
    sizes = [scene_size(scenes[k], notes[k], tile_px) for k in ks]
    size = (max(w for w, _ in sizes), max(h for _, h in sizes))
    if kind == "mp4":
        size = (size[0] + size[0] % 2, size[1] + size[1] % 2)      # yuv420p needs even sides

    def images():
        for n, k in enumerate(ks):
            yield k, render_scene(scenes[k], notes[k], tile_px, overlays, size)
            if progress is not None:
                progress(n + 1, len(ks))

    out = Path(out_path)
    if kind == "png":
        (_, image), = images()
        return atomic_write(out, _png_bytes(image))
    if kind == "frames":
        out.mkdir(parents=True, exist_ok=True)
        for k, image in images():
            atomic_write(out / f"tick_{k:05d}.png", _png_bytes(image))
        return out
    if kind == "gif":
        return atomic_write(out, _gif_bytes([image.quantize(256) for _, image in images()], fps))
    return _write_mp4(out, (image for _, image in images()), size, fps)


def _png_bytes(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def _gif_bytes(images: list, fps: float) -> bytes:
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=round(1000 / fps), loop=0)
    return buf.getvalue()


def _write_mp4(out: Path, images, size: tuple[int, int], fps: float) -> Path:
    import imageio_ffmpeg

    out.parent.mkdir(parents=True, exist_ok=True)
    # created 0666 so that the user's umask decides the mode, as for any file they make (mkstemp's 0600
    # would hide a rendered video from the group); ffmpeg picks the container by the .mp4 ending
    tmp = out.parent / f"{temp_name(out.name)}.mp4"
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        writer = imageio_ffmpeg.write_frames(str(tmp), size, fps=fps, codec="libx264", macro_block_size=1,
                                             output_params=["-movflags", "+faststart"])
        writer.send(None)                       # start ffmpeg
        try:
            for image in images:
                writer.send(np.ascontiguousarray(np.asarray(image, dtype=np.uint8)))
        finally:
            writer.close()
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return out
