"""Demo rolls: FY2027 certified figures for the demo irrigation districts, generated and certified.

Idempotent: figures are saved once, a draft is (re)generated, a certified roll is left alone.
"""
from datetime import date

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from assessments.compute import run
from assessments.engine_inputs import roll_payload
from assessments.rolls import irr9, services
from assessments.rolls.models import CertifiedFigures, Roll
from districts.models import District

FISCAL_YEAR = 2027
IRR = {"bond_interest": "85000.00", "bond_principal": "150000.00", "bonds_outstanding": "1200000.00",
       "om_cost": "310000.00", "deficit": "12500.00", "surplus": "0.00", "estimated_hydro_income": "60000.00",
       "hydro_retained": "15000.00", "other_income": "4250.00", "unpayable_bond_amount": "0.00"}
LAJ = {"om_estimate": "1250000.00", "reserve": "25000.00", "water_right_credits": "0.00", "deficit": "0.00",
       "surplus": "32750.00", "misc_income": "41200.00"}


class Command(BaseCommand):
    help = "Certified figures and certified FY2027 rolls for the demo irrigation districts (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--finalize", action="store_true", help="also finalize and bill the rolls")

    def handle(self, *args, finalize=False, **options):
        if not settings.DEMO_ACCOUNTS_ENABLED:
            raise CommandError("Los datos de demostración están desactivados en esta instalación.")
        from django.contrib.auth.models import User

        actor = User.objects.filter(username="staff").first()
        approver = User.objects.filter(username="approver").first() or actor
        for district in District.objects.filter(kind__in=[District.Kind.IRRIGATION, District.Kind.LAJAS]):
            figures = dict(IRR if district.kind == District.Kind.IRRIGATION else LAJ)
            if district.kind == District.Kind.LAJAS:
                # LAJ-4: fund the credits with the factor that balances them (the what-if page offers it).
                probe = run("lajas-roll", roll_payload(district, {"fiscal_year": FISCAL_YEAR, **figures}))
                figures["water_right_credits"] = probe["balancing_water_right_credits"]
            if not CertifiedFigures.objects.filter(district=district, fiscal_year=FISCAL_YEAR).exists():
                services.figures_save(district=district, fiscal_year=FISCAL_YEAR, figures=figures,
                                      certified_by="Ing. Carmen Ortiz Vélez (DTOP)" if district.kind == "IRRIGATION"
                                      else "Lcdo. Rafael Irizarry Toro (Autoridad de Tierras)",
                                      certified_on=date(2026, 5, 15), actor=actor)
            outcome = services.roll_generate(district_code=district.code, fiscal_year=FISCAL_YEAR, actor=actor)
            self.stdout.write(outcome.message)
            roll = Roll.objects.get(pk=outcome.roll.pk)
            admin = User.objects.filter(is_superuser=True).order_by("pk").first()
            if roll.status == Roll.Status.DRAFT and irr9.certify_refusal(roll) and admin is not None:
                # IRR-9: the demo office has not entered CRIM's delinquency terms; its administrator
                # records that none apply, so the demo shows the decision on the roll page.
                irr9.record_none_apply(roll=roll, actor=admin, reason=(
                    "Demostración: los términos de morosidad del CRIM se entran al configurar la oficina."))
            self.stdout.write(services.roll_certify(roll=roll, actor=approver).message)
            if finalize:
                self.stdout.write(services.roll_finalize(roll=roll, actor=approver, on=date(2026, 7, 1)).message)
