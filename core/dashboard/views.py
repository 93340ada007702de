"""The dashboard's pages: assign an item, the calendar (month and list), the personal iCal feed
and the page that issues or revokes its link. The home page itself is core.views.HomeView."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django.views.generic import TemplateView

from core import roles
from core.dashboard import month as months
from core.dashboard import selectors, services
from core.dashboard.ical import build_calendar
from core.dashboard.items import window
from core.dashboard.registry import user_office_ids
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from core.models import StaffCalendar
from core.selectors import assignable_users


def _int(value: str | None) -> int | None:
    # isdecimal, not isdigit ("²" is a digit int() refuses); short, so PostgreSQL never sees an oversized id.
    return int(value) if value and value.isdecimal() and len(value) < 10 else None


class ItemAssignView(WriterRequiredMixin, View):
    """POST item_key + user ("me", a user id, or empty for nobody). Writers only (auditors read)."""

    required_action = roles.ASSIGN

    http_method_names = ["post"]

    def post(self, request):
        # "Tomar" sends user=me; the list sends user_pick=<id> ("" = nobody).
        who = request.POST.get("user") or request.POST.get("user_pick", "")
        user = None
        if who == "me":
            user = request.user
        elif who:
            user = get_user_model().objects.filter(pk=_int(who) or 0).first()
            if user is None:
                messages.error(request, _("Elija una persona de la lista."))
                return self._back(request)
        try:
            services.item_assign(item_key=request.POST.get("item_key", ""), user=user, actor=request.user)
        except ValidationError as exc:
            messages.error(request, "; ".join(exc.messages))
        else:
            name = (user.get_full_name() or user.username) if user else _("nadie")
            messages.success(request, _("Asignado a %(who)s.") % {"who": name})
        return self._back(request)

    @staticmethod
    def _back(request):
        target = request.POST.get("next", "")
        # A path on this site only: redirect() would take any other word for a URL name to reverse (a 500).
        if not target.startswith("/") or not url_has_allowed_host_and_scheme(
                target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
            target = reverse("home")
        return redirect(target)


class CalendarView(StaffRequiredMixin, TemplateView):
    """/calendario/?vista=mes|lista&mes=2026-12&distrito=&tipo=&oficina=

    Unfiltered by default; a user who works at offices gets a "Mi oficina" link for each."""

    template_name = "core/dashboard/calendar.html"

    def get_context_data(self, **kwargs):
        from districts.models import District, Office

        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        g = self.request.GET
        year, month = today.year, today.month
        raw = g.get("mes", "")
        if len(raw) == 7 and raw[4] == "-" and raw[:4].isdecimal() and raw[5:].isdecimal() \
                and 1900 <= int(raw[:4]) <= 2999 and 1 <= int(raw[5:]) <= 12:
            year, month = int(raw[:4]), int(raw[5:])
        view = "lista" if g.get("vista") == "lista" else "mes"
        filters = {"district": _int(g.get("distrito")), "kind": g.get("tipo", "")[:20],
                   "office": _int(g.get("oficina"))}
        start, end = months.month_bounds(year, month)
        items = selectors.calendar_items(today=today, start=start, end=end, **filters)
        prev, nxt = months.shift_month(year, month, -1), months.shift_month(year, month, 1)
        query = {"vista": view, "distrito": g.get("distrito", ""), "tipo": filters["kind"],
                 "oficina": g.get("oficina", "")}
        offices = list(Office.objects.order_by("name").values_list("pk", "name"))
        mine = user_office_ids(self.request.user)
        ctx.update(
            today=today, view=view, month_start=start, items=items,
            rows=[{"item": i, "window": window(i.due_date, today)} for i in items],
            weeks=months.month_grid(year, month, items, today) if view == "mes" else [],
            prev=f"{prev[0]:04d}-{prev[1]:02d}", next=f"{nxt[0]:04d}-{nxt[1]:02d}", this=f"{year:04d}-{month:02d}",
            query=query, filters=filters,
            districts=District.objects.order_by("kind", "name").values_list("pk", "name"),
            offices=offices, my_offices=[(pk, name) for pk, name in offices if pk in mine],
            kinds=KIND_CHOICES,
        )
        return ctx


KIND_CHOICES = [
    ("clock", gettext_lazy("Plazos de ley")), ("roll", gettext_lazy("Padrones")),
    ("franchise", gettext_lazy("Franquicias")), ("lien", gettext_lazy("Conflictos de gravámenes")),
    ("flag", gettext_lazy("Otros asuntos")),
]


class CalendarLinkView(StaffRequiredMixin, TemplateView):
    """The personal iCal link: see it, make a new one (the old stops working) or revoke it.

    Every staff member, auditors too, may manage their own link: it writes no record (`read`).
    """

    required_action = roles.READ
    template_name = "core/dashboard/calendar_link.html"

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action == "issue":
            services.calendar_token_issue(user=request.user)
            messages.success(request, _("Nuevo enlace creado. El enlace anterior ya no funciona."))
        elif action == "revoke":
            services.calendar_token_revoke(user=request.user)
            messages.success(request, _("Enlace revocado: nadie puede leer su calendario con él."))
        else:
            messages.error(request, _("Acción desconocida."))
        return redirect("core:calendar_link")

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        cal = StaffCalendar.objects.filter(user=self.request.user).first()
        ctx["calendar"] = cal
        if cal and cal.token:
            ctx["feed_url"] = self.request.build_absolute_uri(reverse("core:calendar_ical", args=[cal.token]))
        return ctx


class CalendarFeedView(View):
    """Public URL with the secret token (calendar apps cannot log in). Unknown or revoked: 404."""

    def get(self, request, token: str):
        user = selectors.calendar_user(token)
        if user is None:
            raise Http404
        today = timezone.localdate()
        text = build_calendar(selectors.feed_items(user, today), now=timezone.now(),
                              name=_("Plazos — %(who)s") % {"who": user.get_full_name() or user.username},
                              base_url=request.build_absolute_uri("/"))
        response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = 'inline; filename="plazos.ics"'
        response["Cache-Control"] = "private, no-store"
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response


def assignees_for(user) -> list[tuple[int, str]]:
    """Whom the home page offers to assign to (writers only see the list)."""
    if not roles.can_write(user):
        return []
    return [(u.pk, u.get_full_name() or u.username) for u in assignable_users()]
