"""Shared argument handling for the roll commands (the leading underscore keeps it off `manage.py help`)."""
from django.core.management.base import CommandError

from assessments.rolls import services
from assessments.rolls.models import Roll


def add_roll_arguments(parser):
    parser.add_argument("--district", required=True, help="district code, e.g. riego-sur")
    parser.add_argument("--fiscal-year", required=True, type=int, help="fiscal year, named by the year it ends")


def find_roll(district: str, fiscal_year: int) -> Roll:
    try:
        d = services.district_for_roll(district)
    except services.RollError as exc:
        raise CommandError("; ".join(exc.messages)) from None
    roll = Roll.objects.filter(district=d, fiscal_year=fiscal_year).first()
    if roll is None:
        raise CommandError(f"No hay padrón de {district} para el año fiscal {fiscal_year}: use roll_generate.")
    return roll


def system_user():
    """Operator commands act as the first administrator, so the audit trail names someone."""
    from django.contrib.auth.models import User

    return User.objects.filter(is_superuser=True).order_by("pk").first()
