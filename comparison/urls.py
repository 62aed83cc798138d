from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("playground/", views.playground, name="playground"),
    path("", include("registers.urls")),
]

handler404 = "registers.views.not_found"
