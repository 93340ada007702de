"""core's pages: the work queue, staff document downloads and the public verification page.

The verification URL /verificar/<code>/ is printed on paper and encoded in QR codes: never move it.
"""
from django.urls import path

from core import views

app_name = "core"

urlpatterns = [
    path("plazos/", views.ClockListView.as_view(), name="clock_list"),
    path("asuntos/", views.FlagListView.as_view(), name="flag_list"),
    path("asuntos/<int:pk>/asignar/", views.FlagAssignView.as_view(), name="flag_assign"),
    path("documentos/<int:pk>/pdf/", views.DocumentPdfView.as_view(), name="document_pdf"),
    # Public, no login:
    path("verificar/", views.VerifyFormView.as_view(), name="verify_form"),
    path("verificar/<str:code>/", views.VerifyView.as_view(), name="verify"),
]
