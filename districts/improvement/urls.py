"""Staff pages of the improvement districts (mounted at /distritos-mejoramiento/)."""
from django.urls import path

from districts.improvement import views

app_name = "improvement"

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    # SID — the special improvement districts law (docs/rules/improvement-districts.md)
    path("sid/nueva/", views.SidResolutionFormView.as_view(), name="sid_create"),
    path("sid/remesas/", views.SidReportView.as_view(), name="sid_report"),
    path("sid/<int:pk>/", views.SidResolutionView.as_view(), name="sid_detail"),
    path("sid/<int:pk>/editar/", views.SidResolutionFormView.as_view(), name="sid_edit"),
    path("sid/<int:pk>/cargos/", views.SidChargeView.as_view(), name="sid_charge"),
    path("sid/<int:pk>/recibo-crim/", views.SidCrimReceiptView.as_view(), name="sid_crim"),
    path("sid/<int:pk>/notificaciones/", views.SidNoticeMailedView.as_view(), name="sid_notice_mailed"),
    path("sid/<int:pk>/lotes/", views.SidBatchView.as_view(), name="sid_batch"),
    path("sid/<int:pk>/remesas/", views.SidRemitView.as_view(), name="sid_remit"),
    path("sid/<int:pk>/no-realizado/", views.SidNotCarriedOutView.as_view(), name="sid_not_carried_out"),
    path("sid/<int:pk>/devolucion/", views.SidRefundView.as_view(), name="sid_refund"),
    path("sid/<int:pk>/recobro-crim/", views.SidCrimRecoveredView.as_view(), name="sid_crim_recovered"),
    # TID — the tourism improvement districts law (docs/rules/improvement-districts.md)
    path("tid/nueva/", views.TidPetitionCreateView.as_view(), name="tid_create"),
    path("tid/<int:pk>/", views.TidPetitionView.as_view(), name="tid_detail"),
    path("tid/<int:pk>/factores/", views.TidFindingView.as_view(), name="tid_finding"),
    path("tid/<int:pk>/denegar/", views.TidDenyView.as_view(), name="tid_deny"),
    path("tid/<int:pk>/ordenanza/", views.TidOrdinanceView.as_view(), name="tid_ordinance"),
    path("tid/<int:pk>/vista-previa/", views.TidPreviewView.as_view(), name="tid_preview"),
    path("tid/<int:pk>/formula/", views.TidFormulaChangeView.as_view(), name="tid_formula"),
    path("tid/<int:pk>/alcalde-recibo/", views.TidMayorReceiptView.as_view(), name="tid_mayor_receipt"),
    path("tid/<int:pk>/alcalde-decision/", views.TidMayorDecisionView.as_view(), name="tid_mayor_decision"),
    path("tid/<int:pk>/publicacion/", views.TidPublicationView.as_view(), name="tid_publication"),
    path("tid/<int:pk>/cobrador/", views.TidCollectorView.as_view(), name="tid_collector"),
    path("tid/<int:pk>/recibo-asociacion/", views.TidAssociationReceiptView.as_view(),
         name="tid_association_receipt"),
    path("tid/<int:pk>/notificaciones/", views.TidNoticeMailedView.as_view(), name="tid_notice_mailed"),
    path("tid/<int:pk>/cuenta/", views.TidAccountEntryView.as_view(), name="tid_account_entry"),
    path("tid/<int:pk>/auditorias/", views.TidAuditView.as_view(), name="tid_audit"),
]
