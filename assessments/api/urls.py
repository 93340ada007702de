from django.urls import path

from assessments.api import ledger, rolls

urlpatterns = [
    path("payments/", ledger.PaymentRecordApi.as_view(), name="payment_record"),
    path("accounts/<int:pk>/statement/", ledger.AccountStatementApi.as_view(), name="account_statement"),
    path("receivables/", ledger.ReceivableListApi.as_view(), name="receivable_list"),
    path("rolls/<int:pk>/corrections/", rolls.RollCorrectionListApi.as_view(), name="roll_corrections"),
    path("rolls/<int:pk>/certify/", rolls.RollStepApi.as_view(), name="roll_certify"),
    path("rolls/<int:pk>/finalize/", rolls.RollFinalizeApi.as_view(), name="roll_finalize"),
]
