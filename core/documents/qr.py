"""QR codes as data URIs: SVG (vectors) for most documents, a 1-bit PNG one pixel per module for
documents rendered by the thousand (notices), which WeasyPrint lays out faster and draws sharp
with `image-rendering: crisp-edges`.

The mask pattern is fixed: segno otherwise tries all eight and scores each (~6 ms of the ~7 ms a
code costs); any mask is a valid QR code, the scoring only avoids patterns that are harder on
poor scanners, and ours are printed at 18 mm in black on white.
"""
from __future__ import annotations

import segno

MASK = 2


def _qr(text: str):
    return segno.make(text, error="m", micro=False, mask=MASK)


def qr_svg_data_uri(text: str, *, dark: str = "#000000") -> str:
    """A QR code for `text` (error correction M, survives a crease or a stamp) as a data: URI."""
    return _qr(text).svg_data_uri(scale=4, border=0, dark=dark)


def qr_png_data_uri(text: str) -> str:
    """The same QR code as a 1-bit PNG, one pixel per module, no quiet zone (the page gives it)."""
    return _qr(text).png_data_uri(scale=1, border=0)
