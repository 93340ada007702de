"""Owner-facing reads. Every query starts from the signed-in owner's party, so nothing else leaks.

The `access_*` functions are the only way a portal page or API endpoint reaches a record: each
returns the record when the owner may see it and raises Http404 otherwise — never 403, which
would confirm that the record exists.

What an owner sees:
- parcels they own today (co-owners each see the parcel);
- accounts: those of those parcels (charges follow the land: after a sale the new owners see its
  open charges) and their own party's account (a franchise holder's);
- notices addressed to them (the snapshot of owners of record on the notice's date);
- payments they made, payments on their own account, and payments on a parcel's account made
  while they owned the parcel (payments stay recorded under whoever paid);
- a statement of an account they may see, with the entries before they owned the parcel
  carried as one opening balance (a previous owner's payments are not theirs to read).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Exists, Min, OuterRef, Q, QuerySet, Sum
from django.http import Http404

from assessments.ledger.statements import Statement, statement
from assessments.models import Account, LedgerEntry, Payment, Receivable
from assessments.notices.models import Notice, NoticeAddressee
from core import roles
from core.money import ZERO, sum_cents
from districts.models import Ownership, Parcel, Party
from districts.selectors import current_ownerships


def access_party(user) -> Party:
    """The party linked to an owner's account, or 404 (an account without a party sees nothing)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise Http404
    party = Party.objects.filter(user=user).first()
    if party is None:
        raise Http404
    return party


def _get(qs: QuerySet, pk):
    try:
        return qs.get(pk=int(pk))
    except (ValueError, TypeError, qs.model.DoesNotExist) as exc:
        raise Http404 from exc


# --- parcels ----------------------------------------------------------------------------------

def owner_parcels(user) -> QuerySet[Parcel]:
    party = access_party(user)
    ids = current_ownerships().filter(party=party).values("parcel_id")
    return Parcel.objects.filter(pk__in=ids).select_related("municipality").prefetch_related(
        "memberships__district").order_by("cadastre")


def access_parcel(user, pk) -> Parcel:
    """A parcel the owner currently co-owns, else 404."""
    return _get(owner_parcels(user), pk)


# --- accounts and statements ------------------------------------------------------------------------

def owner_accounts(user) -> QuerySet[Account]:
    party = access_party(user)
    parcel_ids = current_ownerships().filter(party=party).values("parcel_id")
    return (Account.objects.filter(Q(parcel_id__in=parcel_ids) | Q(party=party))
            .select_related("parcel", "parcel__municipality", "party").order_by("parcel__cadastre", "pk"))


def access_account(user, pk) -> Account:
    return _get(owner_accounts(user), pk)


def owner_since(user, account: Account) -> date | None:
    """From when the owner answers for a parcel account: the start of their current ownership
    (None for their own party account: all of it is theirs)."""
    if not account.parcel_id:
        return None
    party = access_party(user)
    return (current_ownerships().filter(party=party, parcel_id=account.parcel_id)
            .aggregate(d=Min("start_date"))["d"])


@dataclass(frozen=True)
class OwnerStatement:
    statement: Statement
    since: date | None
    opening: Decimal                 # the balance carried from before `since`
    entries: list[LedgerEntry]       # entries from `since` on


def owner_statement(user, pk, *, as_of: date) -> OwnerStatement:
    """The statement of an account the owner may see (assessments.ledger.statements), as of `as_of`."""
    account = access_account(user, pk)
    st = statement(account=account, as_of=as_of)
    since = owner_since(user, account)
    if since is None:
        return OwnerStatement(st, None, ZERO, st.entries)
    before = [e for e in st.entries if e.effective_date < since]
    return OwnerStatement(st, since, sum((e.amount for e in before), ZERO),
                          [e for e in st.entries if e.effective_date >= since])


def open_charges(account: Account, *, as_of: date):
    """What is open on an account today: its installments with principal or surcharge left."""
    return statement(account=account, as_of=as_of, with_entries=False).open_installments


def account_balances(accounts) -> dict[int, Decimal]:
    ids = [a.pk for a in accounts]
    rows = LedgerEntry.objects.filter(account_id__in=ids).values("account_id").annotate(t=Sum("amount")).order_by()
    return {r["account_id"]: sum_cents(r["t"]) for r in rows}


# --- notices ----------------------------------------------------------------------------------------

def owner_notices(user) -> QuerySet[Notice]:
    """Notices addressed to the owner (co-owners each see theirs), newest first."""
    party = access_party(user)
    return (Notice.objects.filter(addressee_rows__party=party)
            .select_related("receivable", "receivable__account", "receivable__account__parcel",
                            "receivable__account__party", "document", "replaces")
            .order_by("-issued_on", "-year", "-seq", "-revision"))


