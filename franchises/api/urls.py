from django.urls import path

from assessments.franchise_billing.api.views import FranchiseInvoiceListApi
from franchises.api import views

urlpatterns = [
    path("", views.FranchiseListApi.as_view(), name="franchise-list"),
    path("<int:pk>/", views.FranchiseDetailApi.as_view(), name="franchise-detail"),
    # FRA-3: the invoices of a franchise (and, with ?chain=true, of its renewals), with their periods.
    path("<int:pk>/invoices/", FranchiseInvoiceListApi.as_view(), name="franchise-invoices"),
    path("applications/", views.ApplicationListCreateApi.as_view(), name="franchise-application-list"),
    path("applications/<int:pk>/", views.ApplicationDetailApi.as_view(), name="franchise-application-detail"),
    path("applications/<int:pk>/decide/", views.ApplicationDecideApi.as_view(),
         name="franchise-application-decide"),
]
