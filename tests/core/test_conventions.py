"""Puerto Rico conventions (issue #17): amounts typed 1,234.56 or 1234.56 and "500,00" refused with the
reason; dates dd/mm/aaaa; $19,160.01 in the admin; cadastres typed without dashes; exact cents on
statements; notices cite statutes by name; no English "historical" labels."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django import forms
from django.template import Context, Template
from django.utils import formats, translation

from core.forms import AmountField, DateInput
from core.money import AmbiguousNumber, parse_amount
from districts.reference import normalize_cadastre


@pytest.mark.parametrize("typed, value", [
    ("1234.56", "1234.56"), ("1,234.56", "1234.56"), ("$1,234.56", "1234.56"), (" 500 ", "500"),
    ("-20.06", "-20.06"), ("1,234,567", "1234567"), ("0.5", "0.5"), ("-$3.10", "-3.10"),
])
def test_amounts_typed_the_puerto_rico_way(typed, value):
    assert parse_amount(typed) == Decimal(value)


@pytest.mark.parametrize("typed", ["500,00", "1.234,56", "1,23", "12,3456.00"])
def test_a_comma_that_is_not_thousands_is_ambiguous(typed):
    with pytest.raises(AmbiguousNumber):
        parse_amount(typed)


@pytest.mark.parametrize("typed", ["abc", "1.2.3", "", "$", "12a"])
def test_not_a_number(typed):
    with pytest.raises(ValueError):
        parse_amount(typed)


class _Form(forms.Form):
    amount = AmountField(max_digits=14, decimal_places=2, min_value=Decimal("0"))
    on = forms.DateField(widget=DateInput())


@pytest.mark.parametrize("lang, typed, words", [
    ("es", "500,00", "es ambiguo"), ("es", "abc", "no es un número"),
    ("en", "500,00", "is ambiguous"), ("en", "abc", "is not a number"),
])
def test_the_field_says_why_in_the_persons_language(lang, typed, words):
    with translation.override(lang):
        form = _Form({"amount": typed, "on": "06/12/2026"})
        assert not form.is_valid()
        assert words in form.errors["amount"][0] and typed in form.errors["amount"][0]


def test_dates_typed_dd_mm_yyyy_and_iso_still_accepted():
    for typed in ("06/12/2026", "2026-12-06"):
        form = _Form({"amount": "1,234.56", "on": typed})
        assert form.is_valid(), form.errors
        assert form.cleaned_data == {"amount": Decimal("1234.56"), "on": date(2026, 12, 6)}
    assert not _Form({"amount": "1", "on": "12/31/2026"}).is_valid()  # mm/dd is not a date here


def test_date_box_is_text_with_a_dd_mm_aaaa_placeholder():
    html = str(_Form(initial={"on": date(2026, 12, 6), "amount": Decimal("19160.01")})["on"])
    assert 'type="text"' in html and 'placeholder="dd/mm/aaaa"' in html and 'value="06/12/2026"' in html
    assert 'type="date"' not in html


@pytest.mark.parametrize("lang", ["es", "en"])
def test_locale_formats_are_puerto_ricos(lang):
    with translation.override(lang):
        assert formats.number_format(Decimal("19160.01"), 2) == "19160.01"   # never "19160,01"
        assert formats.date_format(date(2026, 12, 6), "SHORT_DATE_FORMAT") == "06/12/2026"
        assert formats.localize(2026) == "2026"                            # years are not grouped


def test_admin_prints_money_with_dollar_and_commas():
    from django.contrib.admin.templatetags.admin_list import display_for_field

    from assessments.models import Receivable

    field = Receivable._meta.get_field("amount")
    with translation.override("es"):
        assert display_for_field(Decimal("19160.01"), field, "-") == "$19,160.01"


def test_history_rows_are_named_in_spanish_and_english():
    from django.apps import apps

    history = [m for m in apps.get_models() if m._meta.model_name.startswith("historical")]
    assert history
    with translation.override("es"):
        assert all(str(m._meta.verbose_name_plural).startswith("historial de ") for m in history)
    with translation.override("en"):
        assert all(str(m._meta.verbose_name_plural).startswith("history of ") for m in history)


def test_plus_adds_cents_exactly():
    # Django's `add` filter tried int() first: a surcharge of 0.00 + 20.06 showed as $20.00.
    out = Template("{% load fmt %}{{ a|plus:b|usd }}").render(Context({"a": Decimal("0.00"), "b": Decimal("20.06")}))
    assert out == "$20.06"


@pytest.mark.parametrize("typed, cadastre", [
    ("37100111134", "371-001-111-34"), ("371-001-111-34", "371-001-111-34"), (" 371 001 111 34 ", "371-001-111-34"),
    ("37100111134001", "371-001-111-34-001"), ("371001", "371-001"), ("Calle Sol", "Calle Sol"),
])
def test_cadastre_without_dashes(typed, cadastre):
    assert normalize_cadastre(typed) == cadastre


def test_parcel_search_and_form_accept_a_cadastre_without_dashes(db):
    from districts.forms import ParcelForm
    from districts.selectors import parcel_search
    from tests import factories

    parcel = factories.parcel()
    digits = parcel.cadastre.replace("-", "")
    assert list(parcel_search(digits)) == [parcel]
    form = ParcelForm(data={"cadastre": "37100111134"})
    form.is_valid()
    assert "cadastre" not in form.errors and form.cleaned_data["cadastre"] == "371-001-111-34"


def test_notices_cite_statutes_by_name():
    from assessments.notices.texts import SHORT_CITATIONS

    for lang in ("es", "en"):
        with translation.override(lang):
            for rule, text in SHORT_CITATIONS.items():
                assert "000" not in str(text) and "Statute 0" not in str(text) and "Estatuto 0" not in str(text), rule
                assert "¶" not in str(text), rule
    with translation.override("en"):
        assert str(SHORT_CITATIONS["FRA-1"]).startswith("Puerto Rico Water Regulation, section 8.13")



def test_no_model_in_the_admin_keeps_an_english_default_name():
    from django.apps import apps
    from django.contrib import admin

    ours = {"core", "districts", "liens", "franchises", "assessments", "rolls", "notices", "franchise_billing",
            "improvement_billing"}
    unnamed = [m._meta.label for m in apps.get_models() if admin.site.is_registered(m)
               and m._meta.app_label in ours and "verbose_name" not in m._meta.original_attrs
               and not m._meta.model_name.startswith("historical")]
    assert unnamed == []


@pytest.mark.parametrize("code, words", [
    ("annual", "anual"), ("schedule", "escala por acre"), ("WATER_BELOW_MINIMUM", "agua por debajo del mínimo (IRR-8)"),
    ("DOMESTIC", "Doméstico (8.13 c.1)"), ("ACQUIRED_RIGHT", "Derecho adquirido bajo legislación anterior"),
    ("LAJ-7", "LAJ-7"), ("", ""),
])
def test_codes_become_words(code, words):
    out = Template("{% load fmt %}{{ code|word }}").render(Context({"code": code}))
    assert out == words


def test_codes_become_english_words_through_the_catalogue():
    with translation.override("en"):
        assert Template("{% load fmt %}{{ c|word }}").render(Context({"c": "WATER_BELOW_MINIMUM"})) == (
            "water below the minimum (IRR-8)")


def test_dmy_writes_engine_dates_dd_mm_aaaa():
    out = Template("{% load fmt %}{{ a|dmy }} {{ b|dmy }}").render(Context({"a": "2026-07-01", "b": date(2027, 1, 1)}))
    assert out == "01/07/2026 01/01/2027"


def test_a_notice_sorted_by_holder_shows_the_holders_name_not_the_key():
    from assessments.notices.models import Notice

    notice = Notice(sort_key="~hotel playa azul", addressees=[{"name": "Hotel Playa Azul"}])
    assert notice.sort_label == "Hotel Playa Azul"
    assert Notice(sort_key="371-045-123-07", addressees=[]).sort_label == "371-045-123-07"


def test_lien_conflict_reasons_keep_their_spaces():
    from types import SimpleNamespace as NS

    from django.template.loader import render_to_string

    lien = NS(pk=1, get_kind_display="Cargo SID")
    ranking = NS(blocked=True, cycles=[], conflicts=[NS(a=NS(lien=lien), b=NS(lien=lien), rules=["SID-4", "IRR-10"])])
    html = render_to_string("liens/_blocked.html", {"ranking": ranking})
    assert 'SID-4</span> <span class="badge badge-bad rule">IRR-10' in html


def test_model_forms_take_amounts_and_dates_the_puerto_rico_way(db):
    from districts.forms import OwnershipForm, ParcelForm

    form = ParcelForm(data={"assessed_value": "18,500.00", "area_value": "500,5"})
    form.is_valid()
    assert "assessed_value" not in form.errors
    assert form.cleaned_data["assessed_value"] == Decimal("18500.00")
    assert "es ambiguo" in form.errors["area_value"][0]
    html = str(OwnershipForm()["start_date"])
    assert 'placeholder="dd/mm/aaaa"' in html and 'type="text"' in html


def test_admin_edit_forms_take_amounts_the_puerto_rico_way(rf, admin_user):
    from django.contrib import admin

    from core.forms import AmountField
    from liens.models import Lien

    model_admin = admin.site._registry[Lien]
    request = rf.get("/admin/liens/lien/add/")
    request.user = admin_user
    form_class = model_admin.get_form(request)
    assert isinstance(form_class.base_fields["amount"], AmountField)
