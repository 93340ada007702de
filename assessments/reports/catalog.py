"""The six office reports: what each is called, which filters it takes, and how its builder's
figures become a table (with its total row) and a chart. Views, the PDF and the XLSX all read the
`Report` made here, so the three always show the same figures."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assessments.reports import appropriation, clocks, collections, delinquency, remittances, uncollected
from assessments.reports.charts import AMBER, GREEN, GREY, NAVY, RED, TEAL, Series, chart_svg
from assessments.reports.periods import fiscal_years_between
from assessments.reports.tables import COUNT, DATE, MONEY, NUMBER, PCT, Column, Figure, Report, Table
from core.money import ZERO, round_half_up

TENTH = Decimal("0.1")

START, END, GROUP, FUND, DISTRICT, RULE = "start", "end", "group", "fund", "district", "rule"
# Districts whose charges the ledger knows (assessments.ledger.sources): rolls and improvement billing runs.
BILLING_KINDS = ("IRRIGATION", "LAJAS", "SID", "TID")


@dataclass(frozen=True)
class Filters:
    start: date
    end: date
    group: str = "month"
    fund_code: str | None = None
    district_id: int | None = None
    district_name: str = ""
    fund_name: str = ""
    rule: str = ""

    def range_label(self) -> str:
        return _("del %(s)s al %(e)s") % {"s": self.start.strftime("%d/%m/%Y"), "e": self.end.strftime("%d/%m/%Y")}

    def as_of_label(self) -> str:
        return _("al %(d)s") % {"d": self.end.strftime("%d/%m/%Y")}

    def scope_label(self) -> str:
        parts = [p for p in (self.fund_name, self.district_name, self.rule) if p]
        return " · ".join(parts)


@dataclass(frozen=True)
class ReportSpec:
    slug: str
    title: object                   # lazy text
    description: object
    filters: tuple[str, ...]
    build: Callable[[Filters], Report]
    district_kinds: tuple[str, ...] = field(default=())     # which districts the district filter offers


def _label(filters: Filters, period: str) -> str:
    scope = filters.scope_label()
    return f"{period} · {scope}" if scope else period


# --- 1. Collections by fund and period ------------------------------------------------------------

GROUP_LABELS = {"month": gettext_lazy("mes"), "quarter": gettext_lazy("trimestre fiscal"),
                "fy": gettext_lazy("año fiscal")}


def build_collections(f: Filters) -> Report:
    data = collections.collections_by_period(start=f.start, end=f.end, group=f.group, fund_code=f.fund_code,
                                             district_id=f.district_id)
    table = Table([Column(_("Fondo")), Column(_("Período")), Column(_("Principal"), MONEY),
                   Column(_("Recargos"), MONEY), Column(_("Total"), MONEY)],
                  [[r.fund_name, r.period.label, r.principal, r.surcharge, r.total] for r in data.rows]
                  ).with_totals(_("Total cobrado en fondos"))
    monthly = collections.due_and_collected_by_month(start=f.start, end=f.end, fund_code=f.fund_code,
                                                     district_id=f.district_id)
    chart = chart_svg(
        uid="chart-collections", title=_("Cobrado contra lo que vencía, por mes"),
        desc=_("Barras: plazos de cargos que vencían en el mes. Línea: lo cobrado en el mes. %(scope)s") % {
            "scope": f.scope_label() or _("Todos los fondos")},
        labels=[m.label for m in monthly.months],
        bars=[Series(_("Vencía en el mes"), monthly.due, NAVY)],
        line=Series(_("Cobrado en el mes"), monthly.collected, GREEN))
    notes = [_("Pagos y créditos aplicados a cargos de cada fondo por fecha efectiva, menos pagos devueltos; "
               "agrupado por %(g)s.") % {"g": GROUP_LABELS.get(f.group, f.group)}]
    figures = [Figure(_("Cobrado en fondos"), data.total)]
    if data.whole_range is not None:
        w = data.whole_range
        figures += [Figure(_("Crédito no aplicado a cargos"), w.unapplied_credit), Figure(_("Reembolsos"), w.refunds),
                    Figure(_("Neto recibido"), w.net)]
    return Report(slug="recaudos", title=_("Recaudos por fondo y período"), period_label=_label(f, f.range_label()),
                  rules="", table=table, chart_svg=chart, figures=figures, notes=notes)


# --- 2. IRR-7 legislative appropriation -----------------------------------------------------------

def build_appropriation(f: Filters) -> Report:
    years = fiscal_years_between(f.start, f.end)
    data = appropriation.appropriation_by_district(fiscal_years=years, district_id=f.district_id)
    table = Table([Column(_("Distrito")), Column(_("Año fiscal")), Column(_("Estado del padrón")),
                   Column(_("Total a repartir (IRR-1)"), MONEY), Column(_("Facturado (IRR-5/IRR-6)"), MONEY),
                   Column(_("Asignación necesaria (IRR-7)"), MONEY), Column(_("Exceso (IRR-7)"), MONEY),
                   Column(_("Bonos impagables, aparte (IRR-3)"), MONEY)],
                  [[r.district_name, f"FY{r.fiscal_year}", r.status, r.total, r.billed, r.needed, r.excess,
                    r.unpayable_bonds] for r in data.rows]).with_totals(_("Total"))
    labels = [f"{r.district_code} FY{r.fiscal_year}" for r in data.rows]
    chart = chart_svg(
        uid="chart-appropriation", title=_("Asignación legislativa por distrito y año (IRR-7)"),
        desc=_("Por padrón: lo facturado y la asignación que la Legislatura debe proveer; los bonos que no "
               "pueden pagarse (IRR-3) aparte."), labels=labels, stacked=True,
        bars=[Series(_("Facturado"), [r.billed for r in data.rows], NAVY),
              Series(_("Asignación necesaria"), [r.needed for r in data.rows], AMBER),
              Series(_("Bonos impagables (IRR-3)"), [r.unpayable_bonds for r in data.rows], GREY)])
    years_label = ", ".join(f"FY{y}" for y in years)
    return Report(
        slug="asignacion-legislativa", title=_("Asignación legislativa necesaria por distrito de riego"),
        period_label=_label(f, years_label), rules="IRR-7, IRR-3", table=table, chart_svg=chart, landscape=True,
        figures=[Figure(_("Asignación necesaria (IRR-7)"), data.needed), Figure(_("Exceso (IRR-7)"), data.excess),
                 Figure(_("Bonos impagables, aparte (IRR-3)"), data.unpayable_bonds)],
        notes=[_("IRR-7: asignación necesaria = total a repartir − suma de todos los cargos facturados; si es "
                 "negativa se informa como exceso. Cifras de los totales de cada padrón."),
               _("IRR-3: los bonos que no pueden pagarse con el reparto del año se informan aparte y no forman "
                 "parte del déficit de años posteriores.")])


# --- 3. Uncollected ---------------------------------------------------------------------------------

def build_uncollected(f: Filters) -> Report:
    data = uncollected.uncollected(as_of=f.end, fund_code=f.fund_code, district_id=f.district_id)
    table = Table([Column(_("Distrito")), Column(_("Fondo")), Column(_("Año fiscal")),
                   Column(_("Principal pendiente"), MONEY), Column(_("Recargos asentados pendientes"), MONEY),
                   Column(_("Total pendiente"), MONEY)],
                  [[r.district, r.fund_name, f"FY{r.fiscal_year}", r.principal, r.surcharge, r.total]
                   for r in data.rows]).with_totals(_("Total no cobrado"))
    labels = [f"{r.district} FY{r.fiscal_year}" for r in data.rows]
    chart = chart_svg(uid="chart-uncollected", title=_("No cobrado por distrito, fondo y año"),
                      desc=_("Principal y recargos pendientes %(d)s.") % {"d": f.as_of_label()}, labels=labels,
                      stacked=True, bars=[Series(_("Principal"), [r.principal for r in data.rows], NAVY),
                                          Series(_("Recargos"), [r.surcharge for r in data.rows], AMBER)])
    return Report(slug="no-cobrado", title=_("Cantidades no cobradas"), period_label=_label(f, f.as_of_label()),
                  rules="", table=table, chart_svg=chart, figures=[Figure(_("Total no cobrado"), data.total)],
                  notes=[_("Saldo de cada cargo según el libro mayor a la fecha (principal y recargos ya "
                           "asentados); los recargos que corren y no se han asentado no se incluyen.")])


# --- 4. SID-3 remittances -------------------------------------------------------------------------

def build_remittances(f: Filters) -> Report:
    data = remittances.sid_remittances(start=f.start, end=f.end, district_id=f.district_id)
    table = Table([Column(_("Distrito")), Column(_("Resolución")), Column(_("Referencia del CRIM")),
                   Column(_("Recibido"), DATE), Column(_("Recaudado"), MONEY), Column(_("Retenido 5 % (SID-3)"), MONEY),
                   Column(_("A remitir (SID-3)"), MONEY), Column(_("Remitir a más tardar"), DATE),
                   Column(_("Remitido el"), DATE), Column(_("Estado")), Column(_("Días de atraso"), NUMBER)],
                  [[r.district, r.resolution, r.reference, r.received_on, r.collected, r.retained, r.remitted,
                    r.due_on, r.remitted_on, r.status_label, r.days_late] for r in data.rows]
                  ).with_totals(_("Total"))
    states = ("REMITTED", "REMITTED_LATE", "PENDING", "OVERDUE")
    colors = {"REMITTED": GREEN, "REMITTED_LATE": AMBER, "PENDING": TEAL, "OVERDUE": RED}
    amounts = [sum((r.remitted for r in data.rows if r.status == s), ZERO) for s in states]
    chart = chart_svg(uid="chart-remittances", title=_("Remesas a la Autoridad por estado (SID-3)"),
                      desc=_("Importe a remitir (95 %%) por estado de la remesa %(d)s.") % {"d": f.as_of_label()},
                      labels=[str(remittances.STATUS_LABELS[s]) for s in states],
                      bars=[Series(_("A remitir"), amounts, NAVY, colors=tuple(colors[s] for s in states))])
    return Report(
        slug="remesas-sid", title=_("Remesas SID-3: debidas y tardías"), period_label=_label(f, f.range_label()),
        rules="SID-3", table=table, chart_svg=chart, landscape=True,
        figures=[Figure(_("Vencido sin remitir"), data.overdue), Figure(_("Pendiente en término"), data.pending),
                 Figure(_("Remesas tardías o vencidas"), data.late_count, COUNT)],
        notes=[_("SID-3: el CRIM retiene el 5 %% de cada recaudo y remite el resto a la Autoridad dentro de 90 "
                 "días del recibo (término que se mueve al próximo día laborable). Estado %(d)s.") % {
                     "d": f.as_of_label()}])


# --- 5. Delinquency aging ---------------------------------------------------------------------------

def build_aging(f: Filters) -> Report:
    data = delinquency.aging(as_of=f.end, fund_code=f.fund_code, district_id=f.district_id)
    total = data.total
    table = Table([Column(_("Antigüedad desde el vencimiento")), Column(_("Pendiente vencido"), MONEY),
                   Column(_("% del total"), PCT)],
                  [[b.label, b.amount, round_half_up(b.amount * 100 / total, TENTH) if total else None]
                   for b in data.buckets]).with_totals(_("Total vencido"))
    chart = chart_svg(uid="chart-aging", title=_("Morosidad por antigüedad"),
                      desc=_("Importe vencido y pendiente %(d)s, por días desde el vencimiento.") % {
                          "d": f.as_of_label()},
                      labels=[b.label for b in data.buckets],
                      bars=[Series(_("Vencido"), [b.amount for b in data.buckets], RED)])
    return Report(slug="morosidad", title=_("Morosidad por antigüedad"), period_label=_label(f, f.as_of_label()),
                  rules="", table=table, chart_svg=chart, figures=[Figure(_("Total vencido"), total)],
                  notes=[_("Plazos vencidos y no pagados a la fecha, según el libro mayor (principal y recargos "
                           "asentados).")])


# --- 6. Clocks met vs missed ------------------------------------------------------------------------

def build_clocks(f: Filters) -> Report:
    data = clocks.clocks_by_quarter(start=f.start, end=f.end, rule=f.rule, as_of=min(f.end, timezone.localdate()))
    table = Table([Column(_("Trimestre fiscal (vencimiento)")), Column(_("Cumplidos a tiempo"), COUNT),
                   Column(_("Cumplidos tarde"), COUNT), Column(_("Vencidos sin cumplir"), COUNT),
                   Column(_("Abiertos"), COUNT), Column(_("Total"), COUNT), Column(_("% a tiempo"), PCT)],
                  [[q.period.label, q.met, q.done_late, q.not_done, q.open, q.total, q.met_pct]
                   for q in data.quarters]).with_totals(_("Total"))
    met, late, not_done, open_ = (sum(q.met for q in data.quarters), sum(q.done_late for q in data.quarters),
                                  sum(q.not_done for q in data.quarters), sum(q.open for q in data.quarters))
    decided = met + late + not_done
    if table.total:
        table.total[-1] = (met * 100 + decided // 2) // decided if decided else None
    chart = chart_svg(uid="chart-clocks", title=_("Plazos cumplidos y vencidos por trimestre"),
                      desc=_("Plazos legales (DEADLINES) por trimestre fiscal de su vencimiento."), money=False,
                      labels=[q.period.label.split(" ")[0] for q in data.quarters], stacked=True,
                      bars=[Series(_("Cumplidos a tiempo"), [q.met for q in data.quarters], GREEN),
                            Series(_("Cumplidos tarde"), [q.done_late for q in data.quarters], AMBER),
                            Series(_("Vencidos sin cumplir"), [q.not_done for q in data.quarters], RED),
                            Series(_("Abiertos"), [q.open for q in data.quarters], GREY)])
    return Report(slug="plazos-legales", title=_("Plazos legales cumplidos y vencidos"),
                  period_label=_label(f, f.range_label()), rules="DEADLINES", table=table, chart_svg=chart,
                  figures=[Figure(_("Cumplidos a tiempo"), met, COUNT),
                           Figure(_("Vencidos (tarde o sin cumplir)"), late + not_done, COUNT),
                           Figure(_("Abiertos"), open_, COUNT)])


REPORTS: dict[str, ReportSpec] = {s.slug: s for s in (
    ReportSpec("recaudos", gettext_lazy("Recaudos por fondo y período"),
               gettext_lazy("Lo cobrado por cada fondo, por mes, trimestre o año fiscal; y lo que vencía."),
               (START, END, GROUP, FUND, DISTRICT), build_collections, BILLING_KINDS),
    ReportSpec("asignacion-legislativa", gettext_lazy("Asignación legislativa (IRR-7)"),
               gettext_lazy("Lo que la Legislatura debe proveer por distrito de riego y año fiscal; bonos "
                            "impagables aparte (IRR-3)."),
               (START, END, DISTRICT), build_appropriation, ("IRRIGATION",)),
    ReportSpec("no-cobrado", gettext_lazy("Cantidades no cobradas"),
               gettext_lazy("Saldo pendiente por distrito, fondo y año fiscal a una fecha."),
               (END, FUND, DISTRICT), build_uncollected, BILLING_KINDS),
    ReportSpec("remesas-sid", gettext_lazy("Remesas SID-3"),
               gettext_lazy("Remesas del CRIM a la Autoridad: debidas, a tiempo y tardías."),
               (START, END, DISTRICT), build_remittances, ("SID",)),
    ReportSpec("morosidad", gettext_lazy("Morosidad por antigüedad"),
               gettext_lazy("Lo vencido y no pagado, por días desde el vencimiento."),
               (END, FUND, DISTRICT), build_aging, BILLING_KINDS),
    ReportSpec("plazos-legales", gettext_lazy("Plazos cumplidos y vencidos"),
               gettext_lazy("Plazos legales por trimestre: a tiempo, tarde, sin cumplir."),
               (START, END, RULE), build_clocks),
)}


def build(slug: str, filters: Filters) -> Report:
    report = REPORTS[slug].build(filters)
    report.generated_on = timezone.localdate()
    return report

