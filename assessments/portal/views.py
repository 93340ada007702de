"""The owners' portal: an owner sees their own parcels and documents, nothing else."""
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.views.generic import TemplateView

from assessments.portal import selectors
from core import roles


class OwnerRequiredMixin(LoginRequiredMixin):
    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not roles.has_role(request.user, roles.OWNER):
            return redirect("home")
        return super().dispatch(request, *args, **kwargs)


class PortalHomeView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/home.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["party"] = selectors.access_party(self.request.user)
        ctx["parcels"] = selectors.owner_parcels(self.request.user)
        return ctx


class PortalParcelView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/parcel.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["parcel"] = selectors.access_parcel(self.request.user, self.kwargs["pk"])
        return ctx
