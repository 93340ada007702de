"""Bonded irrigation districts: the yearly roll, rules IRR-1 … IRR-12 (docs/rules/irr.md).

Streaming, for rolls of a million parcels fed from a database cursor:

    rules = IrrigationRules.from_parameters(source, fiscal_year)
    plan = irrigation_plan(figures, ((p.id, p.acres) for p in ...), rules)   # pass 1: IRR-1, 2, 5
    tally = RollTally(plan)
    for charge in charges(plan, parcels, tally):                            # pass 2: IRR-4, 6, 8, 9
        ...                                                                  # one ParcelCharge at a time
    totals = tally.totals()                                                  # IRR-7

The plan keeps O(1) memory: the district acres, the total in cents and the threshold of the
largest-remainder ranking (core.money.CentApportionment), so pass 2 recomputes each share from
the parcel's own acres. Inside the loops amounts are integers — cents, acres in ten-thousandths,
rates in ten-thousandths of a dollar — so the only Decimal operation per parcel is reading its
acres; Decimals are made only when a caller reads `amount`, `share`, `total`. Breakdowns (`explain()`) are built on
demand from the few integers each line keeps.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from core.daycount import add_months
from core.fiscal import (
    fiscal_year_of,
    fiscal_year_start,
    month_index,
    period_label,
    previous_semester,
    semester_end,
    semester_of,
)
from core.money import CentApportionment, format_cents, plan_apportionment, round_half_up
from core.rule_parameters import ParameterSource, ParameterVersion

FREE, STUB, ANNUAL = "free", "stub", "annual"
SHARE, SCHEDULE = "share", "schedule"
FREE_PERIOD, WATER_BELOW_MINIMUM = "FREE_PERIOD", "WATER_BELOW_MINIMUM"

ACRE_SCALE = 10_000     # acres are carried as integer ten-thousandths (4 decimals, docs/rules/README.md#areas)
RATE_SCALE = 10_000     # schedule rates as integer ten-thousandths of a dollar per acre-year
# rate_units × acre_units is in cents × 10⁶; a share in cents is brought to the same scale by:
BOUND_SCALE = RATE_SCALE * ACRE_SCALE // 100
# Exact semester amounts are kept as integer numerators over one common denominator:
# annual semester = min(...) / (2 × BOUND_SCALE); stub = min(...) × days / (BOUND_SCALE × 365).
DENOMINATOR = 2 * BOUND_SCALE * 365

# Where each rule comes from (the bonded-irrigation law, paragraphs counted in the text as shipped).
CITATIONS = {
    "IRR-1": "Ley de Riego Público, párrafo 2: debt service + O&M certified by DTOP ± deficit/surplus − hydro and "
             "other income, plus 'cinco (5) por ciento del total como margen de seguridad'.",
    "IRR-2": "Ley de Riego Público, párrafo 2: hydroelectric income deducted 'hasta el tiempo en que la deuda total "
             "representada por bonos … se hubiere pagado'; DTOP may first retain 'una suma que no exceda del "
             "veinticinco por ciento (25%)'.",
    "IRR-3": "Ley de Riego Público, párrafo 2: bond amounts that cannot be paid from a year's assessment 'no se "
             "considerará como un déficit en ningún año subsiguiente'.",
    "IRR-4": "Ley de Riego Público, párrafo 3: 'Ningún predio … pagará cuota alguna hasta que hubiere recibido o se "
             "le hubiere ofrecido agua … por un período de doce (12) meses'.",
    "IRR-5": "Ley de Riego Público, párrafo 4: 'en la proporción que el área de dicho predio tuviere con el número "
             "total de acres comprendido en el predicho distrito'.",
    "IRR-6": "Ley de Riego Público, párrafo 5: $6 … $15 per acre and year by the year after the free period, and ¶4: "
             "'la cantidad máxima imponible' (lectura adoptada: la escala es el tope de la parte); stub due "
             "'el día primero del mes subsiguiente' (¶3).",
    "IRR-7": "Ley de Riego Público, párrafo 5: 'la Legislatura proveerá anualmente las cantidades que fueren "
             "necesarias'.",
    "IRR-8": "Ley de Riego Público, párrafos 5 a 6: no quota is paid unless the Irrigation Service's records show at "
             "least two (2) acre-feet per acre in the semesters required, until DTOP certifies every fundamental part "
             "built.",
    "IRR-9": "Ley de Riego Público, párrafo 5: the roll is finished by July 1; quotas fall due 'en la forma y fechas' "
             "of real-property taxes; semester amounts due Jul 1 and Jan 1.",
}


class IrrigationInputError(ValueError):
    """An input the rules refuse; `field` names the offending input (a JSON path for the API)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --------------------------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True, slots=True)
