"""Staff pages of the money core, under /cobros/."""
from django.urls import path

from assessments.ledger import views

app_name = "assessments"

urlpatterns = [
    path("", views.LedgerHomeView.as_view(), name="ledger_home"),
    path("parcela/<int:parcel_id>/", views.ParcelAccountView.as_view(), name="parcel_account"),
    path("cuentas/<int:pk>/", views.AccountView.as_view(), name="account"),
    path("cuentas/<int:pk>/pagar/", views.PaymentCreateView.as_view(), name="payment_create"),
    path("cuentas/<int:pk>/certificacion/", views.CertificateView.as_view(), name="certificate"),
    path("cuentas/<int:pk>/certificacion/pdf/", views.CertificatePdfView.as_view(), name="certificate_pdf"),
    path("cuentas/<int:pk>/ajuste/", views.AdjustmentRequestView.as_view(), name="adjustment_request"),
    path("pagos/<int:pk>/", views.PaymentView.as_view(), name="payment"),
    path("pagos/<int:pk>/recibo/", views.ReceiptIssueView.as_view(), name="receipt"),
    path("pagos/<int:pk>/devolver/", views.PaymentReturnView.as_view(), name="payment_return"),
    path("lote/", views.MyBatchView.as_view(), name="my_batch"),
    path("lotes/", views.BatchListView.as_view(), name="batches"),
    path("lotes/<int:pk>/", views.BatchView.as_view(), name="batch"),
    path("banco/", views.BankFileListView.as_view(), name="bankfiles"),
    path("banco/<int:pk>/", views.BankFileView.as_view(), name="bankfile"),
    path("ajustes/", views.AdjustmentQueueView.as_view(), name="adjustments"),
    path("ajustes/<int:pk>/decidir/", views.AdjustmentDecideView.as_view(), name="adjustment_decide"),
    path("recaudos/", views.CollectionsView.as_view(), name="collections"),
]
