"""Reads of the franchise registry: search, the franchise page, statutory clocks and flags."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.contenttypes.models import ContentType
from django.db.models import Prefetch, Q, QuerySet

from assessments.rules.deadlines import Clock, Deadline, clocks_from_parameters, compute_due, unmoved_due
from core.daycount import add_days
from core.models import Clock as CoreClock
from core.models import Flag
from core.rule_parameters import ParameterVersion, in_force, shipped_versions
from core.text import fold
from core.workqueue import holidays_between
from franchises import rules
from franchises.models import Application, Franchise, Hearing, MeterReading, Proceeding, UsageReport

# --- Statutory clocks (DEADLINES) --------------------------------------------------------------------


class DeadlineBook:
    """DEADLINES due dates, with the parameter versions and holidays looked up once per book.

    Parameters: administrator versions (core.ParameterVersion) and the shipped file, the one in
    force on the clock's start date (as core.parameters.DatabaseParameters chooses). Holidays:
    Puerto Rico's legal holidays with the days staff record (core.workqueue.holidays_between), by
    whole years around the term. One book serves one request or one daily run.
    """

    FAMILY = "deadlines"

    def __init__(self) -> None:
        from core.models import ParameterVersion as Row

        rows = Row.objects.filter(family=self.FAMILY)
        self.versions = [ParameterVersion(r.family, r.version, r.effective_from, r.citation, r.values)
                         for r in rows] + list(shipped_versions(self.FAMILY))
        self._clocks: dict[str, dict[str, Clock]] = {}
        self._years: dict[int, frozenset[date]] = {}

    def clock(self, code: str, on: date) -> Clock:
        version = in_force(self.versions, on)
        if version is None:
            raise LookupError(f"no {self.FAMILY} parameters in force on {on.isoformat()}")
        label = version.label()
        if label not in self._clocks:
            self._clocks[label] = clocks_from_parameters(version.values)
        return self._clocks[label][code]

    def holidays(self, years) -> frozenset[date]:
        days: set[date] = set()
        for y in years:
            if y not in self._years:
                self._years[y] = holidays_between(date(y, 1, 1), date(y, 12, 31))
            days |= self._years[y]
        return frozenset(days)

    def due(self, code: str, start: date) -> Deadline:
        try:
            c = self.clock(code, start)
            raw = unmoved_due(c, start)
            low, high = min(start, raw), max(start, raw)
            return compute_due(c, start, self.holidays(range(low.year - 1, high.year + 2)))
        except KeyError:  # an unknown clock code: a programming error, not the user's date
            raise
        except (LookupError, OverflowError, ValueError):  # a date no deadlines version covers, or past year 9999
            from django.core.exceptions import ValidationError
            from django.utils.translation import gettext as _

            raise ValidationError(_("No se puede contar el plazo %(code)s desde el %(start)s: revise esa fecha, "
                                    "está fuera de los parámetros de plazos.") % {
                "code": code, "start": start.isoformat()}) from None


def clock(code: str, on: date) -> Clock:
    """The DEADLINES clock `code` in force on `on`."""
    return DeadlineBook().clock(code, on)


def deadline(code: str, start: date) -> Deadline:
    """Due date of clock `code` started on `start`, moved per its rule past weekends and holidays."""
    return DeadlineBook().due(code, start)


# --- Outstanding debt (FRA-7) ------------------------------------------------------------------------
# Debts live in assessments, above this app. Billing registers a provider here (from its
# AppConfig.ready) answering "outstanding water-use debt of this franchise on this date"; until
# then staff check the account and type the amount, and the decision records which it was.

DebtProvider = Callable[[Franchise, date], Decimal]
_debt_provider: DebtProvider | None = None


def register_debt_provider(provider: DebtProvider | None) -> None:
    global _debt_provider
    _debt_provider = provider


def outstanding_debt(franchise: Franchise, on: date) -> Decimal | None:
    """The registered provider's answer, or None when no billing is installed (staff enter it)."""
    return None if _debt_provider is None else _debt_provider(franchise, on)


# --- Registry -----------------------------------------------------------------------------------------


def franchise_search(query: str = "", *, tariff_class: str = "", status: str = "", source: str = "",
                     use: str = "") -> QuerySet[Franchise]:
    """Every word must appear in the number or in the holder's name (accent- and case-blind)."""
    qs = Franchise.objects.select_related("holder", "office", "property_parcel")
    for term in fold(query).split():
        qs = qs.filter(Q(number__icontains=term) | Q(holder__search_text__contains=term))
    if tariff_class:
        qs = qs.filter(tariff_class=tariff_class)
    if status:
        qs = qs.filter(status=status)
    if source:
        qs = qs.filter(source=source)
    if use:
        qs = qs.filter(use=use)
    return qs.order_by("number")