class IrrigationFigures:
    """The district's figures for one fiscal year (IRR-1, IRR-2, IRR-8)."""

    fiscal_year: int
    bond_interest: Decimal
    bond_principal: Decimal
    bonds_outstanding: Decimal
    om_cost: Decimal
    deficit: Decimal
    surplus: Decimal
    estimated_hydro_income: Decimal
    hydro_retained: Decimal
    other_income: Decimal
    completion_certified_on: date | None = None
    # IRR-3: bond amounts a year's assessment could not pay; reported on the roll, never a deficit.
    unpaid_bond_amounts: Decimal = Decimal("0.00")


@dataclass(frozen=True, slots=True)
class IrrigationParcel:
    """A parcel's irrigation facts. `water_af_per_acre` maps "FY2026-S1" → acre-feet per acre."""

    id: Hashable
    acres: Decimal
    free_period_end: date | None
    first_water_on: date | None = None
    water_af_per_acre: Mapping[str, Decimal] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class IrrigationRules:
    """The date-effective parameters in force for a roll (families irr_assessment, irr_schedule)."""

    margin_pct: Decimal
    hydro_retention_max_pct: Decimal
    water_minimum: Decimal
    stub_rate: Decimal
    rates: tuple[tuple[int, Decimal], ...]      # (from_year, rate per acre-year), ascending from year 1
    versions: tuple[ParameterVersion, ...] = ()

    @classmethod
    def from_parameters(cls, source: ParameterSource, fiscal_year: int) -> IrrigationRules:
        """The versions in force on the first day of `fiscal_year`."""
        on = fiscal_year_start(fiscal_year)
        assessment = source.get("irr_assessment", on)
        schedule = source.get("irr_schedule", on)
        rates = _rates_table(schedule)
        return cls(
            margin_pct=_param_decimal(assessment, "margin_pct"),
            hydro_retention_max_pct=_param_decimal(assessment, "hydro_retention_max_pct"),
            water_minimum=_param_decimal(assessment, "water_minimum_af_per_acre"),
            stub_rate=_param_decimal(schedule, "stub_rate"),
            rates=rates,
            versions=(assessment, schedule),
        )

    def rate_for_year(self, year: int) -> Decimal:
        """IRR-6: the ceiling per acre and year for year `year` (1-based) after the free period."""
        chosen = self.rates[0][1]
        for from_year, rate in self.rates:
            if from_year <= year:
                chosen = rate
        return chosen


def _param_decimal(version: ParameterVersion, key: str, container=None, path: str | None = None) -> Decimal:
    raw = (container if container is not None else version.values).get(key)
    where = f"parameters.{version.family}.{path or key}"
    if isinstance(raw, bool) or not isinstance(raw, (str, int, Decimal)):
        raise IrrigationInputError(where, "missing or not a number (write numbers as strings)")
    try:
        value = Decimal(str(raw).strip())
    except ArithmeticError:
        raise IrrigationInputError(where, f"not a number: {raw!r}") from None
    if not value.is_finite() or value < 0:
        raise IrrigationInputError(where, "must be a number ≥ 0")
    return value


