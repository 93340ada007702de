"""IRR-9: irrigation quotas are collected "en la forma y fechas" of the property-tax law; a roll
cannot be certified until its delinquency terms are entered or an administrator records that none
apply (an audited decision shown on the roll page)."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from assessments.rolls import irr9, services
from assessments.rolls.models import Roll
from core.models import AuditEntry, ParameterVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(irrigation_figures, staff_user):
    ParameterVersion.objects.filter(family="irr_delinquency").delete()  # the tests' office decision, gone
    return services.roll_generate(district_code=irrigation_figures.district.code, fiscal_year=2027,
                                  actor=staff_user).roll


@pytest.fixture
def admin_user(make_user):
    return make_user("ada.admin", "administrator", first_name="Ada", last_name="Rivera")


def test_a_roll_without_delinquency_terms_is_not_certified(draft, approver_user):
    with pytest.raises(services.RollError) as exc:
        services.roll_certify(roll=draft, actor=approver_user)
    assert "IRR-9" in str(exc.value) and "irr_delinquency" in str(exc.value)
    assert Roll.objects.get(pk=draft.pk).status == Roll.Status.DRAFT


def test_terms_entered_let_it_be_certified(draft, approver_user):
    ParameterVersion.objects.create(family="irr_delinquency", version="crim-2026", effective_from=draft.figures
                                    .certified_on.replace(month=1, day=1), citation="Código Municipal (prueba)",
                                    values={"grace_days": "30", "surcharge_pct": "5", "interest_pct_per_month": "1"})
    services.roll_certify(roll=draft, actor=approver_user)
    assert Roll.objects.get(pk=draft.pk).status == Roll.Status.CERTIFIED


def test_only_an_administrator_records_that_none_apply_with_a_reason(draft, approver_user, admin_user):
    with pytest.raises(PermissionDenied):
        irr9.record_none_apply(roll=draft, actor=approver_user, reason="No hay")
    with pytest.raises(ValidationError) as exc:
        irr9.record_none_apply(roll=draft, actor=admin_user, reason="  ")
    assert "reason" in exc.value.message_dict
    version = irr9.record_none_apply(roll=draft, actor=admin_user, reason="Resolución 2026-14 de la Junta")
    assert irr9.terms_for_roll(draft).none_apply and version.created_by == admin_user
    assert AuditEntry.objects.filter(action="roll.irr9_none_apply", data__reason="Resolución 2026-14 de la Junta")
    with pytest.raises(ValidationError):  # recorded once
        irr9.record_none_apply(roll=draft, actor=admin_user, reason="otra vez")
    services.roll_certify(roll=draft, actor=approver_user)
    assert Roll.objects.get(pk=draft.pk).status == Roll.Status.CERTIFIED


def test_the_roll_page_shows_the_decision_and_offers_it_only_to_administrators(draft, client, admin_user,
                                                                                 approver_user):
    client.force_login(approver_user)
    page = client.get(draft.get_absolute_url()).content.decode()
    assert "IRR-9" in page and "no se puede certificar" in page and 'id="irr9-form"' not in page
    assert client.post(f"/padrones/{draft.pk}/irr9-no-aplica/", {"reason": "x"}).status_code == 403
    client.force_login(admin_user)
    assert 'id="irr9-form"' in client.get(draft.get_absolute_url()).content.decode()
    client.post(f"/padrones/{draft.pk}/irr9-no-aplica/", {"reason": "Resolución 2026-14"})
    page = client.get(draft.get_absolute_url()).content.decode()
    assert "Ada Rivera" in page and "Resolución 2026-14" in page and "no aplican" in page
