"""/api/v1/improvement/… — SID resolutions and batches, TID petitions and ordinances."""
from django.urls import path

from districts.improvement.api import views

urlpatterns = [
    path("sid-resolutions/", views.SidResolutionListCreateApi.as_view(), name="improvement-sid-resolution-list"),
    path("sid-resolutions/<int:pk>/", views.SidResolutionDetailApi.as_view(),
         name="improvement-sid-resolution-detail"),
    path("sid-resolutions/<int:pk>/charges/", views.SidChargeApi.as_view(), name="improvement-sid-charge"),
    path("sid-resolutions/<int:pk>/crim-receipt/", views.SidCrimReceiptApi.as_view(),
         name="improvement-sid-crim-receipt"),
    path("sid-batches/", views.SidBatchListCreateApi.as_view(), name="improvement-sid-batch-list"),
    path("sid-batches/<int:pk>/", views.SidBatchDetailApi.as_view(), name="improvement-sid-batch-detail"),
    path("sid-batches/<int:pk>/remit/", views.SidBatchRemitApi.as_view(), name="improvement-sid-batch-remit"),
    path("sid-remittance-report/", views.SidRemittanceReportApi.as_view(), name="improvement-sid-report"),
    path("tid-petitions/", views.TidPetitionListCreateApi.as_view(), name="improvement-tid-petition-list"),
    path("tid-petitions/<int:pk>/", views.TidPetitionDetailApi.as_view(), name="improvement-tid-petition-detail"),
    path("tid-petitions/<int:pk>/findings/", views.TidFindingApi.as_view(), name="improvement-tid-finding"),
    path("ordinances/", views.TidOrdinanceListCreateApi.as_view(), name="improvement-ordinance-list"),
    path("ordinances/<int:pk>/", views.TidOrdinanceDetailApi.as_view(), name="improvement-ordinance-detail"),
    path("ordinances/<int:pk>/preview/", views.TidOrdinancePreviewApi.as_view(), name="improvement-ordinance-preview"),
    path("ordinances/<int:pk>/mayor-receipt/", views.TidMayorReceiptApi.as_view(),
         name="improvement-ordinance-mayor-receipt"),
    path("ordinances/<int:pk>/mayor-decision/", views.TidMayorDecisionApi.as_view(),
         name="improvement-ordinance-mayor-decision"),
    path("ordinances/<int:pk>/publication/", views.TidPublicationApi.as_view(),
         name="improvement-ordinance-publication"),
    path("ordinances/<int:pk>/collector/", views.TidCollectorApi.as_view(), name="improvement-ordinance-collector"),
    path("ordinances/<int:pk>/association-receipt/", views.TidAssociationReceiptApi.as_view(),
         name="improvement-ordinance-association-receipt"),
    path("ordinances/<int:pk>/account-entries/", views.TidAccountEntryApi.as_view(),
         name="improvement-ordinance-account-entry"),
    path("charges/", views.ImprovementChargesApi.as_view(), name="improvement-charges"),
]