def access_notice(user, pk) -> Notice:
    return _get(owner_notices(user), pk)


@dataclass(frozen=True)
class StoredDownload:
    """What sending a stored PDF needs, and no more (the portal's hot path)."""

    is_owner: bool            # the owner role (and no office role), checked in the same query
    notice_id: int
    document_id: int | None   # None: the notice was numbered but its PDF is not stored yet
    file_name: str            # storage name of the PDF ("" when not stored)
    filename: str             # the name the owner's browser saves it under


# Stand-ins for the two values of the download query, swapped for the real ones at each call
# (negative: never an id, nor any other parameter of that query).
_USER, _NOTICE = -40_000_001, -40_000_002


def _role_in(names) -> Exists:
    return Exists(User.groups.through.objects.filter(user_id=_USER, group__name__in=sorted(names)))


@functools.cache
def _notice_download_sql(vendor: str) -> tuple[str, tuple]:
    """The download query as SQL, built by the ORM once per process and database vendor.

    Building it costs more CPU than everything else a download does together (about 1.8 ms of
    joins, subqueries and compilation per request); its shape never changes, only the two ids.
    """
    query = (NoticeAddressee.objects.filter(notice_id=_NOTICE, party__user_id=_USER)
             .annotate(owner_role=_role_in([roles.OWNER]), office_role=_role_in(roles.STAFF_ROLES))
             .values_list("owner_role", "office_role", "notice__document_id", "notice__document__file",
                          "notice__number", "notice__revision")
             .order_by()[:1]).query
    sql, params = query.sql_with_params()
    # Guard: the swap at each call is only right if the stand-ins reach the SQL as parameters (not
    # folded into the text by a future Django) and the user's appears in each role check and the join.
    if params.count(_NOTICE) != 1 or params.count(_USER) != 3 or str(_USER) in sql or str(_NOTICE) in sql:
        raise RuntimeError(f"notice_download: unexpected compiled query parameters {params!r}")
    return sql, params


def notice_download(user, pk) -> StoredDownload | None:
    """A notice's stored PDF for the signed-in owner, or None when it is not addressed to their party.

    One query: the addressee row joined to the owner's party (the same rule as `access_notice`:
    a notice addressed to them), the notice's number and its document's file name, and whether
    the user holds the owner role (and no office role), so a download costs the session, the
    user, this row and the log insert. The caller answers 404 for None, and sends a non-owner
    (office staff linked to a party) away.
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return None
    try:
        pk = int(pk)
    except (TypeError, ValueError):
        return None
    sql, params = _notice_download_sql(connection.vendor)
    values = {_USER: user.pk, _NOTICE: pk}
    with connection.cursor() as cursor:
        cursor.execute(sql, [values.get(p, p) if isinstance(p, int) else p for p in params])
        row = cursor.fetchone()
    if row is None:
        return None
    owner_role, office_role, document_id, file_name, number, revision = row
    display = Notice(number=number, revision=revision).display_number      # unsaved: just its naming rule
    return StoredDownload(is_owner=bool(owner_role) and not office_role and not user.is_superuser, notice_id=pk,
                          document_id=document_id, file_name=file_name or "", filename=f"{display}.pdf")


def parcel_notices(user, parcel: Parcel) -> QuerySet[Notice]:
    return owner_notices(user).filter(receivable__account__parcel=parcel)


# --- payments and receipts ------------------------------------------------------------------------------

def owner_payments(user) -> QuerySet[Payment]:
    party = access_party(user)
    owned_then = Ownership.objects.filter(
        party=party, parcel__account=OuterRef("account"), start_date__lte=OuterRef("paid_on")).filter(
        Q(end_date__isnull=True) | Q(end_date__gt=OuterRef("paid_on")))
    return (Payment.objects.filter(Q(payer_party=party) | Q(account__party=party) | Exists(owned_then))
            .select_related("account", "account__parcel", "account__party").order_by("-paid_on", "-id"))


def access_payment(user, pk) -> Payment:
    return _get(owner_payments(user), pk)


def payment_receipt(payment: Payment):
    """The receipt PDF the ledger issued for the payment (core Document), or None."""
    from assessments.ledger.receipts import receipt_document

    return receipt_document(payment)


def receivables_open_on(account: Account) -> QuerySet[Receivable]:
    return account.receivables.filter(status=Receivable.Status.OPEN).order_by("issued_on", "pk")
