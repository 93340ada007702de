"""The ledger's dashboard items: delinquent amounts, per district and for the charges of no
district (franchise invoices, other sales), from the aging report's own sums
(assessments.ledger.aging) so the dashboard and the "Morosidad" page it links to agree to the cent."""
from decimal import Decimal

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from assessments.ledger.aging import BUCKET_LABELS, aging_overview, aging_summary
from core import roles
from core.dashboard.items import Item
from core.dashboard.registry import Context, register
from core.dashboard.waiting import Waiting, register_waiting
from core.money import round_half_up
from districts.models import District


def _aging_url(district_code: str | None = None) -> str:
    try:
        url = reverse("rolls:aging")
    except NoReverseMatch:  # the aging page is not installed here: the ledger's home
        return reverse("assessments:ledger_home")
    return f"{url}?district={district_code}" if district_code else url  # the page's filter takes the code


def _oldest(buckets: dict[str, Decimal]) -> str:
    """The oldest bucket with money in it, for the item's detail line."""
    for key in reversed(list(buckets)):
        if buckets[key] > 0:
            return _("lo más antiguo: %(bucket)s") % {"bucket": BUCKET_LABELS.get(key, key)}
    return ""


@register("ledger")
def delinquent(ctx: Context):
    total = round_half_up(sum(aging_summary(as_of=ctx.today).values(), Decimal("0")))
    covered = Decimal("0")
    for district in District.objects.select_related("office", "collecting_office").order_by("kind", "name"):
        buckets, accounts = aging_overview(as_of=ctx.today, district_id=district.pk)  # one pass for both
        amount = round_half_up(sum(buckets.values(), Decimal("0")))
        if amount <= 0:
            continue
        covered += amount
        office = district.collecting_office or district.office
        yield Item(key=f"delinquent:district:{district.pk}", kind="delinquent", kind_label=_("Morosidad"),
                   title=_("Cobrar lo vencido de %(d)s") % {"d": district.name},
                   detail=ngettext("%(n)s cuenta con plazos vencidos; %(oldest)s",
                                   "%(n)s cuentas con plazos vencidos; %(oldest)s", accounts)
                   % {"n": accounts, "oldest": _oldest(buckets)},
                   url=_aging_url(district.code), district_id=district.pk, district_name=district.name,
                   office_id=office.pk, office_name=office.name, amount=amount, roles=(roles.CASHIER,))
    rest = total - covered
    if rest > 0:
        yield Item(key="delinquent:other", kind="delinquent", kind_label=_("Morosidad"),
                   title=_("Cobrar lo vencido fuera de los distritos (franquicias y otros cargos)"),
                   url=_aging_url(), amount=rest, roles=(roles.CASHIER,))


@register_waiting
def ledger_waiting_on_role(user):
    """Adjustments, write-offs and refunds to decide (not one's own requests: four eyes), and the
    cashier's open drawer."""
    from assessments.models import Adjustment, CashierBatch

    pending = (Adjustment.objects.filter(status=Adjustment.Status.PENDING).exclude(requested_by=user)
               .values_list("kind", flat=True))
    kinds = list(pending)
    labels = {Adjustment.Kind.ADJUSTMENT: ("adjustment", _("Ajustes por aprobar")),
              Adjustment.Kind.WRITE_OFF: ("write_off", _("Bajas de deuda por aprobar")),
              Adjustment.Kind.REFUND: ("refund", _("Reembolsos por aprobar"))}
    for kind, (key, label) in labels.items():
        yield Waiting(key=key, action=roles.APPROVE, label=label, count=kinds.count(kind),
                      url=reverse("assessments:adjustments"), order=11)
    batches = CashierBatch.objects.filter(cashier=user, status=CashierBatch.Status.OPEN).count()
    yield Waiting(key="cash_batch", action=roles.PAY, label=_("Lotes de caja abiertos por cuadrar y cerrar"),
                  count=batches, url=reverse("assessments:my_batch"), order=30)
