from django.urls import path

from assessments.improvement_billing.api import views

urlpatterns = [
    path("runs/", views.RunListApi.as_view(), name="improvement_billing_runs"),
    path("runs/<int:pk>/charges/", views.RunChargesApi.as_view(), name="improvement_billing_charges"),
]
