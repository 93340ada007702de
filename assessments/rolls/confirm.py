"""What certifying or finalizing a roll will do, stated before the person confirms it.

Both steps cannot be undone: certifying bills every line and freezes them; finalizing constitutes
the liens on the land. The confirmation page shows the counts and totals these functions compute,
the refusals of the service (the same question the job asks) and who can correct what afterwards.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Count, Sum
from django.utils import timezone

from assessments.rolls import services
from assessments.rolls.models import Roll
from core import roles
from core.fiscal import fiscal_year_start


@dataclass
class Preview:
    roll: Roll
    operation: str                       # "certify" or "finalize"
    refusals: list[str] = field(default_factory=list)
    lines: int = 0                       # lines of the roll
    charges: int = 0                     # certify: charges billed; finalize: open charges that get a lien
    amount: Decimal = Decimal("0.00")    # their total
    parcels: int = 0                     # finalize: parcels encumbered
    notices: int = 0                     # notices issued by this step
    on: date | None = None               # the date of the charges (certify) or of the liens (finalize)
    liens_from: date | None = None       # first day the roll's liens can be constituted
    approvers: str = ""                  # who approves corrections (role labels from the matrix)
    requesters: str = ""                 # who asks for them


def _labels(action: str) -> str:
    """The roles the matrix allows `action`, in the request's language: "Administrador o Aprobador"."""
    from django.utils.text import get_text_list
    from django.utils.translation import gettext as _

    return get_text_list([str(roles.ROLE_LABELS[r]) for r in sorted(roles.PERMISSIONS[action])], _("o"))


def certify_preview(roll: Roll) -> Preview:
    from assessments.rolls.billing import billable_lines

    lines = billable_lines(roll).aggregate(n=Count("pk"), amount=Sum("total"))
    return Preview(roll=roll, operation="certify", refusals=services.certify_refusals(roll), lines=roll.line_count,
                   charges=lines["n"], amount=lines["amount"] or Decimal("0.00"), notices=lines["n"],
                   on=timezone.localdate(), liens_from=fiscal_year_start(roll.fiscal_year),
                   approvers=_labels(roles.APPROVE), requesters=_labels(roles.REQUEST))


def finalize_preview(roll: Roll) -> Preview:
    from assessments.notices.services import receivables_needing_notice
    from assessments.rolls.billing import open_roll_receivables, source_type

    today = timezone.localdate()
    start = fiscal_year_start(roll.fiscal_year)
    on = max(today, start)   # refused before the year starts: the page shows the first date the liens can bear
    charges = open_roll_receivables(roll).aggregate(n=Count("pk"), amount=Sum("amount"),
                                                    parcels=Count("account__parcel", distinct=True))
    return Preview(roll=roll, operation="finalize", refusals=services.finalize_refusals(roll, on=today),
                   lines=roll.line_count, charges=charges["n"], amount=charges["amount"] or Decimal("0.00"),
                   parcels=charges["parcels"], notices=len(receivables_needing_notice(source_type(roll))), on=on,
                   liens_from=fiscal_year_start(roll.fiscal_year), approvers=_labels(roles.APPROVE),
                   requesters=_labels(roles.REQUEST))
