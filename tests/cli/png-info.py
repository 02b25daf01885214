#!/usr/bin/env python3
"""png-info.py FILE...: for each PNG, "WIDTH HEIGHT DISTINCT" on a line: its size from the
header (IHDR) and how many distinct pixel values its decoded rows hold, counted up to 64 (enough
to tell an image from a blank one; a row holds up to 4 more). Reads 8-bit RGB and RGBA, not
interlaced (what cairo writes), with the standard library alone; exits 1 naming a file that is
not such a PNG."""
import struct
import sys
import zlib


def rows(data, width, bpp):
    """The unfiltered rows of the image data (PNG filter types 0 to 4)."""
    stride = width * bpp
    prev = bytearray(stride)
    pos = 0
    while pos < len(data):
        kind, line = data[pos], bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xff
            elif kind == 2:
                line[i] = (line[i] + b) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xff
            elif kind != 0:
                raise ValueError("filter type %d" % kind)
        yield bytes(line)
        prev = line


def info(path):
    with open(path, "rb") as f:
        png = f.read()
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    pos, idat, head = 8, b"", None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = head
    if depth != 8 or color not in (2, 6) or interlace:
        raise ValueError("depth %d colour type %d interlace %d" % (depth, color, interlace))
    bpp = 3 if color == 2 else 4
    seen = set()
    for line in rows(zlib.decompress(idat), width, bpp):
        for i in range(0, len(line), bpp):
            seen.add(line[i:i + bpp])
        if len(seen) >= 64:
            break
    return width, height, len(seen)


for path in sys.argv[1:]:
    try:
        print("%d %d %d" % info(path))
    except (ValueError, struct.error, zlib.error, TypeError) as e:
        print("%s: not an 8-bit RGB(A) PNG: %s" % (path, e), file=sys.stderr)
        sys.exit(1)
