from django.urls import path

from liens import views

app_name = "liens"

urlpatterns = [
    path("", views.QueueView.as_view(), name="queue"),
    path("parcela/<int:pk>/", views.LadderView.as_view(), name="ladder"),
    path("parcela/<int:pk>/registrar/", views.LienRecordView.as_view(), name="record"),
    path("parcela/<int:pk>/resoluciones/nueva/", views.RulingCreateView.as_view(), name="ruling_create"),
    path("parcela/<int:pk>/distribucion/", views.DistributionView.as_view(), name="distribution"),
    path("parcela/<int:pk>/embargo/", views.SeizureView.as_view(), name="seizure"),
    path("parcela/<int:pk>/certificacion/", views.CertificateView.as_view(), name="certificate"),
    path("gravamen/<int:pk>/estado/", views.LienStatusView.as_view(), name="status"),
    path("resoluciones/<int:pk>/revocar/", views.RulingRevokeView.as_view(), name="ruling_revoke"),
]
