"""Lajas Valley irrigation district, O&M contribution: rules LAJ-1 … LAJ-7 (docs/rules/lajas.md).

Streaming like the IRR engine (see assessments.rules.irrigation):

    rules = LajasRules.from_parameters(source, fiscal_year_start(fy))
    plan = lajas_plan(figures, ((p.id, p.gravity_acres, p.pumped_acres) for p in ...), rules)  # LAJ-1/2/3
    tally = RollTally(plan)
    for row in contributions(plan, parcels, tally):       # LAJ-3/4/5/6, one parcel at a time
        ...
    totals = tally.totals()

Weights are integers: (gravity + pumped × pumped_factor) in ten-thousandths of an acre, scaled
by the factor's denominator (2 for 50 %), so the apportionment of gross contributions is exact
and holds no per-parcel state. LAJ-4's balancing factor (`balancing_water_right_credits`) and
LAJ-7's surcharge (`surcharge`, `portions_surcharge`) are plain functions.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Context, Decimal
from fractions import Fraction

from core.daycount import add_months
from core.fiscal import fiscal_year_start
from core.money import CentApportionment, format_cents, plan_apportionment, round_half_up, round_half_up_div
from core.rule_parameters import ParameterSource, ParameterVersion

NOT_YET_LIABLE = "NOT_YET_LIABLE"
ACRE_SCALE = 10_000         # acres as integer ten-thousandths (4 decimals)
RATE_PLACES = Decimal("0.0001")
_EXACT = Context(prec=60)   # for the few roll-level divisions, so nothing rounds before the final half-up

# Where each rule comes from (the Lajas Valley law, paragraphs counted in the text as shipped).
CITATIONS = {
    "LAJ-1": "Ley del Sistema de Riego del Valle de Lajas, párrafos 1 a 6: O&M estimate (1) + reserve up to 2 % (2) + "
             "water-right credits (3) ± deficit/surplus of the 'Fondo de Explotación' − miscellaneous income, plus "
             "'el dos por ciento (2%) … como margen de seguridad'.",
    "LAJ-2": "Ley del Sistema de Riego del Valle de Lajas, párrafo 8: gravity acres plus 'el 50% de área total en "
             "acres' of land watered by the owners' pumps; ¶7: Commonwealth land pays like any other.",
    "LAJ-3": "Ley del Sistema de Riego del Valle de Lajas, párrafo 9: the total divided by those acres is the gravity "
             "rate per acre; 50 % of it the pumped rate.",
    "LAJ-4": "Ley del Sistema de Riego del Valle de Lajas, párrafos 10 y 12: the credit is the percentage the "
             "Authority fixed for a ceded water right, deducted on the roll and shown on the receipt.",
    "LAJ-5": "Ley del Sistema de Riego del Valle de Lajas, párrafos 11 y 13: charged from 'el primero de julio "
             "siguiente' to twelve months of water received or offered; before that, water is paid by use.",
    "LAJ-6": "Ley del Sistema de Riego del Valle de Lajas, párrafo 14: roll finished by July 1; 'pagaderas "
             "semestralmente por adelantado los días 1ro de julio y 1ro de enero'.",
    "LAJ-7": "Ley del Sistema de Riego del Valle de Lajas, párrafo 14: delinquent 'si no se satisfacen dentro de los "
             "sesenta (60) días'; 'medio (½) por ciento … por cada mes o fracción de mes'; 'No será necesario "
             "solicitar el pago'.",
}


class LajasInputError(ValueError):
    """An input the rules refuse; `field` names the offending input (a JSON path for the API)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --------------------------------------------------------------------------------------------
# Inputs and parameters


@dataclass(frozen=True, slots=True)
class LajasFigures:
    """The Authority's and the fund's figures for one fiscal year (LAJ-1)."""

    fiscal_year: int
    om_estimate: Decimal
    reserve: Decimal
    water_right_credits: Decimal
    deficit: Decimal
    surplus: Decimal
    misc_income: Decimal


@dataclass(frozen=True, slots=True)
class LajasParcel:
    id: Hashable
    gravity_acres: Decimal
    pumped_acres: Decimal
    credit_pct: Decimal = Decimal(0)
    twelve_months_completed_on: date | None = None