def franchise_detail(pk: int) -> Franchise:
    return (Franchise.objects
            .select_related("holder", "property_owner", "property_parcel", "property_parcel__municipality",
                            "office", "predecessor")
            .prefetch_related(
                Prefetch("applications", queryset=Application.objects.select_related("recipient", "decided_by")),
                Prefetch("proceedings", queryset=Proceeding.objects.order_by("-opened_on")),
                "successors", "usage_reports")
            .get(pk=pk))


def application_list(*, status: str = "", kind: str = "") -> QuerySet[Application]:
    qs = Application.objects.select_related("franchise", "applicant", "recipient")
    if status == "open":
        qs = qs.filter(status__in=Application.OPEN_STATUSES)
    elif status:
        qs = qs.filter(status=status)
    if kind:
        qs = qs.filter(kind=kind)
    return qs


def application_detail(pk: int) -> Application:
    return (Application.objects
            .select_related("franchise", "franchise__holder", "applicant", "recipient", "decided_by",
                            "resulting_franchise")
            .prefetch_related(Prefetch("hearings", queryset=Hearing.objects.select_related("requested_by")))
            .get(pk=pk))


def proceeding_detail(pk: int) -> Proceeding:
    return (Proceeding.objects.select_related("franchise", "franchise__holder", "franchise__property_owner",
                                              "opened_by", "decided_by")
            .prefetch_related(Prefetch("hearings", queryset=Hearing.objects.select_related("requested_by")))
            .get(pk=pk))


def application_letters(application: Application):
    """FRA-5: the written determinations notified to the applicant and to the transferee."""
    from core.models import Document

    return Document.objects.filter(content_type=ContentType.objects.get_for_model(Application),
                                   object_id=application.pk, kind=Document.Kind.LETTER).order_by("created_at", "pk")


def proceeding_letters(proceeding: Proceeding):
    """The sec. 8.19 notices issued as documents (one per addressee and mailing), oldest first."""
    from core.models import Document

    return Document.objects.filter(content_type=ContentType.objects.get_for_model(Proceeding),
                                   object_id=proceeding.pk, kind=Document.Kind.LETTER).order_by("created_at", "pk")


@dataclass(frozen=True)
class Bar:
    month: date
    gallons: int
    x: int
    y: int
    height: int
    cx: int
    show_label: bool


def usage_chart(franchise: Franchise, *, months: int = 24, width: int = 960, height: int = 170) -> dict:
    """Bars of the last `months` meter readings, laid out for an inline SVG (no JavaScript).

    A month with no extraction gets a thin red mark on the axis, so FRA-10's zeros are visible.
    """
    readings = list(MeterReading.objects.filter(franchise=franchise).order_by("-month")[:months])[::-1]
    if not readings:
        return {"bars": [], "width": width, "height": height, "max": 0}
    top = max(r.gallons for r in readings) or 1
    slot = width // len(readings)
    bar_w = max(min(slot - 4, 48), 2)
    plot = height - 22
    step = 1 if len(readings) <= 12 else 2
    bars = []
    for i, r in enumerate(readings):
        h = max(int(plot * r.gallons / top), 1) if r.gallons else 0
        x = i * slot + (slot - bar_w) // 2
        bars.append(Bar(month=r.month, gallons=r.gallons, x=x, y=plot - h, height=h, cx=x + bar_w // 2,
                        show_label=(len(readings) - 1 - i) % step == 0))
    return {"bars": bars, "width": width, "height": height, "bar_width": bar_w, "max": top, "plot": plot,
            "zero_y": plot - 3, "label_y": height - 6}


# --- FRA-10 / FRA-7 / FRA-8 -------------------------------------------------------------------------


def last_use(franchise: Franchise, today: date) -> date | None:
    """FRA-10: the last day with use known on `today` (readings and reports up to that day)."""
    readings = MeterReading.objects.filter(franchise=franchise, month__lte=today)
    reports = UsageReport.objects.filter(franchise=franchise, period_start__lte=today)
    used_months = list(readings.filter(gallons__gt=0).values_list("month", flat=True))
    used_periods = [min(end, today) for end in reports.filter(Q(gallons_used__gt=0) | Q(nonuse_justified=True))
                    .values_list("period_end", flat=True)]
    monitored = readings.exists() or reports.exists()
    return rules.last_use_day(used_months=used_months, used_periods_end=used_periods, monitored=monitored,
                              issue_date=franchise.issue_date)


