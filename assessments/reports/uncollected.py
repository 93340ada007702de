"""Uncollected amounts on a date: what every charge still owes (principal and accrued surcharge
posted), by district, fund and fiscal year. A roll's charges belong to the roll's district and year,
an improvement district's benefit charges to their billing run's district and year;
other charges (franchise invoices, opening balances) to the fiscal year they were issued in."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Sum
from django.utils.translation import gettext as _

from assessments.ledger.sources import source_origins
from assessments.models import Fund, LedgerEntry
from assessments.reports.scope import receivable_q
from core.fiscal import fiscal_year_of
from core.money import ZERO, sum_cents


@dataclass(frozen=True)
class UncollectedRow:
    district: str
    fund_name: str
    fiscal_year: int
    principal: Decimal
    surcharge: Decimal

    @property
    def total(self) -> Decimal:
        return self.principal + self.surcharge


@dataclass(frozen=True)
class UncollectedReport:
    as_of: date
    rows: list[UncollectedRow]

    @property
    def total(self) -> Decimal:
        return sum((r.total for r in self.rows), ZERO)


def uncollected(*, as_of: date, fund_code: str | None = None, district_id: int | None = None) -> UncollectedReport:
    entries = (LedgerEntry.objects.filter(receivable__isnull=False, effective_date__lte=as_of)
               .filter(receivable_q(fund_code=fund_code, district_id=district_id, prefix="receivable__"))
               .values("receivable__fund_id", "receivable__source_type", "receivable__issued_on", "component")
               .annotate(total=Sum("amount")))
    sums: dict[tuple, dict[str, Decimal]] = {}
    raw = list(entries)
    origins = source_origins(row["receivable__source_type"] for row in raw)
    for row in raw:
        origin = origins.get(row["receivable__source_type"])
        if origin is not None:
            key = (origin.district_name, row["receivable__fund_id"], origin.fiscal_year)
        else:
            key = (_("Sin distrito (franquicias, saldos iniciales)"), row["receivable__fund_id"],
                   fiscal_year_of(row["receivable__issued_on"]))
        d = sums.setdefault(key, {"PRINCIPAL": ZERO, "SURCHARGE": ZERO})
        d[row["component"]] += sum_cents(row["total"])
    funds = dict(Fund.objects.filter(pk__in={k[1] for k in sums}).values_list("pk", "name"))
    rows = [UncollectedRow(k[0], funds[k[1]], k[2], v["PRINCIPAL"], v["SURCHARGE"]) for k, v in sums.items()
            if v["PRINCIPAL"] or v["SURCHARGE"]]
    rows.sort(key=lambda r: (r.district, r.fund_name, r.fiscal_year))
    return UncollectedReport(as_of=as_of, rows=rows)
