"""iCalendar (RFC 5545) text for a staff member's feed. Pure: items in, text out.

All-day events (DTSTART;VALUE=DATE, DTEND the next day), one per dated item; the UID is the
item's stable key, so a clock keeps its event when its due date is recomputed. Text values are
escaped (backslash, semicolon, comma, newline), lines are folded at 75 octets and end in CRLF.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from core.dashboard.items import Item

CRLF = "\r\n"
UID_DOMAIN = "cargos.pr.gov"


def escape_text(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def fold(line: str) -> str:
    """Split a content line into 75-octet pieces (continuations start with a space), never
    inside a UTF-8 character."""
    out, current, size = [], "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        limit = 75 if not out else 74
        if size + n > limit:
            out.append(current)
            current, size = "", 0
        current += ch
        size += n
    out.append(current)
    return (CRLF + " ").join(out)


def uid_for(item: Item) -> str:
    return f"{item.key.replace(':', '-')}@{UID_DOMAIN}"


def build_calendar(items: Iterable[Item], *, name: str, now: datetime, base_url: str = "") -> str:
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Cargos PR//Tablero del personal//ES", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{escape_text(name)}", "X-WR-TIMEZONE:America/Puerto_Rico"]
    for item in items:
        if item.due_date is None:
            continue
        summary = f"{item.rule} — {item.title}" if item.rule else item.title
        description = "\n".join(x for x in (item.kind_label, item.detail, item.office_name, item.district_name) if x)
        url = f"{base_url.rstrip('/')}{item.url}" if item.url.startswith("/") else item.url
        lines += ["BEGIN:VEVENT", f"UID:{uid_for(item)}", f"DTSTAMP:{stamp}",
                  f"DTSTART;VALUE=DATE:{item.due_date:%Y%m%d}",
                  f"DTEND;VALUE=DATE:{item.due_date + timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:{escape_text(summary)}", "TRANSP:TRANSPARENT"]
        if description:
            lines.append(f"DESCRIPTION:{escape_text(description)}")
        if url:
            lines.append(f"URL:{url}")
        if item.kind:
            lines.append(f"CATEGORIES:{escape_text(item.kind_label)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return CRLF.join(fold(line) for line in lines) + CRLF
