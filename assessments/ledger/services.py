"""The ledger's public write API (ARCHITECTURE: services.py). Each module keeps one concern."""
from assessments.ledger.adjustments import (  # noqa: F401
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    credit_refund_approve,
    credit_refund_request,
)
from assessments.ledger.bankfiles import BankImport, bankfile_import  # noqa: F401
from assessments.ledger.batches import BatchUnbalanced, batch_close, batch_open  # noqa: F401
from assessments.ledger.imports import ImportReport, opening_balances_import  # noqa: F401
from assessments.ledger.payments import payment_record, payment_record_outcome, payment_return  # noqa: F401
from assessments.ledger.receivables import (  # noqa: F401
    BulkResult,
    ReceivableRow,
    account_for_parcel,
    account_for_party,
    accounts_for_parcels,
    credit_apply,
    receivable_create,
    receivables_bulk_create,
)
from assessments.ledger.reports import collections_by_fund, collections_csv  # noqa: F401
from assessments.ledger.statements import Statement, payoff_certificate, statement  # noqa: F401
