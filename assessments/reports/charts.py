"""Server-rendered SVG charts (no chart library, no JavaScript): grouped or stacked bars with an
optional line, a legend, axis labels and a <title>/<desc> for screen readers. The same markup goes
into the page and into the PDF (WeasyPrint draws inline SVG).

Pure: values in, markup out. Floats appear only as pixel coordinates, never as money.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from html import escape

NAVY, TEAL, AMBER, GREEN, RED, GREY = "#13507f", "#0f7c7a", "#a15c00", "#1e7b3a", "#b42318", "#98a2b3"
WIDTH, HEIGHT = 760, 300
LEFT, RIGHT, TOP, BOTTOM = 78, 16, 44, 62


@dataclass(frozen=True)
class Series:
    name: str
    values: list            # Decimal or int, one per label
    color: str
    colors: tuple[str, ...] | None = None   # one colour per bar when the labels are the categories


def nice_max(value: float) -> float:
    """The smallest round number (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^n) at or above `value` (1 for nothing)."""
    if value <= 0:
        return 1.0
    exp = 10 ** math.floor(math.log10(value))
    for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if value <= step * exp:
            return step * exp
    return 10 * exp


def tick_label(value: float, money: bool) -> str:
    prefix = "$" if money else ""
    for threshold, size, suffix in ((1_000_000, 1_000_000, " M"), (10_000, 1_000, " k")):
        if abs(value) >= threshold:
            return f"{prefix}{value / size:,.1f}".removesuffix(".0") + suffix
    return f"{prefix}{value:,.0f}" if value == int(value) else f"{prefix}{value:,.2f}"


def label_lines(label: str, width: int) -> list[str]:
    """A category label on at most two lines of about `width` characters (cut with … beyond)."""
    if len(label) <= width:
        return [label]
    first, rest = "", label
    for word in label.split(" "):
        if first and len(first) + 1 + len(word) > width:
            break
        first = f"{first} {word}".strip()
        rest = rest[len(word):].lstrip(" ") if rest.startswith(word) else rest
    if len(first) > width:       # one long word
        first, rest = first[:width - 1] + "…", rest
    second = rest if len(rest) <= width else rest[:width - 1].rstrip() + "…"
    return [first, second] if second else [first]


def value_text(value, money: bool) -> str:
    return f"${Decimal(value):,.2f}" if money else f"{value:,}"


def chart_svg(*, uid: str, title: str, desc: str, labels: list[str], bars: list[Series], line: Series | None = None,
              stacked: bool = False, money: bool = True, width: int = WIDTH, height: int = HEIGHT) -> str:
    """Bars per label (side by side, or stacked), and a line over them if given. `width` and
    `height` are the drawing's own units: a chart shown in a narrow column draws narrower, so its
    text is not scaled down to nothing."""
    n = max(len(labels), 1)
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    if stacked:
        tops = [sum(float(s.values[i]) for s in bars) for i in range(len(labels))]
    else:
        tops = [max((float(s.values[i]) for s in bars), default=0.0) for i in range(len(labels))]
    if line is not None:
        tops += [float(v) for v in line.values]
    top = nice_max(max(tops, default=0.0))
    if not money:       # counts: whole numbers on every gridline (four steps)
        top = float(max(4, math.ceil(top / 4) * 4))

    def y(v: float) -> float:
        return TOP + plot_h - (max(v, 0.0) / top * plot_h)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="report-chart" viewBox="0 0 {width} {height}" '
           f'width="100%" role="img" aria-labelledby="{uid}-t {uid}-d" font-family="DejaVu Sans, sans-serif" '
           f'font-size="11">',
           f'<title id="{uid}-t">{escape(title)}</title><desc id="{uid}-d">{escape(desc)}</desc>']
    for k in range(5):   # gridlines and y labels
        v = top * k / 4
        yy = y(v)
        out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#d9e0e7" '
                   f'stroke-width="1"/><text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end" fill="#5f6b7a">'
                   f'{escape(tick_label(v, money))}</text>')
    slot = plot_w / n
    group_w = min(slot * 0.7, 140.0)     # one or two labels should not make slabs
    bar_w = group_w if stacked or not bars else group_w / len(bars)
    for i, label in enumerate(labels):
        x0 = LEFT + slot * i + (slot - group_w) / 2
        base = 0.0
        for j, s in enumerate(bars):
            v = float(s.values[i])
            if stacked:
                y_top, y_bottom, x = y(base + v), y(base), x0
                base += v
            else:
                y_top, y_bottom, x = y(v), y(0), x0 + j * bar_w
            h = max(y_bottom - y_top, 0.0)
            tip = f"{label} — {s.name}: {value_text(s.values[i], money)}"
            color = s.colors[i] if s.colors else s.color
            out.append(f'<rect x="{x:.1f}" y="{y_top:.1f}" width="{max(bar_w - 1, 1):.1f}" height="{h:.1f}" '
                       f'fill="{color}"><title>{escape(tip)}</title></rect>')
        cx = LEFT + slot * (i + 0.5)
        if n > 8:
            out.append(f'<text x="{cx:.1f}" y="{TOP + plot_h + 14}" text-anchor="end" fill="#1f2933" '
                       f'transform="rotate(-35 {cx:.1f} {TOP + plot_h + 14})">{escape(label)}</text>')
        else:
            lines = label_lines(label, max(int(slot / 6.6), 6))
            spans = "".join(f'<tspan x="{cx:.1f}" dy="{0 if k == 0 else 13}">{escape(line)}</tspan>'
                            for k, line in enumerate(lines))
            out.append(f'<text x="{cx:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" fill="#1f2933">'
                       f'{spans}</text>')
    if line is not None and labels:
        points = " ".join(f"{LEFT + slot * (i + 0.5):.1f},{y(float(v)):.1f}" for i, v in enumerate(line.values))
        out.append(f'<polyline points="{points}" fill="none" stroke="{line.color}" stroke-width="2.5"/>')
        for i, v in enumerate(line.values):
            tip = f"{labels[i]} — {line.name}: {value_text(v, money)}"
            out.append(f'<circle cx="{LEFT + slot * (i + 0.5):.1f}" cy="{y(float(v)):.1f}" r="3.5" '
                       f'fill="{line.color}"><title>{escape(tip)}</title></circle>')
    out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#5f6b7a"/>')
    out.append(_legend(bars, line))
    out.append("</svg>")
    return "".join(out)


def _legend(bars: list[Series], line: Series | None) -> str:
    parts, x = [], LEFT
    for s in bars:
        if s.colors:        # the axis labels already name each bar
            continue
        parts.append(f'<rect x="{x}" y="12" width="12" height="12" fill="{s.color}"/>'
                     f'<text x="{x + 17}" y="22" fill="#1f2933">{escape(s.name)}</text>')
        x += 30 + 6.4 * len(s.name)
    if line is not None:
        parts.append(f'<line x1="{x}" x2="{x + 16}" y1="18" y2="18" stroke="{line.color}" stroke-width="2.5"/>'
                     f'<circle cx="{x + 8}" cy="18" r="3.5" fill="{line.color}"/>'
                     f'<text x="{x + 21}" y="22" fill="#1f2933">{escape(line.name)}</text>')
    return '<g class="legend">' + "".join(parts) + "</g>"
