"""Staff pages of the roll's supplements (role: the one that certifies rolls, i.e. a writer)."""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import FormView

from assessments.rolls import supplements
from assessments.rolls.correction_forms import IncludeMidyearForm, SplitForm
from assessments.rolls.models import Roll
from core import roles
from core.mixins import WriterRequiredMixin


class _RollFormView(WriterRequiredMixin, FormView):
    required_action = roles.DRAFT
    # Looked up after the role check in dispatch: a refused visitor learns nothing.
    @cached_property
    def roll(self) -> Roll:
        return get_object_or_404(Roll.objects.select_related("district"), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "roll": self.roll}

    def fail(self, form, exc: ValidationError):
        if hasattr(exc, "error_dict"):
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            form.add_error(None, exc.messages)
        return self.form_invalid(form)


class IncludeMidyearView(_RollFormView):
    template_name = "rolls/include_midyear.html"
    form_class = IncludeMidyearForm

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        parcel, included_on = data.pop("cadastre"), data.pop("included_on")
        try:
            _member, correction = supplements.parcel_include_midyear(
                district=self.roll.district, parcel=parcel, included_on=included_on, on=timezone.localdate(),
                actor=self.request.user, **data)
        except ValidationError as exc:
            return self.fail(form, exc)
        if correction is None:
            messages.info(self.request, _("Parcela incluida. No hay padrón certificado o finalizado de ese año "
                                          "fiscal: entrará en el próximo padrón."))
        else:
            messages.success(self.request, _("Parcela incluida; entrada suplementaria de %(a)s (%(r)s).")
                             % {"a": correction.amount, "r": correction.rule})
        return redirect(self.roll.get_absolute_url())


class SplitView(_RollFormView):
    template_name = "rolls/split.html"
    form_class = SplitForm

    def form_valid(self, form):
        children = [supplements.Child(parcel=p, gravity_acres=g, pumped_acres=pu)
                    for p, g, pu in form.cleaned_data["children"]]
        try:
            done = supplements.parcel_split(district=self.roll.district, parent=form.cleaned_data["parent"],
                                            children=children, on=form.cleaned_data["on"], actor=self.request.user)
        except ValidationError as exc:
            return self.fail(form, exc)
        messages.success(self.request, _("Parcela segregada; %(n)s entradas de corrección registradas.")
                         % {"n": len(done)})
        return redirect(self.roll.get_absolute_url())
