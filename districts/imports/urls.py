from django.urls import path

from districts.imports import views

app_name = "imports"

urlpatterns = [
    path("", views.ImportHomeView.as_view(), name="home"),
    path("confirmar/", views.ImportConfirmView.as_view(), name="confirm"),
    path("exportar/", views.ExportView.as_view(), name="export"),
    path("trabajo/<int:pk>/", views.ImportJobView.as_view(), name="job"),
    path("trabajo/<int:pk>/estado/", views.ImportJobStateView.as_view(), name="job_state"),
]