@dataclass(frozen=True)
class LajasRules:
    """Parameters in force (family laj_assessment)."""

    margin_pct: Decimal
    reserve_max_pct: Decimal
    pumped_factor_pct: Decimal
    surcharge_pct_per_month: Decimal
    grace_days: int
    versions: tuple[ParameterVersion, ...] = ()

    @classmethod
    def from_parameters(cls, source: ParameterSource, on: date) -> LajasRules:
        version = source.get("laj_assessment", on)
        grace = _param_decimal(version, "grace_days")
        if grace != grace.to_integral_value():
            raise LajasInputError("parameters.laj_assessment.grace_days", "a whole number of days")
        factor = _param_decimal(version, "pumped_factor_pct")
        if factor > 100:
            raise LajasInputError("parameters.laj_assessment.pumped_factor_pct", "at most 100")
        return cls(margin_pct=_param_decimal(version, "margin_pct"),
                   reserve_max_pct=_param_decimal(version, "reserve_max_pct"),
                   pumped_factor_pct=factor,
                   surcharge_pct_per_month=_param_decimal(version, "surcharge_pct_per_month"),
                   grace_days=int(grace), versions=(version,))


def _param_decimal(version: ParameterVersion, key: str) -> Decimal:
    raw = version.values.get(key)
    where = f"parameters.{version.family}.{key}"
    if isinstance(raw, bool) or not isinstance(raw, (str, int, Decimal)):
        raise LajasInputError(where, "missing or not a number (write numbers as strings)")
    try:
        value = Decimal(str(raw).strip())
    except ArithmeticError:
        raise LajasInputError(where, f"not a number: {raw!r}") from None
    if not value.is_finite() or value < 0:
        raise LajasInputError(where, "must be a number ≥ 0")
    return value


def _units(acres: Decimal, what: str) -> int:
    scaled = acres * ACRE_SCALE
    units = int(scaled)
    if units != scaled or units < 0:
        raise LajasInputError(what, f"an area ≥ 0 with at most 4 decimals: {acres}")
    return units


def _decimal_from_units(units: int, scale: int) -> Decimal:
    value = _EXACT.divide(Decimal(units), Decimal(scale))
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value.normalize(_EXACT)


# --------------------------------------------------------------------------------------------
# LAJ-1: total contribution


@dataclass(frozen=True, slots=True)
class Assessment:
    base: Decimal
    margin: Decimal
    total: Decimal
    surplus_carried: Decimal


def check_figures(figures: LajasFigures, rules: LajasRules) -> None:
    """Refuse figures LAJ-1 excludes: negatives, both deficit and surplus, a reserve above 2 %."""
    for name in ("om_estimate", "reserve", "water_right_credits", "deficit", "surplus", "misc_income"):
        if getattr(figures, name) < 0:
            raise LajasInputError(name, "must not be negative")
    if figures.deficit and figures.surplus:
        raise LajasInputError("surplus", "deficit and surplus cannot both be non-zero (LAJ-1)")
    cap = figures.om_estimate * rules.reserve_max_pct / 100
    if figures.reserve > cap:
        raise LajasInputError("reserve", f"at most {rules.reserve_max_pct} % of om_estimate "
                              f"({round_half_up(cap)}) (LAJ-1)")


def base_without_credits(figures: LajasFigures) -> Decimal:
    """LAJ-1's base without factor (3), the B0 of LAJ-4's balancing factor."""
    return figures.om_estimate + figures.reserve + figures.deficit - figures.surplus - figures.misc_income


def assess(figures: LajasFigures, rules: LajasRules) -> Assessment:
    """LAJ-1: base = O&M + reserve + water-right credits ± deficit/surplus − misc income; margin 2 %.

    A negative base (not foreseen by the statute) assesses 0 and is reported as surplus carried,
    the reading chosen for IRR-1 (docs/rules/irr.md).
    """
    check_figures(figures, rules)
    base = base_without_credits(figures) + figures.water_right_credits
    zero = Decimal("0.00")
    if base < 0:
        return Assessment(round_half_up(base), zero, zero, round_half_up(-base))
    margin = round_half_up(base * rules.margin_pct / 100)
    return Assessment(round_half_up(base), margin, round_half_up(base + margin), zero)


