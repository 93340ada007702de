"""The one error every calculation's payload reader raises (docs/compute.md).

It lives in `core` so that any app's `*_io` module (liens, assessments, …) can refuse input
without importing an app above it; `assessments.compute` re-exports it under its old name.
"""
from __future__ import annotations

from typing import Any


class ComputeInputError(Exception):
    """Invalid input for a calculation: `field` names the offending JSON path."""

    def __init__(self, field: str, message: str, **extra: Any) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.extra = extra

    def as_json(self) -> dict:
        return {"error": {"field": self.field, "message": self.message, **self.extra}}
