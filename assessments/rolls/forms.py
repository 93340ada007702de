from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from assessments.whatif.forms import IrrigationFiguresForm, LajasFiguresForm
from core.forms import AmountField, DateInput
from core.uploads import bounded_file_field
from districts.models import District

DATE = DateInput()


class CertificationMixin(forms.Form):
    certified_by = forms.CharField(label=_("Certificado por (funcionario)"), max_length=200)
    certified_on = forms.DateField(label=_("Fecha de certificación"), widget=DATE)
    document = bounded_file_field(label=_("Documento de certificación (PDF)"), required=False)


class IrrigationCertifiedForm(IrrigationFiguresForm, CertificationMixin):
    unpayable_bond_amount = AmountField(
        label=_("Bonos que no pueden pagarse (IRR-3)"), max_digits=14, decimal_places=2, min_value=Decimal("0"),
        initial=Decimal("0.00"), required=False,
        help_text=_("Se informa aparte; no es déficit de ningún año posterior."))


class LajasCertifiedForm(LajasFiguresForm, CertificationMixin):
    pass


def certified_form_for(district: District, *args, **kwargs):
    cls = IrrigationCertifiedForm if district.kind == District.Kind.IRRIGATION else LajasCertifiedForm
    return cls(*args, **kwargs)


class OverrideForm(forms.Form):
    new_total = AmountField(label=_("Nuevo monto del año"), max_digits=14, decimal_places=2,
                                   min_value=Decimal("0"))
    reason = forms.CharField(label=_("Razón"), widget=forms.Textarea(attrs={"rows": 3}))