# --------------------------------------------------------------------------------------------
# LAJ-2, LAJ-3: the plan (pass 1)


class LajasPlan:
    """Pass-2 state in O(1) memory: figures, rules, LAJ-1 assessment, LAJ-3 apportionment threshold."""

    __slots__ = ("figures", "rules", "assessment", "apportionment", "factor_num", "factor_den",
                 "weight_scale", "fy_start", "installment_dates", "_credit_ratios")

    def __init__(self, figures: LajasFigures, rules: LajasRules, assessment: Assessment,
                 apportionment: CentApportionment, factor: tuple[int, int]) -> None:
        self.figures = figures
        self.rules = rules
        self.assessment = assessment
        self.apportionment = apportionment
        self.factor_num, self.factor_den = factor
        self.weight_scale = ACRE_SCALE * self.factor_den     # weight units per acre
        self.fy_start = fiscal_year_start(figures.fiscal_year)
        self.installment_dates = (self.fy_start, date(figures.fiscal_year, 1, 1))
        self._credit_ratios: dict[Decimal, tuple[int, int]] = {}

    @property
    def effective_acres(self) -> Decimal:
        """LAJ-2: gravity acres + pumped acres × 50 %, every acre permanently included."""
        return _decimal_from_units(self.apportionment.weight_sum, self.weight_scale)

    def _rate(self, numerator_factor: int) -> Decimal | None:
        w = self.apportionment.weight_sum
        if w == 0:
            return None
        # rate (dollars/acre) × 10⁴ = total_cents / 100 × weight_scale / W × 10⁴
        units = round_half_up_div(self.apportionment.total_cents * numerator_factor * 100 * ACRE_SCALE, w)
        return Decimal(units).scaleb(-4)

    @property
    def gravity_rate(self) -> Decimal | None:
        """LAJ-3 gravity rate rounded half-up to 4 decimals, for display only (charges use the exact rate)."""
        return self._rate(self.factor_den)

    @property
    def pumped_rate(self) -> Decimal | None:
        """LAJ-3 pumped rate (gravity rate × 50 %) rounded half-up to 4 decimals from the exact rate."""
        return self._rate(self.factor_num)

    def weight_units(self, gravity_acres: Decimal, pumped_acres: Decimal) -> int:
        return (_units(gravity_acres, "gravity_acres") * self.factor_den
                + _units(pumped_acres, "pumped_acres") * self.factor_num)

    def credit_ratio(self, pct: Decimal) -> tuple[int, int]:
        found = self._credit_ratios.get(pct)
        if found is None:
            if not 0 <= pct <= 100:
                raise LajasInputError("credit_pct", f"between 0 and 100, got {pct}")
            num, den = pct.as_integer_ratio()
            found = self._credit_ratios[pct] = (num, den * 100)
        return found


def _factor(rules: LajasRules) -> tuple[int, int]:
    return (rules.pumped_factor_pct / 100).as_integer_ratio()


def lajas_plan(figures: LajasFigures, weights: Iterable[tuple[Hashable, Decimal, Decimal]],
               rules: LajasRules) -> LajasPlan:
    """Pass 1 over (id, gravity_acres, pumped_acres): LAJ-1 total, LAJ-2 effective acres, LAJ-3 apportionment."""
    assessment = assess(figures, rules)
    fn, fd = _factor(rules)

    def units():
        for pid, gravity, pumped in weights:
            g, p = gravity * ACRE_SCALE, pumped * ACRE_SCALE
            gi, pi = int(g), int(p)
            if gi != g or pi != p or gi < 0 or pi < 0:
                raise LajasInputError("parcels", f"{pid!r}: areas ≥ 0 with at most 4 decimals")
            yield pid, gi * fd + pi * fn

    try:
        apportionment = plan_apportionment(int(assessment.total * 100), units())
    except ValueError as exc:
        if isinstance(exc, LajasInputError):
            raise
        raise LajasInputError("parcels", f"{exc} (no effective acres)") from None
    return LajasPlan(figures, rules, assessment, apportionment, (fn, fd))


# --------------------------------------------------------------------------------------------
# Outputs


