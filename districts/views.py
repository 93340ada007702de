"""Staff pages of the land register: thin views over selectors and services."""
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, ListView

from core import roles
from core.mixins import StaffRequiredMixin
from core.views import RecordFormView
from districts import forms, selectors
from districts.models import District, Membership, Office, Ownership, Parcel, Party, WaterDelivery


class SearchListView(StaffRequiredMixin, ListView):
    paginate_by = 25

    def query(self) -> str:
        return self.request.GET.get("q", "").strip()

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["q"] = self.query()
        return ctx


class ParcelListView(SearchListView):
    template_name = "districts/parcel_list.html"

    def get_queryset(self):
        district = None
        if code := self.request.GET.get("district"):
            district = get_object_or_404(District, code=code)
        return selectors.parcel_search(self.query(), district=district)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["districts"] = District.objects.order_by("name")
        ctx["district_code"] = self.request.GET.get("district", "")
        return ctx


class ParcelDetailView(StaffRequiredMixin, DetailView):
    template_name = "districts/parcel_detail.html"
    context_object_name = "parcel"

    def get_object(self, queryset=None):
        try:
            return selectors.parcel_detail(self.kwargs["pk"])
        except Parcel.DoesNotExist as exc:
            raise Http404 from exc

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        parcel = self.object
        ctx["current_owners"] = [o for o in parcel.ownerships.all() if o.end_date is None]
        ctx["past_owners"] = [o for o in parcel.ownerships.all() if o.end_date is not None]
        ctx["history"] = parcel.history.select_related("history_user")[:15]
        return ctx


class PartyListView(SearchListView):
    template_name = "districts/party_list.html"

    def get_queryset(self):
        return selectors.party_search(self.query())


class PartyDetailView(StaffRequiredMixin, DetailView):
    template_name = "districts/party_detail.html"
    context_object_name = "party"
    queryset = Party.objects.select_related("address_municipality", "representative", "user")

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["ownerships"] = self.object.ownerships.select_related("parcel", "parcel__municipality")
        ctx["history"] = self.object.history.select_related("history_user")[:15]
        # "Crear cuenta e invitar" (the owners' portal): the role matrix's `invite`
        ctx["can_invite_owner"] = roles.can(self.request.user, roles.INVITE)
        return ctx


class DistrictListView(StaffRequiredMixin, ListView):
    template_name = "districts/district_list.html"

    def get_queryset(self):
        return selectors.district_list()


class DistrictDetailView(StaffRequiredMixin, DetailView):
    template_name = "districts/district_detail.html"
    context_object_name = "district"
    slug_field = "code"
    slug_url_kwarg = "code"
    queryset = District.objects.select_related("office", "collecting_office").prefetch_related("municipalities")

    def get_context_data(self, **kwargs):
        from django.db.models import Count, Sum

        ctx = super().get_context_data(**kwargs)
        members = Membership.objects.filter(district=self.object)
        ctx["stats"] = members.aggregate(parcels=Count("id"), gravity=Sum("gravity_acres"),
                                         pumped=Sum("pumped_acres"))
        ctx["memberships"] = members.select_related("parcel", "parcel__municipality")[:50]
        return ctx


class OfficeListView(StaffRequiredMixin, ListView):
    template_name = "districts/office_list.html"

    def get_queryset(self):
        return selectors.office_list()


class PartyFormView(RecordFormView):
    model, form_class, action = Party, forms.PartyForm, "party"
    create_title, edit_title = _("Nueva persona o entidad"), _("Editar persona o entidad")


class OfficeFormView(RecordFormView):
    model, form_class, action = Office, forms.OfficeForm, "office"
    create_title, edit_title = _("Nueva oficina"), _("Editar oficina")


class ParcelFormView(RecordFormView):
    model, form_class, action = Parcel, forms.ParcelForm, "parcel"
    create_title, edit_title = _("Nueva parcela"), _("Editar parcela")


class OwnershipFormView(RecordFormView):
    model, form_class, action = Ownership, forms.OwnershipForm, "ownership"
    create_title, edit_title = _("Nueva titularidad"), _("Editar titularidad")


class DistrictFormView(RecordFormView):
    model, form_class, action = District, forms.DistrictForm, "district"
    create_title, edit_title = _("Nuevo distrito"), _("Editar distrito")


class MembershipFormView(RecordFormView):
    model, form_class, action = Membership, forms.MembershipForm, "membership"
    create_title, edit_title = _("Nueva inclusión en distrito"), _("Editar inclusión")


class WaterDeliveryFormView(RecordFormView):
    model, form_class, action = WaterDelivery, forms.WaterDeliveryForm, "water"
    create_title, edit_title = _("Nueva entrega de agua"), _("Editar entrega de agua")