def _rates_table(version: ParameterVersion) -> tuple[tuple[int, Decimal], ...]:
    rows = version.values.get("rates")
    where = f"parameters.{version.family}.rates"
    if not isinstance(rows, list) or not rows:
        raise IrrigationInputError(where, "a non-empty list of {from_year, rate}")
    table = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise IrrigationInputError(f"{where}[{i}]", "an object {from_year, rate}")
        year = row.get("from_year")
        if isinstance(year, str) and year.strip().isdigit():
            year = int(year)
        if isinstance(year, bool) or not isinstance(year, int) or year < 1:
            raise IrrigationInputError(f"{where}[{i}].from_year", "a whole number ≥ 1")
        if table and year <= table[-1][0]:
            raise IrrigationInputError(f"{where}[{i}].from_year", "years must ascend")
        table.append((year, _param_decimal(version, "rate", row, f"rates[{i}].rate")))
    if table[0][0] != 1:
        raise IrrigationInputError(f"{where}[0].from_year", "the table must start at year 1")
    return tuple(table)


def _rate_units(rate: Decimal, where: str) -> int:
    scaled = rate * RATE_SCALE
    if scaled != scaled.to_integral_value():
        raise IrrigationInputError(where, "a rate may have at most 4 decimals")
    return int(scaled)


def acre_units(acres: Decimal) -> int:
    """Acres as integer ten-thousandths; refuses more than 4 decimals (docs/rules/README.md#areas)."""
    scaled = acres * ACRE_SCALE
    units = int(scaled)
    if units != scaled:
        raise IrrigationInputError("acres", f"at most 4 decimals: {acres}")
    return units


def _decimal_from_units(units: int, scale: int) -> Decimal:
    """Exact Decimal of units/scale, trailing zeros dropped ("188.75", "40")."""
    value = Decimal(units) / scale
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value.normalize()


# --------------------------------------------------------------------------------------------
# IRR-1, IRR-2: the total to assess


@dataclass(frozen=True, slots=True)
class Assessment:
    """IRR-1/IRR-2 figures of a roll."""

    hydro_income_certified: Decimal
    hydro_income_deducted: Decimal
    base: Decimal
    margin: Decimal
    total: Decimal
    surplus_carried: Decimal


def check_figures(figures: IrrigationFigures, rules: IrrigationRules) -> None:
    """Refuse figures the rules exclude (IRR-1 one of deficit/surplus is 0; IRR-2 retention cap)."""
    for name in ("bond_interest", "bond_principal", "bonds_outstanding", "om_cost", "deficit", "surplus",
                 "estimated_hydro_income", "hydro_retained", "other_income", "unpaid_bond_amounts"):
        if getattr(figures, name) < 0:
            raise IrrigationInputError(name, "must not be negative")
    if figures.deficit and figures.surplus:
        raise IrrigationInputError("surplus", "deficit and surplus cannot both be non-zero (IRR-1)")
    cap = figures.estimated_hydro_income * rules.hydro_retention_max_pct / 100
    if figures.hydro_retained > cap:
        raise IrrigationInputError(
            "hydro_retained",
            f"at most {rules.hydro_retention_max_pct} % of estimated_hydro_income ({round_half_up(cap)}) (IRR-2)")


def assess(figures: IrrigationFigures, rules: IrrigationRules) -> Assessment:
    """IRR-1 total assessment, with IRR-2's hydroelectric income.

    base = debt service + O&M + deficit − surplus − hydro (while bonds remain) − other income;
    margin = round_half_up(base × 5 %); a negative base assesses 0 and is carried as surplus.
    """
    check_figures(figures, rules)
    certified = figures.estimated_hydro_income - figures.hydro_retained
    deducted = certified if figures.bonds_outstanding > 0 else Decimal("0.00")
    base = (figures.bond_interest + figures.bond_principal + figures.om_cost + figures.deficit
            - figures.surplus - deducted - figures.other_income)
    zero = Decimal("0.00")
    if base < 0:
        return Assessment(round_half_up(certified), round_half_up(deducted), round_half_up(base), zero, zero,
                          round_half_up(-base))
    margin = round_half_up(base * rules.margin_pct / 100)
    return Assessment(round_half_up(certified), round_half_up(deducted), round_half_up(base), margin,
                      round_half_up(base + margin), zero)


