"""seed_franchises: idempotent demo data covering every source, use, tariff class and several exemptions."""
import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from core.models import Flag
from franchises.models import Franchise, MeterReading, Source, TariffClass, Use


@pytest.mark.django_db
def test_seed_is_idempotent_and_covers_the_registry():
    call_command("seed_franchises", verbosity=0)
    counts = (Franchise.objects.count(), MeterReading.objects.count(), Flag.objects.count())
    call_command("seed_franchises", verbosity=0)
    assert (Franchise.objects.count(), MeterReading.objects.count(), Flag.objects.count()) == counts

    assert set(Franchise.objects.values_list("source", flat=True)) == set(Source.values)
    assert set(Franchise.objects.values_list("use", flat=True)) == set(Use.values)
    assert set(Franchise.objects.values_list("tariff_class", flat=True)) == set(TariffClass.values)
    assert Franchise.objects.exclude(exemption="").values("exemption").distinct().count() >= 5

    idle = Franchise.objects.get(number="DRNA-FE-2020-0007")
    assert idle.tariff_class == "GROUND_INDUSTRIAL"
    assert idle.meter_readings.filter(gallons=0).count() == 13
    ct = ContentType.objects.get_for_model(Franchise)
    open_flags = set(Flag.objects.filter(content_type=ct, resolved_on__isnull=True)
                     .values_list("object_id", "rule"))
    expiring = Franchise.objects.get(number="DRNA-FE-2017-0150")
    assert (idle.pk, "FRA-10") in open_flags
    assert (expiring.pk, "FRA-7") in open_flags
    assert len(open_flags) == 2
