"""Registry: the tariff class is derived and stored on save (FRA-1); validity never past 10 years (FRA-6)."""
from datetime import date

import pytest
from django.core.exceptions import ValidationError

from assessments.rules import franchise as tariff_rules
from franchises import rules, services
from franchises.models import Exemption, Franchise, MeterReading, Source, TariffClass, Use

D = date.fromisoformat


def test_choices_match_the_tariff_engine():
    assert set(Source.values) == set(tariff_rules.SOURCES)
    assert set(Use.values) == set(tariff_rules.USES)
    assert set(TariffClass.values) == set(tariff_rules.CLASSES)
    assert set(Exemption.values) == set(tariff_rules.EXEMPTIONS)
    assert rules.tariff_class is tariff_rules.tariff_class  # one derivation, not a copy


@pytest.mark.parametrize(("source", "use", "expected"), [
    ("GROUNDWATER", "INDUSTRIAL_COMMERCIAL", "GROUND_INDUSTRIAL"),
    ("ARTESIAN", "RECREATION_BUSINESS", "GROUND_INDUSTRIAL"),
    ("BRACKISH", "DOMESTIC", "BRACKISH"),
    ("ARTESIAN", "DOMESTIC", "DOMESTIC"),
    ("SURFACE", "INSTITUTIONAL", "INSTITUTIONAL"),
    ("GROUNDWATER", "GOVERNMENTAL", "GOVERNMENTAL"),
    ("SURFACE", "RECREATIONAL", "RECREATIONAL"),
    ("SURFACE", "RECREATION_BUSINESS", "SURFACE_INDUSTRIAL"),
    ("ARTESIAN", "GOVERNMENTAL", "ARTESIAN"),
])
def test_tariff_class_is_derived_and_stored_on_save(make_franchise, source, use, expected):
    f = make_franchise(source=source, use=use)
    assert Franchise.objects.filter(pk=f.pk).values_list("tariff_class", flat=True).get() == expected


def test_tariff_class_follows_a_change_of_use_even_with_update_fields(make_franchise):
    f = make_franchise(source="SURFACE", use="DOMESTIC")
    assert f.tariff_class == "DOMESTIC"
    f.use = "INDUSTRIAL_COMMERCIAL"
    f.save(update_fields=["use"])
    f.refresh_from_db()
    assert f.tariff_class == "SURFACE_INDUSTRIAL"
    # A plain ORM create derives it too: it is never typed in.
    g = Franchise.objects.create(number="DRNA-FE-2021-0001", holder=f.holder, source="BRACKISH", use="DOMESTIC",
                                 authorized_gallons=1, issue_date=D("2021-01-01"), expiry_date=D("2022-01-01"),
                                 office=f.office)
    assert Franchise.objects.get(pk=g.pk).tariff_class == "BRACKISH"


def test_exempt_franchise_keeps_its_class(make_franchise):
    f = make_franchise(source="SURFACE", use="GOVERNMENTAL", exemption=Exemption.AAA,
                       exemption_basis="Toma de la planta de filtros.")
    assert (f.tariff_class, f.exemption, f.is_exempt) == ("GOVERNMENTAL", "AAA", True)


@pytest.mark.parametrize(("original", "issue", "expiry", "ok"), [
    ("2019-03-01", "2019-03-01", "2029-03-01", True),    # exactly 10 years
    ("2019-03-01", "2019-03-01", "2029-03-02", False),   # one day more
    ("2015-01-01", "2020-01-01", "2025-01-01", True),    # renewed: counted from the original issue
    ("2015-01-01", "2020-01-01", "2025-01-02", False),
    ("2016-02-29", "2016-02-29", "2026-02-28", True),    # Feb 29 + 10 years clamps to Feb 28
    ("2016-02-29", "2016-02-29", "2026-03-01", False),
])
def test_validity_at_most_ten_years_from_original_issue(make_franchise, original, issue, expiry, ok):
    if ok:
        f = make_franchise(original_issue_date=D(original), issue=D(issue), expiry=D(expiry))
        assert f.max_expiry == rules.max_expiry(D(original))
        return
    with pytest.raises(ValidationError) as exc:
        make_franchise(original_issue_date=D(original), issue=D(issue), expiry=D(expiry))
    assert "expiry_date" in exc.value.message_dict
    assert "10 años" in exc.value.message_dict["expiry_date"][0]
    assert not Franchise.objects.exists()


def test_original_issue_defaults_to_issue(make_franchise):
    f = make_franchise(issue=D("2021-05-10"), expiry=D("2031-05-10"))
    assert f.original_issue_date == D("2021-05-10")


def test_expiry_before_issue_is_refused(make_franchise):
    with pytest.raises(ValidationError) as exc:
        make_franchise(issue=D("2021-05-10"), expiry=D("2021-05-10"))
    assert "expiry_date" in exc.value.message_dict


@pytest.mark.parametrize(("extra", "field"), [
    ({"exemption": "SECTION_2_12", "exemption_basis": "Investigación"}, "exemption_resolution"),
    ({"exemption": "AGRICULTURAL"}, "exemption_basis"),
    ({"exemption": "ACQUIRED_RIGHT", "exemption_basis": "Ley anterior"}, "acquired_right"),
])
def test_exemption_needs_its_basis(make_franchise, extra, field):
    with pytest.raises(ValidationError) as exc:
        make_franchise(**extra)
    assert field in exc.value.message_dict


def test_section_2_12_with_resolution_is_accepted(make_franchise):
    f = make_franchise(exemption="SECTION_2_12", exemption_basis="Investigación",
                       exemption_resolution="Res. DRNA-R-2022-045")
    assert f.exemption_resolution == "Res. DRNA-R-2022-045"


def test_meter_reading_is_upserted_by_month_and_needs_the_first_day(make_franchise, staff_user):
    f = make_franchise()
    services.meter_reading_record(actor=staff_user, franchise=f, month=D("2026-03-01"), gallons=100)
    services.meter_reading_record(actor=staff_user, franchise=f, month=D("2026-03-01"), gallons=250)
    assert list(MeterReading.objects.values_list("month", "gallons")) == [(D("2026-03-01"), 250)]
    with pytest.raises(ValidationError):
        services.meter_reading_record(actor=staff_user, franchise=f, month=D("2026-03-15"), gallons=1)


def test_history_is_kept(make_franchise, staff_user):
    f = make_franchise(actor=staff_user)
    f.authorized_gallons = 1
    services.franchise_save(actor=staff_user, instance=f)
    assert f.history.count() == 2
