from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import health, probe_views, views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    # A login page for every user (a prober need not be staff); staff still reach the admin.
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("playground/", views.playground, name="playground"),
    path("probes/", probe_views.target_list, name="target_list"),
    path("probes/targets/<int:pk>/", probe_views.target_detail, name="target_detail"),
    path("probes/targets/<int:pk>/run/", probe_views.run_probe_view, name="run_probe"),
    path("probes/runs/<int:pk>/", probe_views.run_detail, name="run_detail"),
    path("probes/runs/<int:pk>/cancel/", probe_views.cancel_run_view, name="cancel_run"),
    path("probes/runs/<int:pk>/audit/", probe_views.run_audit, name="run_audit"),
    path("probes/compare/", probe_views.compare_runs, name="compare_runs"),
    path("probes/results/<int:pk>/", probe_views.result_detail, name="result_detail"),
    path("", include("registers.urls")),
]

handler404 = "registers.views.not_found"
