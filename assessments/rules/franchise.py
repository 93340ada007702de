"""FRA-1 to FRA-4: water extraction franchise tariffs (the water regulation, secs. 8.13-8.15; docs/rules/franchises.md).

FRA-1 derives the tariff class from source and use and prices the authorized volume; FRA-2
lists the exemptions; FRA-3 splits the annual tariff into installments, bills metered fresh
groundwater monthly and prorates a first partial year; FRA-4 splits collections between the
AAA and the special fund. Rates are parameters (`fra_tariffs`), never constants here.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from core.daycount import add_days, days_inclusive
from core.money import ZERO, round_half_up, split_halves

SOURCES = ("SURFACE", "GROUNDWATER", "ARTESIAN", "BRACKISH")
USES = ("DOMESTIC", "INSTITUTIONAL", "GOVERNMENTAL", "RECREATIONAL", "RECREATION_BUSINESS", "INDUSTRIAL_COMMERCIAL")
# A recreation business pays the commercial tariff (sec. 8.13 c.4).
COMMERCIAL_USES = frozenset({"INDUSTRIAL_COMMERCIAL", "RECREATION_BUSINESS"})
CLASSES = ("GROUND_INDUSTRIAL", "BRACKISH", "DOMESTIC", "INSTITUTIONAL", "GOVERNMENTAL", "RECREATIONAL",
           "SURFACE_INDUSTRIAL", "ARTESIAN")
# FRA-2 (sec. 8.13 d and the opening of 8.13): no tariff for these.
EXEMPTIONS = {
    "AGRICULTURAL": "sec. 8.13 d: usos agrícolas",
    "LIVESTOCK": "sec. 8.13 d: usos pecuarios",
    "AGROINDUSTRIAL": "sec. 8.13 d: usos agroindustriales",
    "PREPA": "sec. 8.13 d: Autoridad de Energía Eléctrica",
    "AAA": "sec. 8.13 d: Autoridad de Acueductos y Alcantarillados",
    "ACQUIRED_RIGHT": "sec. 8.13 d: derechos de propiedad sobre caudales adquiridos al amparo de la legislación "
                      "anterior",
    "RAINWATER": "sec. 8.13 d: agua de lluvia (secs. 2.3 y 8.2)",
    "RECYCLED": "sec. 8.13 d: reciclaje de aguas aprovechadas (secs. 2.3 y 8.2)",
    "ARTICLE_12": "sec. 8.13: franquicias exentas por el Artículo 12 de la Ley de Aguas",
    "SECTION_2_12": "sec. 8.13 d: casos eximidos conforme a la sección 2.12 (resolución)",
}
PLANS = ("ANNUAL", "SEMIANNUAL")
MG = Decimal(1_000_000)


def tariff_class(source: str, use: str) -> str:
    """FRA-1: the class, following the exceptions written into the tariffs, in the order
    docs/rules/franchises.md gives."""
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}")
    if use not in USES:
        raise ValueError(f"unknown use {use!r}")
    commercial = use in COMMERCIAL_USES
    if source == "BRACKISH":
        return "BRACKISH"  # 8.13 b
    if source in ("GROUNDWATER", "ARTESIAN") and commercial:
        return "GROUND_INDUSTRIAL"  # 8.13 a: artesian water is groundwater; c.6 excludes 8.13 a
    if use == "DOMESTIC":
        return "DOMESTIC"  # c.6 excludes c.1, so domestic use of artesian water pays c.1
    if source == "ARTESIAN":
        return "ARTESIAN"  # c.3 excludes c.6: a municipality drawing artesian water pays c.6
    if commercial:
        return "SURFACE_INDUSTRIAL"  # c.5, surface water only
    return use  # INSTITUTIONAL, GOVERNMENTAL, RECREATIONAL


@dataclass(frozen=True)
class Tariff:
    """One class's tariff: metered (`per_gallon`) or on the authorized volume."""

    code: str
    per_mg: Decimal = ZERO
    fixed: Decimal = ZERO
    minimum: Decimal | None = None  # the whole tariff when less than 1 MG a year is authorized
    per_gallon: Decimal | None = None
    citation: str = ""

    @property
    def metered(self) -> bool:
        return self.per_gallon is not None


