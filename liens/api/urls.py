from django.urls import path

from liens.api import views

urlpatterns = [
    path("parcels/<int:pk>/liens/", views.ParcelLiensApi.as_view(), name="parcel-liens"),
    path("parcels/<int:pk>/liens/rulings/", views.LienRulingCreateApi.as_view(), name="parcel-lien-rulings"),
]
