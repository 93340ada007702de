from django.urls import path

from assessments.rolls import aging_views, correction_views, irr9_views, views

app_name = "rolls"
urlpatterns = [
    path("", views.RollListView.as_view(), name="list"),
    path("cifras/<slug:code>/<int:fy>/", views.FiguresView.as_view(), name="figures"),
    path("generar/<slug:code>/<int:fy>/", views.GenerateView.as_view(), name="generate"),
    path("morosidad/", aging_views.AgingView.as_view(), name="aging"),
    path("trabajos/<int:pk>/", views.JobView.as_view(), name="job"),
    path("trabajos/<int:pk>/estado/", views.JobStateView.as_view(), name="job_state"),
    path("<int:pk>/", views.RollDetailView.as_view(), name="detail"),
    path("<int:pk>/exportar/", views.RollExportView.as_view(), name="export"),
    path("<int:pk>/incluir/", correction_views.IncludeMidyearView.as_view(), name="include_midyear"),
    path("<int:pk>/segregar/", correction_views.SplitView.as_view(), name="split"),
    path("<int:pk>/irr9-no-aplica/", irr9_views.Irr9NoneApplyView.as_view(), name="irr9_none_apply"),
    path("<int:pk>/<str:action>/", views.RollActionView.as_view(), name="action"),
    path("lineas/<int:line>/cambiar/", views.OverrideView.as_view(), name="override"),
    path("cambios/<int:pk>/decidir/", views.OverrideDecideView.as_view(), name="override_decide"),
]
