from django.urls import path

from assessments.franchise_billing.api import views

urlpatterns = [
    path("franchises/<int:pk>/invoices/", views.FranchiseInvoiceListApi.as_view(), name="franchise_billing_invoices"),
    path("runs/", views.InvoiceRunApi.as_view(), name="franchise_billing_run"),
]
