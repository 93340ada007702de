"""Credits belong to whoever paid (issue #16). Pure: ids, dates and amounts in, answers out.

An overpayment, or a decrease of a charge after it was paid (late water records, corrections),
is a credit of the **payer**, not of the parcel. The account is the parcel's (charges follow the
land), so a credit left on it must not pay the charges of a later owner unless the payer consents.
A refund names its payee, and may not exceed that payer's credit — checked when the refund is
requested and again when it is approved.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from core.money import ZERO


@dataclass(frozen=True)
class PayerCredit:
    """What one payer has in credit on an account (ledger: CREDIT-component entries by payer)."""

    party_id: int | None
    name: str
    amount: Decimal
    since: date | None  # the first day this payer's credit arose on the account

    @property
    def key(self) -> tuple[int | None, str]:
        return (self.party_id, "" if self.party_id else self.name)

    @property
    def untagged(self) -> bool:
        """Credit recorded before credits were tied to their payer (or an account-level entry)."""
        return self.party_id is None and not self.name


def credit_may_apply(credit: PayerCredit, *, owner_ids_on_charge: frozenset[int], owners_changed_since: bool,
                     consented: bool = False) -> bool:
    """May `credit` pay a charge of the parcel? Yes when the payer consents; a payer known as a party
    only while they are an owner of record on the charge's date; a payer known only by name (or an
    untagged credit) only while the parcel has had no change of owners since the credit arose."""
    if consented:
        return True
    if credit.party_id is not None:
        return credit.party_id in owner_ids_on_charge
    return not owners_changed_since


def refund_refusal(amount: Decimal, available: Decimal) -> str | None:
    """Why a refund of `amount` from a payer's `available` credit is refused (None: allowed)."""
    if amount <= ZERO:
        return "NOT_POSITIVE"
    if amount > available:
        return "EXCEEDS_CREDIT"
    return None