@dataclass(slots=True)
class Installment:
    due_date: date
    amount_cents: int

    @property
    def amount(self) -> Decimal:
        return Decimal(self.amount_cents).scaleb(-2)


@dataclass(slots=True)
class ParcelContribution:
    """A parcel's roll entry: LAJ-3 gross, LAJ-4 credit and net, LAJ-6 installments, LAJ-5 exemption.

    Installments are held as `installment_rows`, plain (due_date, cents) tuples the garbage
    collector stops tracking; `installments` builds the Installment objects when read.
    """

    id: Hashable
    weight_units: int
    gross_cents: int
    credit_cents: int
    net_cents: int
    installment_rows: tuple[tuple[date, int], ...]
    exempt_reason: str | None
    parcel: LajasParcel = field(repr=False, compare=False)
    plan: LajasPlan = field(repr=False, compare=False)

    @property
    def installments(self) -> tuple[Installment, ...]:
        return tuple(Installment(due, cents) for due, cents in self.installment_rows)

    @property
    def weight(self) -> Decimal:
        return _decimal_from_units(self.weight_units, self.plan.weight_scale)

    @property
    def gross(self) -> Decimal:
        return Decimal(self.gross_cents).scaleb(-2)

    @property
    def credit(self) -> Decimal:
        return Decimal(self.credit_cents).scaleb(-2)

    @property
    def net(self) -> Decimal:
        return Decimal(self.net_cents).scaleb(-2)

    @property
    def rule(self) -> str:
        return "LAJ-5" if self.exempt_reason else "LAJ-6"

    @property
    def citation(self) -> str:
        return CITATIONS[self.rule]

    def explain(self) -> dict:
        plan, parcel = self.plan, self.parcel
        floor, remainder = plan.apportionment.exact(self.weight_units)
        liable_from = liability_start(parcel.twelve_months_completed_on)
        return {
            "rule": self.rule, "citation": self.citation,
            "inputs": {"gravity_acres": str(parcel.gravity_acres), "pumped_acres": str(parcel.pumped_acres),
                       "credit_pct": str(parcel.credit_pct),
                       "twelve_months_completed_on": (parcel.twelve_months_completed_on.isoformat()
                                                      if parcel.twelve_months_completed_on else None)},
            "parameters": [v.label() for v in plan.rules.versions],
            "steps": [
                {"rule": "LAJ-2", "citation": CITATIONS["LAJ-2"], "weight": str(self.weight),
                 "formula": f"gravity_acres + pumped_acres × {plan.rules.pumped_factor_pct} %"},
                {"rule": "LAJ-3", "citation": CITATIONS["LAJ-3"], "total": str(plan.assessment.total),
                 "effective_acres": str(plan.effective_acres),
                 "exact_gross_cents": f"{floor} + {remainder}/{plan.apportionment.weight_sum}",
                 "extra_cent": self.gross_cents - floor, "gross": format_cents(self.gross_cents)},
                {"rule": "LAJ-5", "citation": CITATIONS["LAJ-5"],
                 "liable_from": liable_from.isoformat() if liable_from else None,
                 "liable": self.exempt_reason is None},
                {"rule": "LAJ-4", "citation": CITATIONS["LAJ-4"], "formula": "round_half_up(gross × credit_pct / 100)",
                 "credit": format_cents(self.credit_cents), "net": format_cents(self.net_cents)},
                {"rule": "LAJ-6", "citation": CITATIONS["LAJ-6"], "formula": "first = round_half_up(net / 2)",
                 "installments": [{"due_date": i.due_date.isoformat(), "amount": format_cents(i.amount_cents)}
                                  for i in self.installments]},
            ],
        }


@dataclass(slots=True)
class RollTotals:
    """Roll-level figures (LAJ-1 … LAJ-5)."""

    fiscal_year: int
    base: Decimal
    margin: Decimal
    total: Decimal
    surplus_carried: Decimal
    effective_acres: Decimal
    gravity_rate: Decimal | None
    pumped_rate: Decimal | None
    parcel_count: int
    gross_total: Decimal
    billed_total: Decimal
    credits_total: Decimal
    credits_unfunded: Decimal          # LAJ-4: credits granted − factor (3) that funds them
    uncollected_not_liable: Decimal    # LAJ-5


