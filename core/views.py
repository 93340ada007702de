"""Shared staff views: the home page and one create/edit flow for register records."""
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from core import roles
from core.mixins import StaffRequiredMixin, WriterRequiredMixin


class HomeView(StaffRequiredMixin, TemplateView):
    template_name = "core/home.html"

    def get_context_data(self, **kwargs):
        from core.selectors import home_summary

        ctx = super().get_context_data(**kwargs)
        ctx.update(home_summary(self.request.user))
        return ctx


class RecordFormView(WriterRequiredMixin, FormView):
    """Create or edit one record: form validation → service → message → its page.

    Subclasses set `model`, `form_class`, `action` (audit name) and the two titles.
    """

    model = None
    action = ""
    create_title = ""
    edit_title = ""
    template_name = "core/record_form.html"

    def get_object(self):
        pk = self.kwargs.get("pk")
        return get_object_or_404(self.model, pk=pk) if pk else None

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = self.object
        return kwargs

    def dispatch(self, request, *args, **kwargs):
        self.object = None
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        self.object = self.get_object()
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        from districts.services import record_save

        try:
            obj = record_save(actor=self.request.user, instance=form.save(commit=False), action=self.action)
            form.save_m2m()
        except ValidationError as exc:
            for field, errs in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errs)
            return self.form_invalid(form)
        messages.success(self.request, _("Guardado: %(obj)s") % {"obj": obj})
        return redirect(obj.get_absolute_url())

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["title"] = self.edit_title if self.object else self.create_title
        ctx["object"] = self.object
        ctx["can_write"] = roles.can_write(self.request.user)
        return ctx
