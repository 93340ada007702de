from django.urls import path

from franchises.api import views

urlpatterns = [
    path("", views.FranchiseListApi.as_view(), name="franchise-list"),
    path("<int:pk>/", views.FranchiseDetailApi.as_view(), name="franchise-detail"),
    path("applications/", views.ApplicationListCreateApi.as_view(), name="franchise-application-list"),
    path("applications/<int:pk>/", views.ApplicationDetailApi.as_view(), name="franchise-application-detail"),
    path("applications/<int:pk>/decide/", views.ApplicationDecideApi.as_view(),
         name="franchise-application-decide"),
]
