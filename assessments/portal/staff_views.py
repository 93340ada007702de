"""Staff pages about owners' portal accounts: "Crear cuenta e invitar" from a party's page."""
from __future__ import annotations

import smtplib

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView

from assessments.portal import services
from assessments.portal.forms import InviteForm
from core import roles
from core.mixins import StaffRequiredMixin
from districts.models import Party


def can_invite(user) -> bool:
    """Opening an account to the public is for those who keep the register (`invite`), not the cashier
    or the auditor."""
    return roles.can(user, roles.INVITE)


class PortalInviteView(StaffRequiredMixin, FormView):
    """Create the party's portal account and e-mail the owner the link to choose a password."""

    template_name = "portal/invite.html"
    form_class = InviteForm
    write_access = True
    required_action = roles.INVITE

    def get_party(self) -> Party:
        if not hasattr(self, "_party"):
            self._party = get_object_or_404(Party.objects.select_related("user"), pk=self.kwargs["pk"])
        return self._party

    def get_initial(self):
        party = self.get_party()
        return {"username": services.suggested_username(party)} if party.user_id is None else {}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        party = self.get_party()
        try:
            services.invite_check(party)
            ctx["refusal"] = []
        except ValidationError as exc:
            ctx["refusal"] = exc.messages
        ctx["party"] = party
        return ctx

    def form_valid(self, form):
        from core.documents.services import public_base_url  # the address printed on documents: the public one

        party = self.get_party()
        try:
            user = services.owner_invite(party=party, username=form.cleaned_data["username"],
                                         actor=self.request.user, base_url=public_base_url())
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
            return self.form_invalid(form)
        except (smtplib.SMTPException, OSError):     # the service rolled the account back with the failed send
            form.add_error(None, _("No se pudo enviar la invitación por correo; no se creó la cuenta. "
                                   "Intente de nuevo más tarde."))
            return self.form_invalid(form)
        messages.success(self.request, _("Cuenta del portal «%(u)s» creada; la invitación se envió a %(e)s.")
                         % {"u": user.username, "e": party.email})
        return redirect("districts:party_detail", pk=party.pk)
