from django.urls import path

from assessments.portal import staff_views, views

app_name = "portal"
urlpatterns = [
    path("", views.PortalHomeView.as_view(), name="home"),
    path("activar/", views.PortalActivateView.as_view(), name="activate"),
    path("parcelas/<int:pk>/", views.PortalParcelView.as_view(), name="parcel"),
    path("avisos/", views.PortalNoticeListView.as_view(), name="notices"),
    path("avisos/<int:pk>/pdf/", views.PortalNoticePdfView.as_view(), name="notice_pdf"),
    path("cuentas/<int:pk>/", views.PortalAccountView.as_view(), name="account"),
    path("pagos/", views.PortalPaymentListView.as_view(), name="payments"),
    path("pagos/<int:pk>/recibo/", views.PortalReceiptPdfView.as_view(), name="receipt_pdf"),
    path("idioma-avisos/", views.PortalNoticeLanguageView.as_view(), name="notice_language"),
    # staff: create a party's account and e-mail the invitation (linked from the party's page)
    path("personal/invitar/<int:pk>/", staff_views.PortalInviteView.as_view(), name="invite"),
]