def renewal_filed(franchise: Franchise) -> bool:
    """FRA-7: a renewal has been filed for the current term, or a successor franchise exists."""
    return (franchise.applications.filter(kind=Application.Kind.RENEWAL, expiry_at_filing=franchise.expiry_date)
            .exists() or franchise.successors.exists())


FLAG_KINDS = {"FRA-7": Flag.Kind.RENEWAL_NOT_FILED, "FRA-8": Flag.Kind.ARREARS, "FRA-10": Flag.Kind.NON_USE}


@dataclass(frozen=True)
class FlagResult:
    franchise: Franchise
    code: str  # the rule: FRA-7, FRA-8 or FRA-10
    start: date  # the clock's start event
    due: date  # the day the flag holds from
    detail: str

    @property
    def kind(self) -> str:
        return FLAG_KINDS[self.code]


def franchise_flags(today: date, *, oldest_unpaid_due: Mapping[int, date] | None = None) -> list[FlagResult]:
    """The flags that hold on `today` for every active franchise.

    FRA-10 and FRA-7 come from this registry. FRA-8 needs each franchise's oldest unpaid tariff due
    date, which billing (assessments) owns: pass it as `oldest_unpaid_due` {franchise id: date};
    without it no FRA-8 flag is computed.
    """
    flags: list[FlagResult] = []
    active = Franchise.objects.filter(status=Franchise.Status.ACTIVE).select_related("holder").order_by("number")
    book = DeadlineBook()
    fra10 = book.clock("FRA-10", today)
    fra8 = book.clock("FRA-8", today)
    for f in active:
        start = last_use(f, today)
        due = rules.prescription_flag(start, today, fra10)
        if due is not None:
            flags.append(FlagResult(f, "FRA-10", start, due,
                                    f"Sin uso del caudal desde el {start:%d/%m/%Y}: doce meses consecutivos "
                                    f"cumplidos el {due:%d/%m/%Y} (FRA-10, sec. 8.21)."))
        if f.issue_date <= today:
            last_day = book.due("FRA-7", f.expiry_date).due
            due = rules.renewal_flag(last_day_to_file=last_day, renewal_filed=renewal_filed(f), today=today)
            if due is not None:
                flags.append(FlagResult(f, "FRA-7", f.expiry_date, due,
                                        f"Vence el {f.expiry_date:%d/%m/%Y}; el último día para solicitar la "
                                        f"renovación fue el {due:%d/%m/%Y} y no se ha presentado (FRA-7, sec. 8.18)."))
        if oldest_unpaid_due and f.pk in oldest_unpaid_due:
            due = rules.arrears_flag(oldest_unpaid_due[f.pk], today, fra8)
            if due is not None:
                flags.append(FlagResult(f, "FRA-8", oldest_unpaid_due[f.pk], due,
                                        f"Pago vencido desde el {oldest_unpaid_due[f.pk]:%d/%m/%Y}: seis meses o más "
                                        f"de mora (FRA-8, sec. 8.19)."))
    return flags


def _targets(model, ids) -> Q:
    ct = ContentType.objects.get_for_model(model)
    return Q(content_type=ct, object_id__in=list(ids))


def work_queue_for(franchise: Franchise) -> dict:
    """Clocks and open flags of core's work queue on this franchise and its applications."""
    app_ids = franchise.applications.values_list("pk", flat=True)
    where = _targets(Franchise, [franchise.pk]) | _targets(Application, app_ids)
    return {"clocks": CoreClock.objects.filter(where).order_by("due_date", "id"),
            "flags": Flag.objects.filter(where, resolved_on__isnull=True).order_by("-severity", "opened_on")}


def open_franchise_flags() -> QuerySet[Flag]:
    """Open work-queue flags on franchises (FRA-7, FRA-8, FRA-10)."""
    ct = ContentType.objects.get_for_model(Franchise)
    return Flag.objects.filter(content_type=ct, resolved_on__isnull=True).order_by("-severity", "opened_on", "id")


def upcoming_renewals(today: date, *, within_days: int = 180) -> QuerySet[Franchise]:
    """Active franchises expiring soon, with their FRA-7 last day to file."""
    return (Franchise.objects.filter(status=Franchise.Status.ACTIVE, expiry_date__gte=today,
                                     expiry_date__lte=add_days(today, within_days))
            .select_related("holder").order_by("expiry_date"))