# --------------------------------------------------------------------------------------------
# The plan (pass 1)


@dataclass(frozen=True, slots=True)
class _Semester:
    number: int            # 1 or 2
    label: str             # "FY2027-S1"
    start: date
    next_start: date       # exclusive end
    start_month: int       # month_index(start)


class IrrigationPlan:
    """Everything pass 2 needs, in O(1) memory: figures, rules, assessment, apportionment threshold."""

    __slots__ = ("figures", "rules", "assessment", "district_acre_units", "parcel_count", "apportionment",
                 "semesters", "_rate_table", "_stub_rate_units", "_water_labels")

    def __init__(self, figures: IrrigationFigures, rules: IrrigationRules, assessment: Assessment,
                 apportionment: CentApportionment) -> None:
        self.figures = figures
        self.rules = rules
        self.assessment = assessment
        self.apportionment = apportionment
        self.district_acre_units = apportionment.weight_sum
        self.parcel_count = apportionment.count
        fy = figures.fiscal_year
        s1, s2, s3 = date(fy - 1, 7, 1), date(fy, 1, 1), date(fy, 7, 1)
        self.semesters = (_Semester(1, period_label(fy, 1), s1, s2, month_index(s1)),
                          _Semester(2, period_label(fy, 2), s2, s3, month_index(s2)))
        # Year n's rate for n = 1 … last listed year; later years use the last entry.
        last_year = rules.rates[-1][0]
        self._rate_table = [0] + [_rate_units(rules.rate_for_year(n), "parameters.irr_schedule.rates")
                                  for n in range(1, last_year + 1)]
        self._stub_rate_units = _rate_units(rules.stub_rate, "parameters.irr_schedule.stub_rate")
        self._water_labels: dict[date, tuple[tuple[str, ...], tuple[str, ...]]] = {}

    @property
    def district_acres(self) -> Decimal:
        return _decimal_from_units(self.district_acre_units, ACRE_SCALE)

    def rate_units(self, year: int) -> int:
        """IRR-6 ceiling for year `year`, in ten-thousandths of a dollar per acre-year."""
        table = self._rate_table
        return table[year] if year < len(table) else table[-1]

    def water_labels(self, due: date) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """IRR-8 semesters to check for a charge due on `due`: ((a) labels, (b) labels). Cached per date.

        (a) water for more than a whole FY before D: S1 and S2 of FY(D) − 1; when D is a July 1 the
            first-semester condition counts as met (the bonded-irrigation law ¶6), so only S2.
        (b) otherwise: the last semester that ended more than one month before D.
        """
        found = self._water_labels.get(due)
        if found is None:
            found = water_reference_labels(due)
            self._water_labels[due] = found
        return found


def water_reference_labels(due: date) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """IRR-8's semesters for a charge due on `due` (IrrigationPlan.water_labels, uncached): also read
    by the roll page, which warns when those semesters have no water records."""
    prior = fiscal_year_of(due) - 1
    a = ((period_label(prior, 2),) if (due.month == 7 and due.day == 1)
         else (period_label(prior, 1), period_label(prior, 2)))
    return a, (period_label(*_last_semester_ended_month_before(due)),)


def _last_semester_ended_month_before(due: date) -> tuple[int, int]:
    """(FY, semester) of the last semester whose last day + 1 month is before `due` (IRR-8 b)."""
    fy, sem = semester_of(due)
    for _ in range(3):
        fy, sem = previous_semester(fy, sem)
        if add_months(semester_end(fy, sem), 1) < due:
            return fy, sem
    raise AssertionError("unreachable: a semester is longer than a month")


