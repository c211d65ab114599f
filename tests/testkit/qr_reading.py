"""Reading QR codes back as a phone's camera would (zxing-cpp, from the test extra)."""

from __future__ import annotations

import zxingcpp

# Blocks of the host's QR drawing: which of a cell's two halves (top, bottom) are light.
HALVES = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def decode_gray(pixels: bytes, width: int, height: int) -> str | None:
    """The text of the one QR code in a grayscale image (one byte a pixel), or None.
    Dark-on-light only: a code drawn inverted must not pass."""
    image = memoryview(pixels).cast("B", (height, width))
    result = zxingcpp.read_barcode(image, formats=zxingcpp.BarcodeFormat.QRCode,
                                   try_invert=False)
    return None if result is None else str(result.text)


def decode_half_blocks(rows: list[str], scale: int = 4) -> str | None:
    """The text of a QR code drawn in half blocks (light = block), each module `scale`
    pixels, on a dark background as the host's terminal shows it."""
    width = len(rows[0]) * scale
    lines: list[bytes] = []
    for row in rows:
        for half in (0, 1):
            line = bytes(255 if HALVES[char][half] else 0 for char in row for _ in range(scale))
            lines.extend([line] * scale)
    margin = bytes(width)  # the terminal's dark background around the drawing
    pixels = b"".join([margin] * scale + lines + [margin] * scale)
    return decode_gray(pixels, width, len(lines) + 2 * scale)
