"""The administrator's IRR-9 decision on the roll page: no delinquency terms apply (assessments/rolls/irr9.py)."""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View

from assessments.rolls import irr9
from assessments.rolls.models import Roll
from core import roles
from core.mixins import WriterRequiredMixin


class Irr9NoneApplyView(WriterRequiredMixin, View):
    required_action = roles.ADMINISTER

    def post(self, request, pk: int):
        roll = get_object_or_404(Roll.objects.select_related("district"), pk=pk)
        try:
            irr9.record_none_apply(roll=roll, actor=request.user, reason=request.POST.get("reason", ""))
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("IRR-9: quedó registrado que no aplican términos de morosidad; el padrón "
                                        "puede certificarse."))
        return redirect(roll.get_absolute_url())
