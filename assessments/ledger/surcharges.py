"""Which surcharge terms an installment accrues under, read from parameters or the receivable."""
from __future__ import annotations

from datetime import date

from django.utils.translation import gettext as _

from assessments.ledger import surcharge_rules as sr
from assessments.rules.lajas import CITATIONS, LajasInputError, LajasRules
from core.parameters import DatabaseParameters
from core.rule_parameters import ParameterSource

IRR_FAMILY = "irr_delinquency"


class TermsCache:
    """Terms per (rule, due date, receivable terms), so a statement or a payment asks once."""

    def __init__(self, params: ParameterSource | None = None) -> None:
        self.params = params or DatabaseParameters()
        self._found: dict = {}

    def for_installment(self, receivable, due_date: date) -> sr.SurchargeTerms:
        rule = receivable.surcharge_rule
        if rule == sr.NONE:
            return sr.INACTIVE
        key = (rule, due_date) if rule != sr.RESOLUTION else (rule, receivable.pk)
        if key not in self._found:
            self._found[key] = self._terms(rule, receivable, due_date)
        return self._found[key]

    def _terms(self, rule: str, receivable, due_date: date) -> sr.SurchargeTerms:
        if rule == sr.LAJ7:
            try:
                rules = LajasRules.from_parameters(self.params, due_date)
            except (LookupError, LajasInputError) as exc:
                return sr.SurchargeTerms(rule=rule, active=False,
                                         note=_("LAJ-7: sin parámetros vigentes (%(err)s); no se cobra recargo.")
                                         % {"err": exc})
            return sr.lajas_terms(rules, CITATIONS["LAJ-7"])
        if rule == sr.IRR9:
            try:
                version = self.params.get(IRR_FAMILY, due_date)
            except LookupError:
                return sr.SurchargeTerms(
                    rule=rule, active=False,
                    note=_("IRR-9: la administración no ha entrado los parámetros de morosidad "
                           "(irr_delinquency) vigentes al vencimiento; no se cobra recargo."))
            if sr.records_none_apply(version.values):
                return sr.SurchargeTerms(
                    rule=rule, active=False,
                    note=_("IRR-9: un administrador registró que no aplican términos de morosidad (%(c)s); "
                           "no se cobra recargo.") % {"c": version.citation})
            try:
                return sr.generic_terms(rule, version.values, version.citation, (version.label(),))
            except sr.TermsError as exc:
                return sr.SurchargeTerms(rule=rule, active=False,
                                         note=_("IRR-9: parámetros inválidos (%(err)s); no se cobra recargo.")
                                         % {"err": exc})
        if rule == sr.RESOLUTION:
            terms = receivable.surcharge_terms or {}
            if not terms:
                return sr.SurchargeTerms(rule=rule, active=False,
                                         note=_("SID-1: la resolución no fija recargo; no se cobra."))
            try:
                return sr.generic_terms(rule, terms)
            except sr.TermsError as exc:
                return sr.SurchargeTerms(rule=rule, active=False,
                                         note=_("SID-1: términos inválidos (%(err)s); no se cobra recargo.")
                                         % {"err": exc})
        return sr.INACTIVE
