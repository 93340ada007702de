"""IRR-9: irrigation quotas fall due "en la forma y fechas" of the property-tax law, so their
delinquency date, interest and surcharges are entered by an administrator (parameter family
`irr_delinquency`, with its citation). A roll is not certified until they are entered, or until an
administrator records that none apply — an audited decision shown on the roll page
(docs/rules/irr.md, IRR-9)."""
from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from assessments.ledger.surcharge_rules import NONE_APPLY, records_none_apply
from core import roles
from core.audit import audit
from core.fiscal import fiscal_year_start
from core.models import ParameterVersion

FAMILY = "irr_delinquency"


@dataclass(frozen=True)
class DelinquencyTerms:
    """The `irr_delinquency` version in force on the roll's first due date, or None."""

    version: ParameterVersion | None

    @property
    def entered(self) -> bool:
        return self.version is not None

    @property
    def none_apply(self) -> bool:
        return self.version is not None and records_none_apply(self.version.values or {})


def terms_for_roll(roll) -> DelinquencyTerms:
    """Terms in force on July 1 of the roll's fiscal year, the first installment's due date."""
    first_due = fiscal_year_start(roll.fiscal_year)
    version = (ParameterVersion.objects.filter(family=FAMILY, effective_from__lte=first_due)
               .select_related("created_by").order_by("-effective_from").first())
    return DelinquencyTerms(version)


def certify_refusal(roll) -> str | None:
    """Why an irrigation roll cannot be certified for want of its delinquency terms (None: it can)."""
    if not roll.is_irrigation or terms_for_roll(roll).entered:
        return None
    return _("IRR-9: faltan la fecha de morosidad, los intereses y los recargos de la contribución sobre la "
             "propiedad (parámetro «irr_delinquency»). Un administrador debe entrarlos, o registrar en esta "
             "página que no aplican, antes de certificar.")


@transaction.atomic
def record_none_apply(*, roll, actor, reason: str) -> ParameterVersion:
    """The administrator's audited decision that no delinquency terms apply from the roll's fiscal year
    on (until terms are entered): a version of the family that says so, with the reason as citation."""
    if not roles.can(actor, roles.ADMINISTER):
        raise PermissionDenied(_("Solo un administrador registra que no aplican términos de morosidad (IRR-9)."))
    if not roll.is_irrigation:
        raise ValidationError(_("IRR-9 aplica solo a los padrones de distritos de riego."))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Indique por qué no aplican (la disposición o el motivo).")})
    if len(reason) > 300:
        raise ValidationError({"reason": _("La razón tiene a lo sumo 300 caracteres.")})
    current = terms_for_roll(roll)
    if current.entered:
        raise ValidationError(_("Ya hay términos de morosidad vigentes para este padrón (%(v)s).")
                              % {"v": current.version.version})
    start = fiscal_year_start(roll.fiscal_year)
    if ParameterVersion.objects.filter(family=FAMILY, effective_from=start).exists():
        raise ValidationError(_("Ya hay una versión de «irr_delinquency» vigente desde el %(d)s.")
                              % {"d": start.strftime("%d/%m/%Y")})
    version = ParameterVersion.objects.create(
        family=FAMILY, version=f"ninguno-FY{roll.fiscal_year}", effective_from=start, citation=reason,
        values={NONE_APPLY: "true"}, created_by=actor)
    audit(actor=actor, action="roll.irr9_none_apply", target=roll,
          summary=f"IRR-9: no aplican términos de morosidad desde el {start:%d/%m/%Y} ({roll})",
          data={"parameter_version": version.pk, "reason": reason})
    return version
