"""Staff pages of notices and mailing, under /avisos/."""
from django.urls import path

from assessments.notices import views

app_name = "notices"

urlpatterns = [
    path("", views.NoticeListView.as_view(), name="list"),
    path("<int:pk>/", views.NoticeDetailView.as_view(), name="detail"),
    path("<int:pk>/pdf/", views.NoticePdfView.as_view(), name="pdf"),
    path("<int:pk>/envio/", views.NoticeMailingView.as_view(), name="mailing"),
    path("<int:pk>/corregir/", views.NoticeCorrectView.as_view(), name="correct"),
    path("<int:pk>/idioma/", views.NoticeLanguageView.as_view(), name="language"),
    path("envios/", views.BatchListView.as_view(), name="batch_list"),
    path("envios/<int:pk>/", views.BatchDetailView.as_view(), name="batch_detail"),
    path("envios/<int:pk>/pdf/", views.BatchPdfView.as_view(), name="batch_pdf"),
    path("envios/<int:pk>/lista.csv", views.BatchCsvView.as_view(), name="batch_csv"),
    path("envios/<int:pk>/rastreo/", views.BatchImportView.as_view(), name="batch_import"),
    path("emitir/", views.SourceIssueView.as_view(), name="source_issue"),
    path("lotes/", views.SourceBatchView.as_view(), name="source_batches"),
]
