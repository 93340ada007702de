"""FRA-8: modify, suspend or revoke only after notice to holder and owner and a hearing; FRA-10 extinguishes."""
from datetime import date

import pytest
from django.core.exceptions import ValidationError

from franchises import services
from franchises.models import Franchise
from tests import factories

D = date.fromisoformat


@pytest.fixture
def proceeding(make_franchise):
    owner = factories.person(given="Ana Lucía", first="Torres", second="Vélez")
    f = make_franchise(property_owner=owner)
    return services.proceeding_open(actor=None, franchise=f, cause="ARREARS", opened_on=D("2026-03-02"),
                                    detail="Mora desde julio de 2025.", cease_and_desist=True)


def test_cease_and_desist_may_precede_the_hearing(proceeding):
    assert proceeding.cease_and_desist and proceeding.cease_and_desist_on == D("2026-03-02")


def test_suspension_needs_notices_and_hearing(proceeding):
    with pytest.raises(ValidationError) as exc:
        services.proceeding_decide(actor=None, proceeding=proceeding, outcome="SUSPENDED", decided_on=D("2026-05-01"),
                                   text="Suspendida por mora.")
    assert {"holder_notice_sent_on", "owner_notice_sent_on", "hearing"} <= set(exc.value.message_dict)
    services.proceeding_notice(actor=None, proceeding=proceeding, recipient="HOLDER", sent_on=D("2026-03-03"),
                               tracking_number="9407 1", delivered_on=D("2026-03-06"))
    services.proceeding_notice(actor=None, proceeding=proceeding, recipient="OWNER", sent_on=D("2026-03-03"),
                               tracking_number="9407 2")
    hearing = services.hearing_request(application_or_proceeding=proceeding, requested_on=D("2026-03-20"),
                                       notified_on=D("2026-03-06"))
    services.hearing_record_held(actor=None, hearing=hearing, held_on=D("2026-04-15"))
    done = services.proceeding_decide(actor=None, proceeding=proceeding, outcome="SUSPENDED",
                                      decided_on=D("2026-05-01"), text="Suspendida por mora de seis meses.")
    assert done.outcome == "SUSPENDED"
    assert Franchise.objects.get(pk=proceeding.franchise_id).status == "SUSPENDED"


def test_extinction_only_for_non_use(proceeding):
    with pytest.raises(ValidationError):
        services.proceeding_decide(actor=None, proceeding=proceeding, outcome="EXTINGUISHED",
                                   decided_on=D("2026-05-01"), text="x", hearing_waived=True)


def test_non_use_extinguishes_with_waived_hearing(make_franchise):
    f = make_franchise()
    p = services.proceeding_open(actor=None, franchise=f, cause="NON_USE", opened_on=D("2026-03-02"))
    services.proceeding_notice(actor=None, proceeding=p, recipient="HOLDER", sent_on=D("2026-03-03"),
                               tracking_number="9407 3")
    services.proceeding_decide(actor=None, proceeding=p, outcome="EXTINGUISHED", decided_on=D("2026-05-01"),
                               text="Doce meses sin uso (sec. 8.21).", hearing_waived=True)
    f.refresh_from_db()
    assert f.status == "EXTINGUISHED"


def test_the_section_8_19_notice_is_a_document_to_the_holder_and_to_the_owner(proceeding, staff_user, client):
    """Sec. 8.19: "Se notificará de ésta al tenedor de la franquicia y al dueño de la propiedad
    mediante correo certificado con acuse de recibo." Each mailing is a document addressed to its
    person (the portal lets that person download it); recording the return receipt issues nothing new."""
    from core.models import DocumentOwner
    from franchises import selectors
    from tests.notices.conftest import pdf_text

    f = proceeding.franchise
    services.proceeding_notice(actor=None, proceeding=proceeding, recipient="HOLDER", sent_on=D("2026-03-03"),
                               tracking_number="9407 1")
    services.proceeding_notice(actor=None, proceeding=proceeding, recipient="OWNER", sent_on=D("2026-03-03"),
                               tracking_number="9407 2")
    services.proceeding_notice(actor=None, proceeding=proceeding, recipient="HOLDER", sent_on=D("2026-03-03"),
                               tracking_number="9407 1", delivered_on=D("2026-03-06"))
    letters = list(selectors.proceeding_letters(proceeding))
    assert [d.title for d in letters] == [
        f"Aviso sec. 8.19 al tenedor — franquicia {f.number} — rastreo 9407 1",
        f"Aviso sec. 8.19 al dueño de la propiedad — franquicia {f.number} — rastreo 9407 2"]
    assert [list(DocumentOwner.objects.filter(document=d).values_list("party_id", flat=True)) for d in letters] == [
        [f.holder_id], [f.property_owner_id]]
    holder_text, owner_text = (pdf_text(d) for d in letters)
    assert f.holder.display_name in holder_text and "Ana Lucía Torres Vélez" in owner_text
    for text in (holder_text, owner_text):
        assert "Correo certificado con acuse de recibo, rastreo" in text and "cese y desista" in text
        assert "derecho a una vista administrativa" in text and "sec. 8.19" in text
    client.force_login(staff_user)
    page = client.get(f"/franquicias/procedimientos/{proceeding.pk}/").content.decode()
    assert "Avisos emitidos (sec. 8.19)" in page and letters[1].verification_code in page