def irrigation_plan(figures: IrrigationFigures, weights: Iterable[tuple[Hashable, Decimal]],
                    rules: IrrigationRules) -> IrrigationPlan:
    """Pass 1 over (parcel id, acres): IRR-1/2 total and IRR-5's apportionment of shares.

    The denominator is every acre included in the district, liable or not (IRR-5). Ids must be
    mutually comparable (ties on the remainder go to the larger acreage, then the lower id).
    """
    assessment = assess(figures, rules)
    total_cents = int(assessment.total * 100)

    try:
        apportionment = plan_apportionment(total_cents, weights, scale=ACRE_SCALE)
    except ValueError as exc:
        raise IrrigationInputError("parcels", f"acres: {exc}") from None
    return IrrigationPlan(figures, rules, assessment, apportionment)


# --------------------------------------------------------------------------------------------
# Outputs


@dataclass(slots=True)
class ChargeLine:
    """One semester of a parcel's roll entry (IRR-4 free, IRR-6 stub/annual, IRR-8 exempt).

    `amount_cents` is the integer truth and `amount` its Decimal view. The last fields keep what
    `explain()` needs to build the breakdown (rule, citation, inputs, intermediates) on demand:
    no dict is built per line unless asked, and the line holds no reference back to its charge.
    """

    period: str
    kind: str
    year: int | None
    basis: str | None
    due_date: date
    amount_cents: int
    exempt_reason: str | None
    rule: str
    exact: int = 0                    # exact amount (0 for free lines), a numerator over DENOMINATOR
    rate_units: int = 0               # schedule rate applied, in ten-thousandths of a dollar per acre-year
    days: int = 0                     # stub days
    water_branch: str | None = None   # IRR-8 test applied: "a", "b", or None (not applied)
    parcel: IrrigationParcel | None = field(default=None, repr=False, compare=False)
    plan: IrrigationPlan | None = field(default=None, repr=False, compare=False)

    @property
    def amount(self) -> Decimal:
        return Decimal(self.amount_cents).scaleb(-2)

    @property
    def citation(self) -> str:
        return CITATIONS[self.rule]

    def explain(self) -> dict:
        return _explain_line(self)


@dataclass(slots=True)
class ParcelCharge:
    """A parcel's entry on the roll: IRR-5 share, the lines of the fiscal year and their total.

    The lines are held as `rows`, plain tuples of ints, strings and dates (the ChargeLine fields
    in order, without parcel and plan), which the garbage collector stops tracking: a caller
    that keeps a million charges does not make every collection walk millions of line objects.
    `lines` builds the ChargeLine objects from them when read.
    """

    id: Hashable
    acre_units: int
    share_cents: int
    total_cents: int
    rows: tuple[tuple, ...]
    parcel: IrrigationParcel = field(repr=False, compare=False)
    plan: IrrigationPlan = field(repr=False, compare=False)

    @property
    def lines(self) -> tuple[ChargeLine, ...]:
        parcel, plan = self.parcel, self.plan
        return tuple(ChargeLine(*row, parcel, plan) for row in self.rows)

    @property
    def acres(self) -> Decimal:
        return _decimal_from_units(self.acre_units, ACRE_SCALE)

    @property
    def share(self) -> Decimal:
        return Decimal(self.share_cents).scaleb(-2)

    @property
    def total(self) -> Decimal:
        return Decimal(self.total_cents).scaleb(-2)

    def explain(self) -> dict:
        plan = self.plan
        exact_floor, remainder = plan.apportionment.exact(self.acre_units)
        return {
            "rule": "IRR-5", "citation": CITATIONS["IRR-5"],
            "inputs": {"id": self.id, "acres": str(self.acres), "district_acres": str(plan.district_acres),
                       "total": str(plan.assessment.total)},
            "intermediates": {"exact_share_cents": f"{exact_floor} + {remainder}/{plan.apportionment.weight_sum}",
                              "extra_cent": self.share_cents - exact_floor, "share": format_cents(self.share_cents)},
            "lines": [line.explain() for line in self.lines],
        }