class RollTally:
    """Running sums over a stream of ParcelContribution."""

    __slots__ = ("plan", "count", "gross", "billed", "credits", "uncollected")

    def __init__(self, plan: LajasPlan) -> None:
        self.plan = plan
        self.count = self.gross = self.billed = self.credits = self.uncollected = 0

    def add(self, row: ParcelContribution) -> None:
        self.count += 1
        self.gross += row.gross_cents
        if row.exempt_reason is None:
            self.billed += row.net_cents
            self.credits += row.credit_cents
        else:
            self.uncollected += row.gross_cents

    def totals(self) -> RollTotals:
        plan, a = self.plan, self.plan.assessment
        funded = int(plan.figures.water_right_credits * 100)
        return RollTotals(
            fiscal_year=plan.figures.fiscal_year, base=a.base, margin=a.margin, total=a.total,
            surplus_carried=a.surplus_carried, effective_acres=plan.effective_acres,
            gravity_rate=plan.gravity_rate, pumped_rate=plan.pumped_rate, parcel_count=self.count,
            gross_total=Decimal(self.gross).scaleb(-2), billed_total=Decimal(self.billed).scaleb(-2),
            credits_total=Decimal(self.credits).scaleb(-2),
            credits_unfunded=Decimal(self.credits - funded).scaleb(-2),
            uncollected_not_liable=Decimal(self.uncollected).scaleb(-2))


# --------------------------------------------------------------------------------------------
# Pass 2


@dataclass(frozen=True)
class WaterSale:
    acre_feet: Decimal
    amount: Decimal


def sells_water_of_prior_year(liable_from: date | None, fiscal_year: int) -> bool:
    """LAJ-5: the roll of `fiscal_year` sells the water the parcel used in the year before when the
    parcel was not liable that year: not liable yet, or liable from this year's July 1 (the last
    year before liability is sold too)."""
    return liable_from is None or liable_from >= fiscal_year_start(fiscal_year)


def water_sale(*, used_af_per_acre: Iterable[Decimal], real_acres: Decimal, price_per_acre_foot: Decimal) -> WaterSale:
    """LAJ-5 "por el agua que usare": acre-feet **used** (the caller leaves out water offered and not
    used) on the parcel's real acres, not LAJ-2's weighted acres, at the acre-foot price; rounded
    half-up to the cent once."""
    acre_feet = sum(used_af_per_acre, Decimal(0)) * real_acres
    return WaterSale(acre_feet=acre_feet, amount=round_half_up(acre_feet * price_per_acre_foot))


def liability_start(completed_on: date | None) -> date | None:
    """LAJ-5: the July 1 following the day twelve months of water were completed (None: unknown)."""
    if completed_on is None:
        return None
    return date(completed_on.year + (completed_on.month >= 7), 7, 1)


def contributions(plan: LajasPlan, parcels: Iterable[LajasParcel],
                  tally: RollTally | None = None) -> Iterator[ParcelContribution]:
    """Pass 2: yield each parcel's ParcelContribution in input order; checks the gross adds up at the end."""
    make = _contribution_maker(plan)
    add = tally.add if tally is not None else None
    gross = count = 0
    for parcel in parcels:
        row = make(parcel)
        gross += row.gross_cents
        count += 1
        if add is not None:
            add(row)
        yield row
    expected = plan.apportionment.total_cents if plan.apportionment.weight_sum else 0
    if count == plan.apportionment.count and gross != expected:
        raise LajasInputError("parcels", "the parcels differ from those the plan was built on (gross adds up to "
                              f"{format_cents(gross)}, not {format_cents(expected)})")


def parcel_contribution(plan: LajasPlan, parcel: LajasParcel) -> ParcelContribution:
    """LAJ-3 gross, LAJ-5 liability, LAJ-4 credit, LAJ-6 installments for one parcel."""
    return _contribution_maker(plan)(parcel)


