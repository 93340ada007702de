"""SID-3 remittances due and late, from the improvement districts' own report
(`districts.improvement.selectors.sid_remittance_report`): every CRIM collection batch received in
the period, its 5 % retention, the 95 % to remit, the 90-day due date and whether it was met."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from core.money import ZERO

STATUS_LABELS = {
    "REMITTED": _("Remitido a tiempo"),
    "REMITTED_LATE": _("Remitido tarde"),
    "OVERDUE": _("Vencido sin remitir"),
    "PENDING": _("Pendiente (en término)"),
}


@dataclass(frozen=True)
class RemittanceRow:
    district: str
    resolution: str
    reference: str
    received_on: date
    collected: Decimal
    retained: Decimal
    remitted: Decimal
    due_on: date
    remitted_on: date | None
    status: str
    days_late: int

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS.get(self.status, self.status))


@dataclass(frozen=True)
class RemittanceReport:
    as_of: date
    rows: list[RemittanceRow]

    def _sum(self, attr: str, statuses: tuple[str, ...] | None = None) -> Decimal:
        return sum((getattr(r, attr) for r in self.rows if statuses is None or r.status in statuses), ZERO)

    @property
    def overdue(self) -> Decimal:
        return self._sum("remitted", ("OVERDUE",))

    @property
    def pending(self) -> Decimal:
        return self._sum("remitted", ("PENDING",))

    @property
    def late_count(self) -> int:
        return sum(1 for r in self.rows if r.status in ("REMITTED_LATE", "OVERDUE"))


def sid_remittances(*, start: date, end: date, district_id: int | None = None) -> RemittanceReport:
    """Batches received between `start` and `end`, their status as of `end`."""
    from districts.improvement.selectors import sid_remittance_report

    report = sid_remittance_report(today=end)
    rows = []
    for r in report["rows"]:
        b = r["batch"]
        if not (start <= b.received_on <= end):
            continue
        if district_id and b.resolution.district_id != district_id:
            continue
        rows.append(RemittanceRow(
            district=b.resolution.district.name, resolution=b.resolution.number, reference=b.reference,
            received_on=b.received_on, collected=b.collected, retained=b.retained, remitted=b.remitted,
            due_on=b.remittance_due_on, remitted_on=b.remitted_on, status=r["status"], days_late=r["days_late"]))
    return RemittanceReport(as_of=end, rows=rows)
