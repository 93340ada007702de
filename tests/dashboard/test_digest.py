"""The daily digest: each responsible user gets one e-mail a day with what is overdue and what
comes due in the next 7 days; a second delivery sends nothing (DigestSent)."""
from datetime import date, timedelta

import pytest
from django.core import mail

from core.dashboard.services import digest_send, digests_send_all, item_assign
from core.models import DigestSent
from core.tasks import send_daily_digests
from core.workqueue import clock_open
from tests import factories

pytestmark = pytest.mark.django_db
D = date.fromisoformat
TODAY = D("2026-12-01")


@pytest.fixture
def team(make_user):
    return {"staff": make_user("ana", "staff", email="ana@example.com", first_name="Ana"),
            "legal": make_user("nilda", "legal_reviewer", email="nilda@example.com"),
            "cashier": make_user("carmen", "cashier", email="carmen@example.com"),
            "auditor": make_user("aud", "auditor", email="aud@example.com"),
            "no_mail": make_user("sin.correo", "staff")}


@pytest.fixture
def clocks(db):
    district = factories.district()
    return {
        "late": clock_open(rule="SID-3", start_date=D("2026-08-01"), due_date=D("2026-11-27"), target=district,
                           label="Remesar los cobros; lote 4"),
        "week": clock_open(rule="FRA-5", start_date=D("2026-11-06"), due_date=D("2026-12-07"), target=district,
                           label="Decidir la transferencia"),
        "later": clock_open(rule="FRA-11", start_date=D("2026-11-20"), due_date=D("2026-12-21"), target=district,
                            label="Pedir vista"),
    }


def test_each_responsible_user_gets_one_digest_with_overdue_and_this_week(team, clocks):
    item_assign(item_key=f"clock:{clocks['week'].pk}", user=team["legal"], actor=team["staff"], today=TODAY)
    assert digests_send_all(today=TODAY, base_url="https://cargos.example") == 2
    by_to = {m.to[0]: m for m in mail.outbox}
    assert set(by_to) == {"ana@example.com", "nilda@example.com"}      # cashier, auditor: nothing of theirs
    ana, nilda = by_to["ana@example.com"], by_to["nilda@example.com"]
    assert ana.subject == "Plazos del 01/12/2026: 1 vencidos, 0 vencen esta semana"
    assert "Remesar los cobros; lote 4" in ana.body and "[SID-3]" in ana.body
    assert "Decidir la transferencia" not in ana.body and "Pedir vista" not in ana.body
    assert "Decidir la transferencia" in nilda.body and "https://cargos.example" in nilda.body
    assert nilda.alternatives and nilda.alternatives[0][1] == "text/html"
    assert sorted(DigestSent.objects.values_list("user__username", "date", "item_count")) == [
        ("ana", TODAY, 1), ("nilda", TODAY, 1)]


def test_a_second_delivery_the_same_day_sends_nothing(team, clocks):
    assert send_daily_digests(TODAY.isoformat()) == 1
    assert send_daily_digests(TODAY.isoformat()) == 0
    assert digest_send(user=team["staff"], today=TODAY) is False
    assert len(mail.outbox) == 1
    assert send_daily_digests((TODAY + timedelta(days=1)).isoformat()) == 1   # a new day, a new digest
    assert len(mail.outbox) == 2


def test_nothing_due_no_mail(team):
    assert digests_send_all(today=TODAY) == 0
    assert mail.outbox == [] and not DigestSent.objects.exists()


def test_a_failed_send_leaves_no_record_so_the_retry_sends(team, clocks, monkeypatch):
    from django.core.mail import EmailMultiAlternatives

    def broken(self, fail_silently=False):
        raise OSError("SMTP down")

    monkeypatch.setattr(EmailMultiAlternatives, "send", broken)
    with pytest.raises(OSError):
        digest_send(user=team["staff"], today=TODAY)
    assert not DigestSent.objects.exists()
    monkeypatch.undo()
    assert digest_send(user=team["staff"], today=TODAY) is True
    assert len(mail.outbox) == 1


def test_the_digest_runs_daily_at_0630_puerto_rico_time(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["core-daily-digest"]
    assert entry["task"] == "core.tasks.send_daily_digests"
    assert (entry["schedule"].hour, entry["schedule"].minute) == ({6}, {30})
    assert settings.CELERY_TIMEZONE == "America/Puerto_Rico"
