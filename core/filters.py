"""API filters that refuse what they do not understand, instead of ignoring it.

django-filter reads `?is_public_land=maybe` as "no filter" and `?fiscal_year=2025.5` as a decimal, so a
typo in a query answers every row as if it had been obeyed. Here a boolean is true/false/1/0 (or empty:
no filter) and an integer column's filter takes integers; anything else is a 400 naming the parameter
(DjangoFilterBackend raises the form's errors). The OpenAPI schema already says boolean and integer.
"""
from __future__ import annotations

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as filters
from django_filters.widgets import BooleanWidget

BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
INTEGER_FIELDS = (models.IntegerField, models.BigIntegerField, models.SmallIntegerField,
                  models.PositiveIntegerField, models.PositiveSmallIntegerField, models.PositiveBigIntegerField,
                  models.AutoField, models.BigAutoField, models.SmallAutoField)


class _StrictBooleanWidget(BooleanWidget):
    def value_from_datadict(self, data, files, name):
        value = data.get(name)
        if isinstance(value, str) and value.lower() in BOOLEANS:
            return BOOLEANS[value.lower()]
        return value  # None, "" (no filter) or a word the field refuses


class _StrictBooleanField(forms.NullBooleanField):
    def to_python(self, value):
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            return value
        raise forms.ValidationError(_("Debe ser true o false."), code="invalid")

    def validate(self, value):
        pass


class BooleanFilter(filters.BooleanFilter):
    field_class = _StrictBooleanField

    def __init__(self, *args, **kwargs):
        kwargs["widget"] = _StrictBooleanWidget
        super().__init__(*args, **kwargs)


class IntegerFilter(filters.NumberFilter):
    field_class = forms.IntegerField


class FilterSet(filters.FilterSet):
    """The project's base FilterSet (explicit filtersets and `filterset_fields` alike)."""

    FILTER_DEFAULTS = {
        **filters.FilterSet.FILTER_DEFAULTS,
        models.BooleanField: {"filter_class": BooleanFilter},
        **{field: {"filter_class": IntegerFilter} for field in INTEGER_FIELDS},
    }


class FilterBackend(filters.DjangoFilterBackend):
    filterset_base = FilterSet
