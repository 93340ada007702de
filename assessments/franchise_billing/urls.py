"""Staff pages of franchise billing, under /facturacion-franquicias/."""
from django.urls import path

from assessments.franchise_billing import views

app_name = "franchise_billing"

urlpatterns = [
    path("", views.InvoiceRunView.as_view(), name="run"),
    path("franquicia/<int:pk>/", views.FranchiseBillingView.as_view(), name="franchise"),
    path("lecturas/importar/", views.ReadingImportView.as_view(), name="import"),
    path("fondos/", views.TransfersView.as_view(), name="transfers"),
]