@dataclass(slots=True)
class RollTotals:
    """Roll-level figures (IRR-1, IRR-2, IRR-5, IRR-7)."""

    fiscal_year: int
    hydro_income_certified: Decimal
    hydro_income_deducted: Decimal
    base: Decimal
    margin: Decimal
    total: Decimal
    surplus_carried: Decimal
    district_acres: Decimal
    parcel_count: int
    shares_total: Decimal
    billed_total: Decimal
    appropriation_needed: Decimal       # IRR-7: total − billed; negative = excess
    exempt_lines: dict[str, int]
    unpaid_bond_amounts: Decimal        # IRR-3: shown apart, never part of a later deficit


class RollTally:
    """Running sums over a stream of ParcelCharge (IRR-7 needs the whole roll's billed total)."""

    __slots__ = ("plan", "count", "shares_cents", "billed_cents", "exempt")

    def __init__(self, plan: IrrigationPlan) -> None:
        self.plan = plan
        self.count = 0
        self.shares_cents = 0
        self.billed_cents = 0
        self.exempt = {FREE_PERIOD: 0, WATER_BELOW_MINIMUM: 0}

    def add(self, charge: ParcelCharge) -> None:
        self.count += 1
        self.shares_cents += charge.share_cents
        self.billed_cents += charge.total_cents
        for row in charge.rows:
            if row[6] is not None:          # exempt_reason
                self.exempt[row[6]] += 1

    def totals(self) -> RollTotals:
        plan, a = self.plan, self.plan.assessment
        total_cents = int(a.total * 100)
        return RollTotals(
            fiscal_year=plan.figures.fiscal_year, hydro_income_certified=a.hydro_income_certified,
            hydro_income_deducted=a.hydro_income_deducted, base=a.base, margin=a.margin, total=a.total,
            surplus_carried=a.surplus_carried, district_acres=plan.district_acres, parcel_count=self.count,
            shares_total=Decimal(self.shares_cents).scaleb(-2), billed_total=Decimal(self.billed_cents).scaleb(-2),
            appropriation_needed=Decimal(total_cents - self.billed_cents).scaleb(-2), exempt_lines=dict(self.exempt),
            unpaid_bond_amounts=plan.figures.unpaid_bond_amounts)


# --------------------------------------------------------------------------------------------
# Pass 2: one parcel at a time


def charges(plan: IrrigationPlan, parcels: Iterable[IrrigationParcel],
            tally: RollTally | None = None) -> Iterator[ParcelCharge]:
    """Pass 2: yield each parcel's ParcelCharge (IRR-4, IRR-6, IRR-8, IRR-9), in input order.

    `parcels` must be the parcels pass 1 weighed (same ids and acres); when the stream ends
    the shares are checked to add up to the total, to the cent.
    """
    make = _charge_maker(plan)
    shares = count = 0
    add = tally.add if tally is not None else None
    for parcel in parcels:
        charge = make(parcel)
        shares += charge.share_cents
        count += 1
        if add is not None:
            add(charge)
        yield charge
    expected = plan.apportionment.total_cents if plan.apportionment.weight_sum else 0
    if count == plan.parcel_count and shares != expected:
        raise IrrigationInputError("parcels", "the parcels differ from those the plan was built on (shares "
                                   f"add up to {format_cents(shares)}, not {format_cents(expected)})")


def parcel_charge(plan: IrrigationPlan, parcel: IrrigationParcel) -> ParcelCharge:
    """One parcel's roll entry (IRR-4, IRR-5, IRR-6, IRR-8, IRR-9)."""
    return _charge_maker(plan)(parcel)


