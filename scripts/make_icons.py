"""Draw the app icons of practice (static/icons/remi-<size>.png, the web app manifest's icons).

A white card with a red heart on the table's green, drawn with the standard library only (a PNG
is a zlib stream of rows). Run ``python scripts/make_icons.py`` after changing the drawing; the
PNG files are committed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (21, 87, 54)
WHITE = (250, 250, 246)
RED = (196, 30, 45)
SAMPLES = 4  # supersampling per axis


def _colour(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) in the unit square: a rounded card, a heart on it, green around."""
    # The card: a rounded rectangle, upright, inside the maskable safe zone (the middle 80%).
    cx, cy, hw, hh, r = 0.5, 0.5, 0.25, 0.33, 0.05
    dx, dy = max(abs(x - cx) - (hw - r), 0.0), max(abs(y - cy) - (hh - r), 0.0)
    if dx * dx + dy * dy > r * r:
        return GREEN
    # The heart: (u^2 + v^2 - 1)^3 - u^2 v^3 <= 0, scaled into the card.
    u, v = (x - cx) / 0.17, -(y - cy - 0.02) / 0.17
    if (u * u + v * v - 1) ** 3 - u * u * v**3 <= 0:
        return RED
    return WHITE


def png(size: int) -> bytes:
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    colour = _colour((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)
                    for i in range(3):
                        total[i] += colour[i]
            rows.extend(round(c / SAMPLES**2) for c in total)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    data = zlib.compress(bytes(rows), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"remi-{size}.png").write_bytes(png(size))
        print(OUT / f"remi-{size}.png")
