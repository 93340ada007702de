"""Refusals the pages and the API show with their details (TID-2 formula, TID-5 cap)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assessments.rules.sid import AdminCapCheck
from assessments.rules.tid_formula import FormulaError


class FormulaRefused(ValidationError):
    """TID-2: a formula refused, with the position (0-based) and the reason."""

    REASONS = {
        "unexpected character": gettext_lazy("carácter inesperado"),
        "unterminated string": gettext_lazy("texto entre comillas sin cerrar"),
        "unexpected token": gettext_lazy("elemento inesperado"),
        "unknown name": gettext_lazy("nombre desconocido"),
        "wrong arity": gettext_lazy("número de argumentos incorrecto"),
        "type mismatch": gettext_lazy("tipos incompatibles"),
        "too deeply nested": gettext_lazy("demasiados niveles de paréntesis"),
        "division by zero": gettext_lazy("división por cero"),
        "missing value": gettext_lazy("falta el dato de la parcela"),
        "negative charge": gettext_lazy("el cargo resulta negativo"),
    }

    def __init__(self, exc: FormulaError, parcel_label: str | None = None) -> None:
        self.position = exc.position
        self.reason = exc.reason
        self.detail = exc.detail
        self.parcel = parcel_label or exc.parcel
        reason = str(self.REASONS.get(exc.reason, exc.reason))
        text = _("TID-2: fórmula rechazada en la posición %(pos)s: %(reason)s") % {"pos": exc.position,
                                                                                   "reason": reason}
        if exc.detail:
            text += f" ({exc.detail})"
        if self.parcel:
            text += " — " + _("parcela %(p)s") % {"p": self.parcel}
        super().__init__({"formula": [text]}, code="formula")
        self.text = text

    def as_json(self) -> dict:
        out = {"field": "formula", "message": self.text, "position": self.position, "reason": self.reason}
        if self.detail:
            out["detail"] = self.detail
        if self.parcel:
            out["parcel"] = self.parcel
        return {"error": out}


class AdminCapExceeded(ValidationError):
    """TID-5: an administrative expense that would break the cumulative 5 % cap, with the figures."""

    def __init__(self, check: AdminCapCheck, collected: Decimal, pct: Decimal, on: date) -> None:
        self.check = check
        self.collected = collected
        self.pct = pct
        self.on = on
        text = _("TID-5: gasto administrativo rechazado. Al %(on)s: recaudos a la fecha $%(collected)s; "
                 "tope de %(pct)s %% $%(cap)s; gastos administrativos a la fecha $%(spent)s; este gasto "
                 "$%(proposed)s; con este gasto $%(after)s; disponible $%(available)s.") % {
            "on": on.isoformat(), "collected": collected, "pct": pct.normalize(), "cap": check.cap,
            "spent": check.spent_to_date, "proposed": check.proposed, "after": check.spent_after,
            "available": check.available}
        super().__init__({"amount": [text]}, code="tid5_cap")
        self.text = text

    def figures(self) -> dict:
        c = self.check
        return {"on": self.on.isoformat(), "collected_to_date": str(self.collected), "cap_pct": str(self.pct),
                "cap": str(c.cap), "spent_to_date": str(c.spent_to_date), "proposed": str(c.proposed),
                "spent_after": str(c.spent_after), "available": str(c.available)}
