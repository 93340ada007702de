"""FRA-1 to FRA-4 franchise tariffs: pure tables, no database."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.compute import ComputeInputError, run
from assessments.rules.franchise import (
    EXEMPTIONS,
    annual_tariff,
    assess,
    first_year_amount,
    fund_split,
    installment_due_dates,
    installments,
    monthly_bill,
    tariff_class,
    tariffs_from_parameters,
)
from assessments.rules.parameters import ShippedParameters

TARIFFS = tariffs_from_parameters(ShippedParameters().get("fra_tariffs", date(2026, 7, 1)).values)


@pytest.mark.parametrize(("source", "use", "code"), [
    ("SURFACE", "DOMESTIC", "DOMESTIC"),
    ("GROUNDWATER", "DOMESTIC", "DOMESTIC"),
    ("ARTESIAN", "DOMESTIC", "DOMESTIC"),  # c.6 excludes c.1
    ("BRACKISH", "DOMESTIC", "BRACKISH"),
    ("SURFACE", "INSTITUTIONAL", "INSTITUTIONAL"),
    ("GROUNDWATER", "INSTITUTIONAL", "INSTITUTIONAL"),
    ("ARTESIAN", "INSTITUTIONAL", "ARTESIAN"),
    ("SURFACE", "GOVERNMENTAL", "GOVERNMENTAL"),
    ("GROUNDWATER", "GOVERNMENTAL", "GOVERNMENTAL"),
    ("ARTESIAN", "GOVERNMENTAL", "ARTESIAN"),  # c.3 excludes c.6
    ("SURFACE", "RECREATIONAL", "RECREATIONAL"),
    ("SURFACE", "RECREATION_BUSINESS", "SURFACE_INDUSTRIAL"),  # a recreation business is commercial
    ("GROUNDWATER", "RECREATION_BUSINESS", "GROUND_INDUSTRIAL"),
    ("SURFACE", "INDUSTRIAL_COMMERCIAL", "SURFACE_INDUSTRIAL"),
    ("GROUNDWATER", "INDUSTRIAL_COMMERCIAL", "GROUND_INDUSTRIAL"),
    ("ARTESIAN", "INDUSTRIAL_COMMERCIAL", "GROUND_INDUSTRIAL"),  # 8.13 a before c.6
    ("BRACKISH", "INDUSTRIAL_COMMERCIAL", "BRACKISH"),
    ("BRACKISH", "RECREATION_BUSINESS", "BRACKISH"),
])
def test_tariff_class(source, use, code):
    assert tariff_class(source, use) == code


def test_tariff_class_refuses_unknown_codes():
    with pytest.raises(ValueError):
        tariff_class("RIVER", "DOMESTIC")
    with pytest.raises(ValueError):
        tariff_class("SURFACE", "AGRICULTURAL")


@pytest.mark.parametrize(("code", "gallons", "amount"), [
    ("DOMESTIC", "0", "50.00"),
    ("DOMESTIC", "999999", "50.00"),  # under 1 MG the minimum is the whole tariff
    ("DOMESTIC", "1000000", "50.00"),
    ("DOMESTIC", "1000010", "50.00"),  # 50.0005
    ("DOMESTIC", "1500000", "75.00"),
    ("DOMESTIC", "2500000", "125.00"),
    ("INSTITUTIONAL", "400000", "150.00"),
    ("INSTITUTIONAL", "1234567", "185.19"),  # 185.18505
    ("GOVERNMENTAL", "3000000", "300.00"),
    ("RECREATIONAL", "500000", "50.00"),
    ("SURFACE_INDUSTRIAL", "3333333", "1666.67"),  # 1666.6665
    ("SURFACE_INDUSTRIAL", "500000", "500.00"),
    ("ARTESIAN", "1000010", "500.01"),  # 500.005, half-up
    ("ARTESIAN", "2000000", "1000.00"),
    ("BRACKISH", "0", "150.00"),  # no minimum: $150 a year plus $0.20 per MG
    ("BRACKISH", "25000", "150.01"),  # 150.005
    ("BRACKISH", "500000", "150.10"),
    ("BRACKISH", "10000000", "152.00"),
])
def test_annual_tariff(code, gallons, amount):
    assert str(annual_tariff(TARIFFS[code], Decimal(gallons))) == amount


def test_metered_class_has_no_annual_tariff_on_volume():
    with pytest.raises(ValueError):
        annual_tariff(TARIFFS["GROUND_INDUSTRIAL"], Decimal("1000000"))
    with pytest.raises(ValueError):
        monthly_bill(TARIFFS["DOMESTIC"], Decimal("1"))


@pytest.mark.parametrize(("gallons", "bill"), [
    ("1234567", "2469.13"),
    ("0", "0.00"),
    ("2", "0.00"),  # 0.004
    ("2.5", "0.01"),  # 0.005, half-up
    ("3", "0.01"),
    ("1247", "2.49"),
    ("1249", "2.50"),
    ("2500", "5.00"),
])
def test_monthly_bill(gallons, bill):
    assert str(monthly_bill(TARIFFS["GROUND_INDUSTRIAL"], Decimal(gallons))) == bill


@pytest.mark.parametrize(("annual", "plan", "parts"), [
    ("125.00", "ANNUAL", ["125.00"]),
    ("125.00", "SEMIANNUAL", ["62.50", "62.50"]),
    ("1666.67", "SEMIANNUAL", ["833.34", "833.33"]),
    ("0.01", "SEMIANNUAL", ["0.01", "0.00"]),
])
def test_installments(annual, plan, parts):
    assert [str(a) for a in installments(Decimal(annual), plan)] == parts


def test_installment_due_dates_follow_the_fiscal_year():
    assert installment_due_dates(2027, "ANNUAL") == (date(2026, 7, 1),)
    assert installment_due_dates(2027, "SEMIANNUAL") == (date(2026, 7, 1), date(2027, 1, 1))
    with pytest.raises(ValueError):
        installments(Decimal("1.00"), "MONTHLY")


@pytest.mark.parametrize(("annual", "issued_on", "amount"), [
    ("365.00", "2026-07-01", "365.00"),  # the whole FY2027
    ("365.00", "2027-06-30", "1.00"),
    ("365.00", "2027-01-01", "181.00"),
    ("366.00", "2028-01-01", "182.00"),  # FY2028 has 366 days
    ("100.00", "2026-10-15", "70.96"),  # 259 / 365 = 70.9589...
])
def test_first_year_pro_rata(annual, issued_on, amount):
    assert str(first_year_amount(Decimal(annual), date.fromisoformat(issued_on))) == amount


def test_fund_split_transfers_90_percent_of_ground_industrial_only():
    split = fund_split({"GROUND_INDUSTRIAL": Decimal("1000.05"), "DOMESTIC": Decimal("500.00")}, Decimal("90"),
                       ["GROUND_INDUSTRIAL"])
    gi, dom = split["GROUND_INDUSTRIAL"], split["DOMESTIC"]
    assert (str(gi.collected), str(gi.transferred), str(gi.retained)) == ("1000.05", "900.05", "100.00")
    assert (str(dom.transferred), str(dom.retained)) == ("0.00", "500.00")


@pytest.mark.parametrize("reason", sorted(EXEMPTIONS))
def test_exempt_franchise_keeps_its_class_and_pays_nothing(reason):
    result = assess("GROUNDWATER", "INDUSTRIAL_COMMERCIAL", TARIFFS, exempt_reason=reason,
                    monthly_gallons=[Decimal("1000")])
    assert (result.tariff_class, result.exempt_reason, str(result.annual_tariff)) == (
        "GROUND_INDUSTRIAL", reason, "0.00")
    assert result.installments == () and result.monthly_bills == ()


def test_unknown_exemption_is_refused():
    with pytest.raises(ValueError):
        assess("SURFACE", "DOMESTIC", TARIFFS, authorized_gallons=Decimal("1"), exempt_reason="FRIENDS")


def test_metered_annual_tariff_is_the_sum_of_the_bills():
    result = assess("GROUNDWATER", "INDUSTRIAL_COMMERCIAL", TARIFFS,
                    monthly_gallons=[Decimal("1234567"), Decimal("3"), Decimal("2")])
    assert [str(b) for b in result.monthly_bills] == ["2469.13", "0.01", "0.00"]
    assert str(result.annual_tariff) == "2469.14"


# --- the `franchise-tariff` calculation ---------------------------------------------------

def test_output_names_citation_and_parameters():
    out = run("franchise-tariff", {"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": "2500000"})
    assert out["installments"] == ["125.00"] and out["payment_plan"] == "ANNUAL"
    assert "8.13 c.1" in out["citation"]
    assert out["parameters"] == ["fra_tariffs@reglamento-aguas-1"]


def test_what_if_rates():
    payload = {"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": "2500000",
               "parameters": {"fra_tariffs": {"classes": {"DOMESTIC": {"per_mg": "60.00", "minimum": "60.00"}}}}}
    assert run("franchise-tariff", payload)["annual_tariff"] == "150.00"


@pytest.mark.parametrize(("payload", "field"), [
    ({"use": "DOMESTIC", "authorized_gallons": 1}, "source"),
    ({"source": "RIVER", "use": "DOMESTIC", "authorized_gallons": 1}, "source"),
    ({"source": "SURFACE", "use": "FARM", "authorized_gallons": 1}, "use"),
    ({"source": "SURFACE", "use": "DOMESTIC"}, "authorized_gallons"),
    ({"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": "-1"}, "authorized_gallons"),
    ({"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": "many"}, "authorized_gallons"),
    ({"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": 1, "payment_plan": "MONTHLY"}, "payment_plan"),
    ({"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": 1, "exempt_reason": "FRIENDS"}, "exempt_reason"),
    ({"source": "GROUNDWATER", "use": "INDUSTRIAL_COMMERCIAL", "authorized_gallons": 1}, "monthly_gallons_extracted"),
    ({"source": "GROUNDWATER", "use": "INDUSTRIAL_COMMERCIAL", "monthly_gallons_extracted": [1, 2, -3]},
     "monthly_gallons_extracted[2]"),
    ({"source": "SURFACE", "use": "DOMESTIC", "authorized_gallons": 1, "as_of": "July"}, "as_of"),
])
def test_invalid_input(payload, field):
    with pytest.raises(ComputeInputError) as exc:
        run("franchise-tariff", payload)
    assert exc.value.field == field
