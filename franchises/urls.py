from django.urls import path

from franchises import views

app_name = "franchises"

urlpatterns = [
    path("", views.FranchiseListView.as_view(), name="list"),
    path("nueva/", views.FranchiseFormView.as_view(), name="create"),
    path("alertas/", views.FlagsView.as_view(), name="flags"),
    path("<int:pk>/", views.FranchiseDetailView.as_view(), name="detail"),
    path("<int:pk>/editar/", views.FranchiseFormView.as_view(), name="edit"),
    path("<int:pk>/lecturas/nueva/", views.MeterReadingCreateView.as_view(), name="reading_create"),
    path("<int:pk>/informes/nuevo/", views.UsageReportCreateView.as_view(), name="usage_create"),
    path("<int:pk>/solicitudes/nueva/", views.ApplicationFileView.as_view(), name="application_file"),
    path("<int:pk>/procedimientos/nuevo/", views.ProceedingCreateView.as_view(), name="proceeding_create"),
    path("solicitudes/", views.ApplicationListView.as_view(), name="application_list"),
    path("solicitudes/<int:pk>/", views.ApplicationDetailView.as_view(), name="application_detail"),
    path("solicitudes/<int:pk>/revisar/", views.ApplicationReviewView.as_view(), name="application_review"),
    path("solicitudes/<int:pk>/decidir/", views.ApplicationDecideView.as_view(), name="application_decide"),
    path("solicitudes/<int:pk>/notificar/", views.ApplicationNotifyView.as_view(), name="application_notify"),
    path("solicitudes/<int:pk>/vista/", views.HearingRequestView.as_view(), name="application_hearing"),
    path("vistas/<int:pk>/", views.HearingUpdateView.as_view(), name="hearing_update"),
    path("procedimientos/<int:pk>/", views.ProceedingDetailView.as_view(), name="proceeding_detail"),
    path("procedimientos/<int:pk>/aviso/", views.ProceedingNoticeView.as_view(), name="proceeding_notice"),
    path("procedimientos/<int:pk>/vista/", views.ProceedingHearingRequestView.as_view(), name="proceeding_hearing"),
    path("procedimientos/<int:pk>/resolver/", views.ProceedingDecideView.as_view(), name="proceeding_decide"),
]
