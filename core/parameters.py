"""Parameter lookup for the Django layer: administrator versions first, then shipped files."""
from __future__ import annotations

from datetime import date

from django.db import DatabaseError

from core.rule_parameters import ParameterVersion, ShippedParameters, in_force


class DatabaseParameters:
    """Looks in core.ParameterVersion first; a family with no DB row uses the shipped file.

    With no database at all (a fresh clone running `compute`), it falls back to the files.
    """

    def __init__(self) -> None:
        self.shipped = ShippedParameters()

    def get(self, family: str, on: date) -> ParameterVersion:
        from core.models import ParameterVersion as Row

        try:
            rows = list(Row.objects.filter(family=family, effective_from__lte=on))
        except DatabaseError:
            rows = []
        db_versions = [ParameterVersion(r.family, r.version, r.effective_from, r.citation, r.values) for r in rows]
        try:
            shipped = self.shipped.get(family, on)
        except LookupError:
            shipped = None
        chosen = in_force(db_versions + ([shipped] if shipped else []), on)
        if chosen is None:
            return self.shipped.get(family, on)
        return chosen
