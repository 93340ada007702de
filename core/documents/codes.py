"""Verification codes printed on documents: 12 characters read aloud or typed from paper.

The alphabet leaves out 0/O and 1/I, which people confuse; 32 symbols, so a code carries
60 random bits. Printed and stored grouped as XXXX-XXXX-XXXX.
"""
from __future__ import annotations

import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 12
GROUP = 4
FORMATTED_LENGTH = LENGTH + LENGTH // GROUP - 1  # 14 with the two dashes


def new_code() -> str:
    """A fresh random code, formatted XXXX-XXXX-XXXX."""
    return format_code("".join(secrets.choice(ALPHABET) for _ in range(LENGTH)))


def format_code(raw: str) -> str:
    return "-".join(raw[i:i + GROUP] for i in range(0, LENGTH, GROUP))


def normalize_code(typed: str) -> str | None:
    """The stored form of a code as someone typed it (any case, spaces or dashes), or None.

    A code with a character outside the alphabet (0, O, 1, I, punctuation) is not one we issue.
    """
    raw = "".join(ch for ch in (typed or "").upper() if ch not in " -\t")
    if len(raw) != LENGTH or any(ch not in ALPHABET for ch in raw):
        return None
    return format_code(raw)
