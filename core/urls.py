"""core's pages: the work queue, staff document downloads and the public verification page.

The verification URL /verificar/<code>/ is printed on paper and encoded in QR codes: never move it.
"""
from django.urls import path

from core import views
from core.dashboard import views as dashboard

app_name = "core"

urlpatterns = [
    path("plazos/", views.ClockListView.as_view(), name="clock_list"),
    path("asuntos/", views.FlagListView.as_view(), name="flag_list"),
    path("asuntos/<int:pk>/asignar/", views.FlagAssignView.as_view(), name="flag_assign"),
    path("tablero/asignar/", dashboard.ItemAssignView.as_view(), name="item_assign"),
    path("calendario/", dashboard.CalendarView.as_view(), name="calendar"),
    path("calendario/enlace/", dashboard.CalendarLinkView.as_view(), name="calendar_link"),
    # Public, the secret token is the key (calendar apps cannot log in); revoked tokens answer 404:
    path("calendario/ical/<str:token>.ics", dashboard.CalendarFeedView.as_view(), name="calendar_ical"),
    path("documentos/<int:pk>/pdf/", views.DocumentPdfView.as_view(), name="document_pdf"),
    # Public, no login:
    path("verificar/", views.VerifyFormView.as_view(), name="verify_form"),
    path("verificar/<str:code>/", views.VerifyView.as_view(), name="verify"),
]
