"""The project's URLs: the admin, health, login, and the two apps under their namespaces."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from common import login_throttle
from mcp_compare import api_v1, favicon, health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    # Tools and browsers that never read the page's <link rel="icon"> ask for this path.
    path("favicon.ico", favicon.favicon),
    # A login page for every user (a prober need not be staff); staff still reach the admin.
    path("accounts/login/", login_throttle.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", api_v1.api.urls),
    path("", include("comparison.urls")),
    path("", include("registers.urls")),
    path("", include("evidence.urls")),
]

handler404 = "mcp_compare.handlers.not_found"
handler500 = "mcp_compare.handlers.server_error"
