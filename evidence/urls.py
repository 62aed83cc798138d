from django.urls import path

from evidence import views

app_name = "evidence"

urlpatterns = [
    path("disagreements/", views.disagreements, name="disagreements"),
]