def _charge_maker(plan: IrrigationPlan):
    """The per-parcel rule kernel, with the plan's constants bound once (this runs a million times).

    Integers only: acres in ten-thousandths, shares in cents, exact amounts as numerators over
    DENOMINATOR; no Decimal arithmetic and no attribute lookups on the plan inside the loop.
    """
    appor = plan.apportionment
    total_cents, weight_sum, threshold = appor.total_cents, appor.weight_sum, appor._threshold
    semesters = plan.semesters
    rate_table = plan._rate_table
    last_year = len(rate_table) - 1
    stub_rate = plan._stub_rate_units
    completion = plan.figures.completion_certified_on
    minimum = plan.rules.water_minimum
    water_cache = plan._water_labels
    water_labels = plan.water_labels
    free_rows = tuple((sem.label, FREE, None, None, sem.start, 0, FREE_PERIOD, "IRR-4", 0, 0, 0, None)
                      for sem in semesters)

    def make(parcel: IrrigationParcel) -> ParcelCharge:
        pid = parcel.id
        scaled = parcel.acres * ACRE_SCALE
        a = int(scaled)
        if a != scaled or a < 0:
            raise IrrigationInputError("acres", f"an area ≥ 0 with at most 4 decimals: {parcel.acres}")
        # IRR-5: floor of the exact share, plus the extra cent when within the largest-remainder threshold.
        if weight_sum:
            share, r = divmod(total_cents * a, weight_sum)
            if threshold is not None and (r > threshold[0] or (r == threshold[0] and (
                    a > threshold[1] or (a == threshold[1] and (threshold[2] is None or pid <= threshold[2]))))):
                share += 1
        else:
            share = 0
        end = parcel.free_period_end
        if end is None:
            # IRR-4: unknown free-period end = not yet liable.
            return ParcelCharge(pid, a, share, 0, free_rows, parcel, plan)
        lines = []

        # IRR-6: year 1 starts at the first semester start on or after E.
        e_year, e_month, e_day = end.year, end.month, end.day
        if e_day == 1 and (e_month == 7 or e_month == 1):
            year1 = e_year * 12 + e_month - 1
        else:
            year1 = e_year * 12 + 6 if e_month < 7 else (e_year + 1) * 12
        # IRR-8 (a) asks whether first_water_on + 1 year < D; first_water_on defaults to E − 1 year.
        first_water = parcel.first_water_on
        if first_water is None:
            water_after_year = end if not (e_month == 2 and e_day == 29) else date(e_year, 2, 28)
        else:
            water_after_year = add_months(first_water, 12)
        share_bound = share * BOUND_SCALE
        cumulative = billed = 0
        for sem in semesters:
            if end >= sem.next_start:
                lines.append((sem.label, FREE, None, None, sem.start, 0, FREE_PERIOD, "IRR-4", 0, 0, 0, None))
                continue
            if end > sem.start:
                # Stub: from E to the next semester start, at the stub rate, actual days over 365;
                # due the first day of the month after the twelve months ended (month after E − 1 day).
                kind, year, days, rate = STUB, None, (sem.next_start - end).days, stub_rate
                due = end if e_day == 1 else (date(e_year + 1, 1, 1) if e_month == 12
                                              else date(e_year, e_month + 1, 1))
                bound = rate * a
                exact = (share_bound if share_bound <= bound else bound) * days * 2
            else:
                kind, days, due = ANNUAL, 0, sem.start
                year = (sem.start_month - year1) // 12 + 1
                rate = rate_table[year if year <= last_year else last_year]
                bound = rate * a
                exact = (share_bound if share_bound <= bound else bound) * 365
            basis = SCHEDULE if bound < share_bound else SHARE
            branch = None
            if completion is None or completion > due:
                # IRR-8: water-delivery exemption, until DTOP certifies the system complete.
                labels_ab = water_cache.get(due) or water_labels(due)
                if water_after_year < due:
                    branch, labels = "a", labels_ab[0]
                else:
                    branch, labels = "b", labels_ab[1]
                water = parcel.water_af_per_acre
                for label in labels:
                    got = water.get(label)
                    if got is None or got < minimum:
                        lines.append((sem.label, kind, year, basis, due, 0, WATER_BELOW_MINIMUM, "IRR-8",
                                      exact, rate, days, branch))
                        break
                else:
                    labels = None
                if labels is not None:
                    continue
            # Cumulative rounding within the fiscal year: a year never bills more than its exact amount.
            cumulative += exact
            amount = (2 * cumulative + DENOMINATOR) // (2 * DENOMINATOR) - billed
            billed += amount
            lines.append((sem.label, kind, year, basis, due, amount, None, "IRR-6", exact, rate, days, branch))
        return ParcelCharge(pid, a, share, billed, tuple(lines), parcel, plan)

    return make


