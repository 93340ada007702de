"""Date-effective parameters the law fixes (rates, schedules, percentages, day counts).

Shipped versions live in one folder, the `SHIPPED_PARAMETERS_DIR` setting
(`assessments/parameters/` by default), one `<family>.json` file a family:

    {"family": "...", "versions": [
        {"version": "2024-1", "effective_from": "2024-07-01", "citation": "...",
         "values": {...}}]}

Values are JSON strings for numbers (read as Decimal by the engines). Administrators add newer
versions in the database; the Django layer passes a source that looks there first
(core.parameters). No ORM here: every app's rule engine can take a `ParameterSource`.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, Protocol

# The folder when no Django settings are loaded (a bare script, the benchmarks); the setting
# SHIPPED_PARAMETERS_DIR names the same folder, so core never imports the assessments package.
DEFAULT_PARAMETERS_DIR = Path(__file__).resolve().parent.parent / "assessments" / "parameters"


def shipped_parameters_dir() -> Path:
    """The folder of shipped parameter files: the setting when Django is configured, else the default."""
    conf = sys.modules.get("django.conf")  # a bare script (the benchmarks) never loads Django for this
    if conf is None or not (conf.settings.configured or os.environ.get("DJANGO_SETTINGS_MODULE")):
        return DEFAULT_PARAMETERS_DIR
    from django.core.exceptions import ImproperlyConfigured

    try:
        configured = getattr(conf.settings, "SHIPPED_PARAMETERS_DIR", None)
    except ImproperlyConfigured:
        configured = None
    return Path(configured) if configured else DEFAULT_PARAMETERS_DIR


class ParameterNotFound(LookupError):
    pass


@dataclass(frozen=True)
class ParameterVersion:
    family: str
    version: str
    effective_from: date
    citation: str
    values: dict[str, Any] = field(hash=False, compare=False)

    def label(self) -> str:
        """How a calculation names the version it used, e.g. `irr_schedule@2024-1`."""
        return f"{self.family}@{self.version}"

    def describe(self) -> dict:
        return {"family": self.family, "version": self.version,
                "effective_from": self.effective_from.isoformat(), "citation": self.citation}


class ParameterSource(Protocol):
    def get(self, family: str, on: date) -> ParameterVersion: ...


def _parse_version(family: str, raw: dict) -> ParameterVersion:
    return ParameterVersion(family=family, version=str(raw["version"]),
                            effective_from=date.fromisoformat(raw["effective_from"]),
                            citation=raw.get("citation", ""), values=raw["values"])


def shipped_versions(family: str) -> tuple[ParameterVersion, ...]:
    """The shipped versions of `family`, oldest first (none when the family has no file)."""
    return _read_family(shipped_parameters_dir(), family)


@cache
def _read_family(directory: Path, family: str) -> tuple[ParameterVersion, ...]:
    path = directory / f"{family}.json"
    if not path.exists():
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    versions = [_parse_version(family, v) for v in data["versions"]]
    return tuple(sorted(versions, key=lambda v: v.effective_from))


def in_force(versions, on: date) -> ParameterVersion | None:
    """The latest version whose effective_from is on or before `on`."""
    chosen = None
    for v in sorted(versions, key=lambda v: v.effective_from):
        if v.effective_from <= on:
            chosen = v
    return chosen


class ShippedParameters:
    """Parameters from the files shipped with the product only.

    The folder is resolved once, when the source is made: `get` sits in the engines' loops.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else shipped_parameters_dir()

    def get(self, family: str, on: date) -> ParameterVersion:
        found = in_force(_read_family(self.directory, family), on)
        if found is None:
            raise ParameterNotFound(f"no {family} parameters in force on {on.isoformat()}")
        return found


class ExplicitParameters:
    """A what-if: the caller's own values for some families, shipped ones for the rest."""

    def __init__(self, overrides: dict[str, dict], fallback: ParameterSource | None = None) -> None:
        self.overrides = overrides
        self.fallback = fallback or ShippedParameters()

    def get(self, family: str, on: date) -> ParameterVersion:
        if family in self.overrides:
            base = self.fallback.get(family, on)
            values = {**base.values, **self.overrides[family]}
            return ParameterVersion(family, "what-if", on, base.citation, values)
        return self.fallback.get(family, on)
