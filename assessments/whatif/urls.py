from django.urls import path

from assessments.whatif import views

app_name = "whatif"
urlpatterns = [path("", views.WhatIfView.as_view(), name="page")]
