"""The owners' API, mounted at /api/v1/portal/ (namespace api:portal)."""
from django.urls import path

from assessments.portal import api

app_name = "portal"

urlpatterns = [
    path("notices/", api.NoticeListApi.as_view(), name="notices"),
    path("notices/<int:pk>/", api.NoticeDetailApi.as_view(), name="notice"),
    path("notices/<int:pk>/pdf/", api.NoticePdfApi.as_view(), name="notice_pdf"),
    path("parcels/", api.ParcelListApi.as_view(), name="parcels"),
    path("parcels/<int:pk>/", api.ParcelDetailApi.as_view(), name="parcel"),
    path("accounts/", api.AccountListApi.as_view(), name="accounts"),
    path("accounts/<int:pk>/", api.AccountDetailApi.as_view(), name="account"),
    path("payments/", api.PaymentListApi.as_view(), name="payments"),
    path("payments/<int:pk>/", api.PaymentDetailApi.as_view(), name="payment"),
    path("payments/<int:pk>/receipt/", api.ReceiptPdfApi.as_view(), name="receipt"),
    path("notice-language/", api.NoticeLanguageApi.as_view(), name="notice_language"),
]