def tariffs_from_parameters(values: Mapping) -> dict[str, Tariff]:
    """Tariffs of an `fra_tariffs` parameter version, by class code."""
    def dec(raw: Mapping, key: str) -> Decimal | None:
        return Decimal(raw[key]) if raw.get(key) is not None else None

    tariffs = {}
    for code, raw in values["classes"].items():
        tariffs[code] = Tariff(code=code, per_mg=dec(raw, "per_mg") or ZERO, fixed=dec(raw, "fixed") or ZERO,
                               minimum=dec(raw, "minimum"), per_gallon=dec(raw, "per_gallon"),
                               citation=raw.get("citation", ""))
    return tariffs


def annual_tariff(tariff: Tariff, authorized_gallons: Decimal) -> Decimal:
    """FRA-1: the annual tariff on the authorized volume.

    Reading chosen (docs/rules/franchises.md, FRA-1): "por cada millón" is a rate, so fractional
    millions are prorated to the
    gallon; the amount is rounded half-up once. Below 1 MG the minimum is the whole tariff.
    """
    if tariff.metered:
        raise ValueError(f"{tariff.code} is billed on metered extraction, not on the authorized volume")
    if tariff.minimum is not None and authorized_gallons < MG:
        return round_half_up(tariff.minimum)
    return round_half_up(tariff.fixed + tariff.per_mg * authorized_gallons / MG)


def monthly_bill(tariff: Tariff, gallons_extracted: Decimal) -> Decimal:
    """FRA-3 (sec. 8.14 b): a month's metered bill, gallons extracted times the rate, rounded half-up."""
    if not tariff.metered:
        raise ValueError(f"{tariff.code} is not a metered tariff")
    return round_half_up(gallons_extracted * tariff.per_gallon)


def installments(annual: Decimal, plan: str) -> tuple[Decimal, ...]:
    """FRA-3 (sec. 8.14 a): paid in advance, once (July 1) or in halves (July 1 and January 1)."""
    if plan == "ANNUAL":
        return (annual,)
    if plan == "SEMIANNUAL":
        return split_halves(annual)
    raise ValueError(f"unknown payment plan {plan!r}")


def installment_due_dates(fiscal_year: int, plan: str) -> tuple[date, ...]:
    """FRA-3 Decision: the billing year is the FY (FY2027 starts 2026-07-01)."""
    first = date(fiscal_year - 1, 7, 1)
    return (first,) if plan == "ANNUAL" else (first, date(fiscal_year, 1, 1))


def prorate(annual: Decimal, days: int, days_in_year: int) -> Decimal:
    """FRA-3 Decision: `days` of a fiscal year of `days_in_year` days at an annual tariff,
    rounded half-up once (a negative `annual` is a rate difference: a credit)."""
    if days_in_year <= 0 or days < 0 or days > days_in_year:
        raise ValueError(f"{days} days of a {days_in_year}-day year")
    return round_half_up(annual * days / days_in_year)


def billing_period(*, fy_start: date, fy_end: date, issue_date: date, expiry_date: date) -> tuple[date, date] | None:
    """FRA-3 Decision (sec. 8.14 a): the days of a fiscal year the authorization covers, from the
    later of July 1 and the issue date to the earlier of June 30 and the expiry date (both days
    counted: a franchise "vence" at the end of its expiry date). None when they do not meet."""
    start, end = max(fy_start, issue_date), min(fy_end, expiry_date)
    return (start, end) if start <= end else None


