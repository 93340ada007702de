"""QR codes as SVG data URIs, for WeasyPrint to draw as vectors (sharp at any print resolution)."""
from __future__ import annotations

import segno


def qr_svg_data_uri(text: str, *, dark: str = "#000000") -> str:
    """A QR code for `text` (error correction M, survives a crease or a stamp) as a data: URI."""
    return segno.make(text, error="m", micro=False).svg_data_uri(scale=4, border=0, dark=dark)