# --------------------------------------------------------------------------------------------
# Breakdowns, on demand


def _exact_text(numerator: int) -> str:
    """An exact amount held over DENOMINATOR, as a decimal string of dollars (8 places, not rounded away)."""
    value = Decimal(numerator) / (DENOMINATOR * 100)
    return f"{value:.8f}"


def _explain_line(line: ChargeLine) -> dict:
    plan, parcel = line.plan, line.parcel
    if plan is None or parcel is None:
        raise ValueError("this line was not produced by the engine: nothing to explain")
    a = acre_units(parcel.acres)
    share = plan.apportionment.cents(parcel.id, a)
    out = {
        "rule": line.rule, "citation": line.citation, "period": line.period, "kind": line.kind,
        "inputs": {
            "acres": str(_decimal_from_units(a, ACRE_SCALE)), "share": format_cents(share),
            "free_period_end": parcel.free_period_end.isoformat() if parcel.free_period_end else None,
            "first_water_on": parcel.first_water_on.isoformat() if parcel.first_water_on else None,
            "first_water_on_used": ((parcel.first_water_on or add_months(parcel.free_period_end, -12)).isoformat()
                                    if parcel.free_period_end else None),
            "completion_certified_on": (plan.figures.completion_certified_on.isoformat()
                                        if plan.figures.completion_certified_on else None),
        },
        "parameters": [v.label() for v in plan.rules.versions],
    }
    if line.kind == FREE:
        out["intermediates"] = {"reason": "before the free-period end (IRR-4)" if parcel.free_period_end
                                else "free-period end unknown: not yet liable (IRR-4)"}
        return out
    exact, rate, days, branch = line.exact, line.rate_units, line.days, line.water_branch
    rate_dollars = Decimal(rate) / RATE_SCALE
    per = days * 2 if line.kind == STUB else 365   # numerators over DENOMINATOR: see the module constants
    inter = {
        "year": line.year,
        "rate_per_acre_year": str(rate_dollars.normalize()),
        "share_bound": _exact_text(share * BOUND_SCALE * per),
        "schedule_bound": _exact_text(rate * a * per),
        "basis": line.basis,
        "formula": ("min(share, stub_rate × acres) × days / 365" if line.kind == STUB
                    else "min(share / 2, rate / 2 × acres)"),
        "exact": _exact_text(exact),
        "amount": format_cents(line.amount_cents),
        "rounding": "cumulative within the fiscal year: round_half_up(Σ exact so far) − billed so far",
    }
    if line.kind == STUB:
        inter["days"] = days
    if branch is not None:
        labels_a, labels_b = plan.water_labels(line.due_date)
        labels = labels_a if branch == "a" else labels_b
        water = parcel.water_af_per_acre
        inter["water_check"] = {
            "rule": "IRR-8", "citation": CITATIONS["IRR-8"],
            "branch": ("(a) water for more than a whole fiscal year before the due date" if branch == "a"
                       else "(b) the last semester ended more than a month before the due date"),
            "minimum_af_per_acre": str(plan.rules.water_minimum),
            "semesters": {label: (str(water[label]) if label in water else None) for label in labels},
            "met": line.exempt_reason is None,
        }
    else:
        inter["water_check"] = "not applied: completion certified on or before the due date (IRR-8)"
    out["intermediates"] = inter
    return out
