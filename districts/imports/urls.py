from django.urls import path

from districts.imports import views

app_name = "imports"

urlpatterns = [
    path("", views.ImportHomeView.as_view(), name="home"),
    path("confirmar/", views.ImportConfirmView.as_view(), name="confirm"),
    path("exportar/", views.ExportView.as_view(), name="export"),
]