def _contribution_maker(plan: LajasPlan):
    """The per-parcel rule kernel with the plan's constants bound once (integers only inside)."""
    appor = plan.apportionment
    total_cents, weight_sum, threshold = appor.total_cents, appor.weight_sum, appor._threshold
    fn, fd = plan.factor_num, plan.factor_den
    fy_start = plan.fy_start
    s1, s2 = plan.installment_dates
    credit_ratio = plan.credit_ratio
    ratios = plan._credit_ratios

    def make(parcel: LajasParcel) -> ParcelContribution:
        pid = parcel.id
        g, p = parcel.gravity_acres * ACRE_SCALE, parcel.pumped_acres * ACRE_SCALE
        gi, pi = int(g), int(p)
        if gi != g or pi != p or gi < 0 or pi < 0:
            raise LajasInputError("parcels", f"{pid!r}: areas ≥ 0 with at most 4 decimals")
        weight = gi * fd + pi * fn
        # LAJ-3: floor of the exact gross plus the extra cent within the largest-remainder threshold.
        if weight_sum:
            gross, r = divmod(total_cents * weight, weight_sum)
            if threshold is not None and (r > threshold[0] or (r == threshold[0] and (
                    weight > threshold[1] or (weight == threshold[1] and (threshold[2] is None
                                                                          or pid <= threshold[2]))))):
                gross += 1
        else:
            gross = 0
        completed = parcel.twelve_months_completed_on
        # LAJ-5: liable from the July 1 after completion, i.e. when completion is before the FY starts.
        if completed is None or completed >= fy_start:
            return ParcelContribution(pid, weight, gross, 0, 0, (), NOT_YET_LIABLE, parcel, plan)
        pct = parcel.credit_pct
        if pct:
            num, den = ratios.get(pct) or credit_ratio(pct)
            credit = (2 * gross * num + den) // (2 * den)      # LAJ-4: round_half_up(gross × pct / 100)
        else:
            credit = 0
        net = gross - credit
        first = (net + 1) // 2                                 # LAJ-6 split_halves: round_half_up(net / 2)
        return ParcelContribution(pid, weight, gross, credit, net, ((s1, first), (s2, net - first)), None,
                                  parcel, plan)

    return make


# --------------------------------------------------------------------------------------------
# LAJ-4: the factor (3) that balances the credits (what-if page)


def credit_ratio(plan: LajasPlan, parcels: Iterable[LajasParcel]) -> Fraction:
    """k = Σ(credit_pct × weight of liable parcels) / (100 × effective_acres), exactly."""
    weighted = Fraction(0)
    for parcel in parcels:
        completed = parcel.twelve_months_completed_on
        if parcel.credit_pct and completed is not None and completed < plan.fy_start:
            weighted += Fraction(parcel.credit_pct) * plan.weight_units(parcel.gravity_acres, parcel.pumped_acres)
    if plan.apportionment.weight_sum == 0:
        return Fraction(0)
    return weighted / (100 * plan.apportionment.weight_sum)


def balancing_water_right_credits(b0: Decimal, k: Fraction | Decimal, margin_pct: Decimal = Decimal(2)) -> Decimal:
    """LAJ-4: water_right_credits = round_half_up(k × 1.02 × B0 / (1 − 1.02 × k)).

    With that factor (3) in LAJ-1, the credits granted (≈ k × total) equal the factor that funds
    them, to within the cents of rounding. 1.02 is 1 + LAJ-1's margin.
    """
    m = 1 + Fraction(margin_pct) / 100
    k = Fraction(k)
    denominator = 1 - m * k
    if denominator <= 0:
        raise LajasInputError("parcels", "credits of 100 % or more of the roll cannot be balanced (LAJ-4)")
    exact = k * m * Fraction(b0) / denominator
    return Decimal(round_half_up_div(exact.numerator * 100, exact.denominator)).scaleb(-2)


def balancing_factor(figures: LajasFigures, parcels: Iterable[LajasParcel], rules: LajasRules) -> Decimal:
    """LAJ-4 convenience: B0 from `figures` and k from a pass over `parcels` (the factor (3) to propose)."""
    parcels = list(parcels) if not isinstance(parcels, (list, tuple)) else parcels
    plan = lajas_plan(figures, ((p.id, p.gravity_acres, p.pumped_acres) for p in parcels), rules)
    return balancing_water_right_credits(base_without_credits(figures), credit_ratio(plan, parcels), rules.margin_pct)