def uncovered(period: tuple[date, date], covered: Sequence[tuple[date, date]]) -> list[tuple[date, date]]:
    """The parts of `period` no interval of `covered` touches (a renewal never bills a day already
    billed to the franchise it renews, FRA-3 in docs/rules/franchises.md), in date order."""
    gaps = [period]
    for c_start, c_end in sorted(covered):
        out = []
        for g_start, g_end in gaps:
            if c_end < g_start or c_start > g_end:
                out.append((g_start, g_end))
                continue
            if g_start < c_start:
                out.append((g_start, add_days(c_start, -1)))
            if c_end < g_end:
                out.append((add_days(c_end, 1), g_end))
        gaps = out
    return gaps


def first_year_amount(annual: Decimal, issued_on: date) -> Decimal:
    """FRA-3 Decision: a franchise issued mid-year pays its first FY pro rata by days.

    Days from `issued_on` (inclusive) to June 30 (inclusive) over the FY's days (365 or 366).
    """
    fy_end = date(issued_on.year + (1 if issued_on.month >= 7 else 0), 6, 30)
    fy_start = date(fy_end.year - 1, 7, 1)
    return prorate(annual, days_inclusive(issued_on, fy_end), days_inclusive(fy_start, fy_end))


def last_year_amount(annual: Decimal, expiry_date: date) -> Decimal:
    """FRA-3 Decision: an authorization that ends mid-year pays its last FY pro rata by days,
    like the first: July 1 to the expiry date (both counted) over the FY's days."""
    fy_start = date(expiry_date.year - (0 if expiry_date.month >= 7 else 1), 7, 1)
    fy_end = date(fy_start.year + 1, 6, 30)
    return prorate(annual, days_inclusive(fy_start, expiry_date), days_inclusive(fy_start, fy_end))


@dataclass(frozen=True)
class FundSplit:
    collected: Decimal
    transferred: Decimal  # to the AAA
    retained: Decimal  # stays in the special fund


def fund_split(collected_by_class: Mapping[str, Decimal], transfer_pct: Decimal,
               transfer_classes: Sequence[str]) -> dict[str, FundSplit]:
    """FRA-4 (sec. 8.15): per class and period, the AAA's share of GROUND_INDUSTRIAL collections.

    The percentage is applied to the period's total and rounded half-up once (docs/rules/README.md#money).
    """
    result = {}
    for code, collected in collected_by_class.items():
        transferred = round_half_up(collected * transfer_pct / 100) if code in transfer_classes else ZERO
        result[code] = FundSplit(collected=collected, transferred=transferred, retained=collected - transferred)
    return result


@dataclass(frozen=True)
class FranchiseTariff:
    tariff_class: str
    exempt_reason: str | None
    annual_tariff: Decimal
    installments: tuple[Decimal, ...]
    monthly_bills: tuple[Decimal, ...]
    rules: tuple[str, ...]


def assess(source: str, use: str, tariffs: Mapping[str, Tariff], *, authorized_gallons: Decimal | None = None,
           monthly_gallons: Sequence[Decimal] = (), plan: str = "ANNUAL",
           exempt_reason: str | None = None) -> FranchiseTariff:
    """FRA-1 to FRA-3 for one franchise and one year.

    An exempt franchise (FRA-2) keeps its class and pays nothing. A metered class bills each
    month given and its annual tariff is the sum of those bills.
    """
    code = tariff_class(source, use)
    if exempt_reason is not None:
        if exempt_reason not in EXEMPTIONS:
            raise ValueError(f"unknown exemption {exempt_reason!r}")
        return FranchiseTariff(code, exempt_reason, ZERO, (), (), ("FRA-1", "FRA-2"))
    tariff = tariffs[code]
    if tariff.metered:
        bills = tuple(monthly_bill(tariff, g) for g in monthly_gallons)
        return FranchiseTariff(code, None, sum(bills, ZERO), (), bills, ("FRA-1", "FRA-3"))
    if authorized_gallons is None:
        raise ValueError(f"{code} needs the authorized volume")
    annual = annual_tariff(tariff, authorized_gallons)
    return FranchiseTariff(code, None, annual, installments(annual, plan), (), ("FRA-1", "FRA-3"))
