"""Cashier batches (*lotes de caja*): one open batch per cashier and business day; closing needs
the counted money to equal what was recorded, method by method. A closed batch takes no payments."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from assessments.models import CashierBatch, Payment
from core.audit import audit
from core.money import CENT, ZERO, sum_cents, to_decimal


class BatchUnbalanced(ValidationError):
    """Counted ≠ recorded for some method; `differences` is {method: counted − recorded}."""

    def __init__(self, differences: dict[str, Decimal]) -> None:
        self.differences = differences
        labels = dict(Payment.Method.choices)
        parts = [_("%(m)s: diferencia %(d)s") % {"m": labels.get(m, m), "d": f"{d:+.2f}"}
                 for m, d in differences.items()]
        super().__init__({"counted": [_("El lote no cuadra.")] + parts})


def batch_recorded(batch: CashierBatch) -> dict[str, Decimal]:
    """What the batch's standing payments add up to, per method."""
    rows = (Payment.objects.filter(batch=batch, status=Payment.Status.POSTED).values("method")
            .annotate(total=Sum("amount")))
    return {r["method"]: sum_cents(r["total"]) for r in rows}


def batch_differences(recorded: dict[str, Decimal], counted: dict[str, Decimal]) -> dict[str, Decimal]:
    diffs = {}
    for method in Payment.Method.values:
        d = counted.get(method, ZERO) - recorded.get(method, ZERO)
        if d:
            diffs[method] = d
    return diffs


@transaction.atomic
def batch_open(*, cashier, business_date: date, actor) -> CashierBatch:
    """The cashier's open batch for the day, opened if there is none (a second call returns it)."""
    found = CashierBatch.objects.filter(cashier=cashier, business_date=business_date,
                                        status=CashierBatch.Status.OPEN).first()
    if found:
        return found
    try:
        with transaction.atomic():
            batch = CashierBatch.objects.create(cashier=cashier, business_date=business_date)
    except IntegrityError:
        return CashierBatch.objects.get(cashier=cashier, business_date=business_date,
                                        status=CashierBatch.Status.OPEN)
    audit(actor=actor, action="batch.open", target=batch, summary=str(batch))
    return batch


def _clean_counted(counted: dict) -> dict[str, Decimal]:
    out = {}
    for method, raw in (counted or {}).items():
        if method not in Payment.Method.values:
            raise ValidationError({"counted": _("Forma de pago desconocida: %(m)s") % {"m": method}})
        try:
            value = to_decimal(raw if raw not in (None, "") else "0")
        except (TypeError, ValueError):
            raise ValidationError({"counted": _("Importe inválido para %(m)s.") % {"m": method}}) from None
        if value < 0 or value != value.quantize(CENT):
            raise ValidationError({"counted": _("Importe inválido para %(m)s.") % {"m": method}})
        out[method] = value.quantize(CENT)
    return out


@transaction.atomic
def batch_close(*, batch: CashierBatch, counted: dict, actor) -> CashierBatch:
    """Close a balanced batch (counted == recorded for every method); otherwise refuse with the
    differences and change nothing."""
    batch = CashierBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.status == CashierBatch.Status.CLOSED:
        raise ValidationError({"batch": _("El lote ya está cerrado.")})
    counted = _clean_counted(counted)
    recorded = batch_recorded(batch)
    diffs = batch_differences(recorded, counted)
    if diffs:
        raise BatchUnbalanced(diffs)
    batch.status = CashierBatch.Status.CLOSED
    batch.counted = {m: str(v) for m, v in counted.items() if v}
    batch.recorded = {m: str(v) for m, v in recorded.items()}
    batch.closed_at = timezone.now()
    batch.save(update_fields=["status", "counted", "recorded", "closed_at", "updated_at"])
    audit(actor=actor, action="batch.close", target=batch, summary=f"{batch} cuadrado",
          data={"counted": batch.counted, "recorded": batch.recorded})
    return batch
