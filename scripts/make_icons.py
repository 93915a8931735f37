#!/usr/bin/env python3
"""Draw the installable app's icons (play/static/play/icons/*.png) once, with no library.

A white card with a black spade on the table's green felt: ``icon-192.png``
and ``icon-512.png`` (purpose "any": a rounded square) and
``maskable-192.png`` / ``maskable-512.png`` (purpose "maskable": full bleed,
the card inside the central circle of 80 % that every mask keeps). Shapes are
polygons filled at 4 x 4 samples a pixel and written as RGBA PNG by ``zlib``.
Run it again only to change the drawing:  .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "play" / "static" / "play" / "icons"
FELT = (0x1F, 0x6B, 0x4A)
PAPER = (0xFB, 0xFA, 0xF7)
INK = (0x1D, 0x23, 0x2A)
SS = 4  # samples per pixel along each axis

Point = tuple[float, float]


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 24) -> list[Point]:
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


def spade() -> list[Point]:
    """tabletop/icons.py's spade (a 16 x 16 box), its curves flattened."""
    pts: list[Point] = [(8, 1)]

    def c(a: Point, b: Point, d: Point) -> None:
        pts.extend(cubic(pts[-1], a, b, d))

    def rc(a: Point, b: Point, d: Point) -> None:  # relative to the current point
        x, y = pts[-1]
        c((x + a[0], y + a[1]), (x + b[0], y + b[1]), (x + d[0], y + d[1]))

    c((6, 3.6), (1.6, 6.6), (1.6, 9.7))
    rc((0, 1.9), (1.4, 3.2), (3.1, 3.2))
    rc((1.1, 0), (2.1, -0.5), (2.6, -1.4))
    pts.append((6.6, 15))
    pts.append((9.4, 15))
    pts.append((8.7, 11.5))
    rc((0.5, 0.9), (1.5, 1.4), (2.6, 1.4))
    rc((1.7, 0), (3.1, -1.3), (3.1, -3.2))
    c((14.4, 6.6), (10, 3.6), (8, 1))
    return pts


def rounded(x0: float, y0: float, x1: float, y1: float, r: float) -> list[Point]:
    pts: list[Point] = []
    corners = (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    )
    for cx, cy, start in corners:
        for i in range(13):
            a = math.radians(start + i * 90 / 12)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def coverage(poly: list[Point], size: int) -> list[float]:
    """The share of each pixel inside ``poly`` (even-odd), from SS x SS samples."""
    big = size * SS
    acc = [0] * (size * size)
    edges = list(zip(poly, poly[1:] + poly[:1], strict=True))
    for sy in range(big):
        y = (sy + 0.5) / SS
        xs = []
        for (ax, ay), (bx, by) in edges:
            if (ay <= y < by) or (by <= y < ay):
                xs.append(ax + (y - ay) * (bx - ax) / (by - ay))
        xs.sort()
        row = (sy // SS) * size
        for a, b in zip(xs[::2], xs[1::2], strict=False):
            s0 = max(0, math.ceil(a * SS - 0.5))
            s1 = min(big - 1, math.floor(b * SS - 0.5))
            for sx in range(s0, s1 + 1):
                acc[row + sx // SS] += 1
    return [v / (SS * SS) for v in acc]


def draw(size: int, maskable: bool) -> bytes:
    pixels = [(0.0, 0.0, 0.0, 0.0)] * (size * size)

    def paint(poly: list[Point], colour: tuple[int, int, int]) -> None:
        for i, a in enumerate(coverage(poly, size)):
            if a:
                r, g, b, pa = pixels[i]
                out = a + pa * (1 - a)
                old = (r, g, b)
                mix = [(c * a + pc * pa * (1 - a)) / out for c, pc in zip(colour, old, strict=True)]
                pixels[i] = (mix[0], mix[1], mix[2], out)

    s = size
    if maskable:
        paint([(0, 0), (s, 0), (s, s), (0, s)], FELT)
        card_h = 0.56 * s  # inside the 80 % circle that every mask keeps
    else:
        paint(rounded(0, 0, s, s, 0.18 * s), FELT)
        card_h = 0.72 * s
    card_w = card_h * 0.7
    x0, y0 = (s - card_w) / 2, (s - card_h) / 2
    paint(rounded(x0, y0, x0 + card_w, y0 + card_h, card_w * 0.12), PAPER)
    k = card_w * 0.8 / 16
    ox, oy = s / 2 - 8 * k, s / 2 - 8 * k
    paint([(ox + x * k, oy + y * k) for x, y in spade()], INK)
    raw = bytearray()
    for y in range(s):
        raw.append(0)
        for r, g, b, a in pixels[y * s : (y + 1) * s]:
            raw += bytes((round(r), round(g), round(b), round(a * 255)))
    return png(s, s, bytes(raw))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    head = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    body = chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(draw(size, maskable=False))
        (OUT / f"maskable-{size}.png").write_bytes(draw(size, maskable=True))
        print(f"{OUT}/icon-{size}.png, maskable-{size}.png")


if __name__ == "__main__":
    main()