# --------------------------------------------------------------------------------------------
# LAJ-7: delinquency surcharge


@dataclass(frozen=True, slots=True)
class Surcharge:
    """LAJ-7 for one amount paid (or still unpaid as of a date)."""

    amount: Decimal
    paid_on: date | None          # None: the unpaid rest, counted to `as_of`
    counted_to: date
    months: int
    surcharge: Decimal


@dataclass(frozen=True, slots=True)
class SurchargeResult:
    installment: Decimal
    due_date: date
    grace_end: date
    portions: tuple[Surcharge, ...]
    surcharge: Decimal
    unpaid: Decimal               # what no portion and no as_of covered

    @property
    def months(self) -> int:
        """Months of the single payment (`surcharge`), or of the last portion."""
        return self.portions[-1].months if self.portions else 0

    def explain(self) -> dict:
        return {"rule": "LAJ-7", "citation": CITATIONS["LAJ-7"],
                "formula": "grace_end = due_date + grace_days; months = calendar months or fractions from grace_end "
                           "(end-of-month clamped); surcharge = round_half_up(amount × rate × months)",
                "portions": [{"amount": str(p.amount), "counted_to": p.counted_to.isoformat(), "months": p.months,
                              "surcharge": str(p.surcharge)} for p in self.portions]}


def grace_end(due_date: date, rules: LajasRules) -> date:
    """LAJ-7: the last day an installment can be paid without surcharge (due + 60 days; never moved)."""
    return due_date + timedelta(days=rules.grace_days)


def months_late(grace: date, paid_on: date) -> int:
    """Months or fractions of a month from `grace` to `paid_on` (0 when paid on or before `grace`).

    The smallest m with paid_on ≤ add_months(grace, m): grace + 1 day … grace + 1 month counts 1,
    each further calendar month started one more; months are added to `grace` itself, clamped to
    month ends (Aug 30 + 6 months = Feb 28/29).
    """
    if paid_on <= grace:
        return 0
    m = (paid_on.year - grace.year) * 12 + paid_on.month - grace.month
    if m < 1 or add_months(grace, m) < paid_on:
        m += 1
    return max(m, 1)


def _portion(amount: Decimal, paid_on: date | None, counted_to: date, grace: date, rules: LajasRules) -> Surcharge:
    months = months_late(grace, counted_to)
    value = round_half_up(amount * rules.surcharge_pct_per_month * months / 100)
    return Surcharge(amount, paid_on, counted_to, months, value)


def surcharge(installment: Decimal, due_date: date, paid_on: date, rules: LajasRules) -> SurchargeResult:
    """LAJ-7 for an installment paid whole on `paid_on`."""
    grace = grace_end(due_date, rules)
    part = _portion(installment, paid_on, paid_on, grace, rules)
    return SurchargeResult(installment, due_date, grace, (part,), part.surcharge, Decimal("0.00"))


def portions_surcharge(installment: Decimal, due_date: date, portions: Iterable[tuple[Decimal, date]],
                       rules: LajasRules, as_of: date | None = None) -> SurchargeResult:
    """LAJ-7 with partial payments: each portion accrues from grace_end to the day it was paid.

    Portions come back in input order; the unpaid rest, when `as_of` is given, accrues to `as_of`
    and comes last. The surcharges, each rounded half-up, add up.
    """
    grace = grace_end(due_date, rules)
    parts = []
    paid = Decimal(0)
    for i, (amount, paid_on) in enumerate(portions):
        if amount <= 0:
            raise LajasInputError(f"portions[{i}].amount", "must be more than 0")
        paid += amount
        if paid > installment:
            raise LajasInputError(f"portions[{i}].amount", "the portions add up to more than the installment")
        parts.append(_portion(amount, paid_on, paid_on, grace, rules))
    rest = installment - paid
    if rest > 0 and as_of is not None:
        parts.append(_portion(rest, None, as_of, grace, rules))
        rest = Decimal(0)
    total = sum((p.surcharge for p in parts), Decimal("0.00"))
    return SurchargeResult(installment, due_date, grace, tuple(parts), total, round_half_up(rest))
