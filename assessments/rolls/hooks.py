"""Late water records re-evaluate IRR-8 on certified and finalized rolls (IRR-8, last paragraph, docs/rules/irr.md).

ARCHITECTURE says "no signals for business flow"; this one is the exception the roll corrections
need, because water records are written by the register (districts), an app below this one that
must not know about rolls. The receiver only notes which parcels changed; after the transaction
commits it sends one task per affected roll. A bulk import saves every row in one transaction, so
all its rows join one pending callback and the import yields one task per roll, not one per row.
"""
from __future__ import annotations

from django.db import transaction


class PendingReevaluation:
    """The on-commit callback of one transaction, holding {fiscal year: parcel ids} saved in it.

    Kept in Django's own on-commit list, so a rolled-back transaction drops it with its data.
    """

    def __init__(self) -> None:
        self.water: dict[int, set[int]] = {}

    def add(self, fiscal_year: int, parcel_id: int) -> None:
        self.water.setdefault(fiscal_year, set()).add(parcel_id)

    def __call__(self) -> None:
        from assessments.rolls.correction_tasks import roll_water_reevaluate_task
        from assessments.rolls.corrections import rolls_for_water

        parcel_ids = set().union(*self.water.values())
        for roll_id, parcels in sorted(rolls_for_water(parcel_ids, self.water.keys()).items()):
            roll_water_reevaluate_task.delay(roll_id, sorted(parcels))


def _pending_in_transaction() -> PendingReevaluation | None:
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return None
    for item in connection.run_on_commit:
        if isinstance(item[1], PendingReevaluation):
            return item[1]
    return None


def water_saved(sender, instance, raw=False, **kwargs) -> None:
    if raw:         # loaddata: fixtures are not late records
        return
    pending = _pending_in_transaction()
    if pending is None:
        pending = PendingReevaluation()
        transaction.on_commit(pending)
    pending.add(instance.fiscal_year, instance.parcel_id)


def membership_saved(sender, instance, created=False, raw=False, **kwargs) -> None:
    """A parcel included during the fiscal year of a certified/finalized roll gets a supplementary entry;
    a changed membership (first water, free-period end) re-evaluates its irrigation lines like a water record."""
    if raw:
        return
    from assessments.rolls.corrections import OPEN_ROLL_STATES
    from assessments.rolls.models import Roll
    from core.fiscal import fiscal_year_of

    if not created:
        years = list(Roll.objects.filter(district_id=instance.district_id, status__in=OPEN_ROLL_STATES,
                                         district__kind="IRRIGATION").values_list("fiscal_year", flat=True))
        if years:
            pending = _pending_in_transaction()
            if pending is None:
                pending = PendingReevaluation()
                transaction.on_commit(pending)
            for fy in years:
                pending.add(fy, instance.parcel_id)
        return
    if not Roll.objects.filter(district_id=instance.district_id, fiscal_year=fiscal_year_of(instance.included_on),
                               status__in=OPEN_ROLL_STATES).exists():
        return
    from assessments.rolls.correction_tasks import roll_inclusion_task

    member_id = instance.pk
    transaction.on_commit(lambda: roll_inclusion_task.delay(member_id))


def connect() -> None:
    from django.db.models.signals import post_save

    from assessments.rolls import correction_tasks  # noqa: F401  (registers the task with the worker)
    from districts.models import Membership, WaterDelivery

    post_save.connect(water_saved, sender=WaterDelivery, dispatch_uid="rolls.water_saved")
    post_save.connect(membership_saved, sender=Membership, dispatch_uid="rolls.membership_saved")
