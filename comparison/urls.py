"""The comparison app's pages: the playground and the probes (namespace "comparison")."""

from django.urls import path

from common import path_ids  # noqa: F401  (registers the <pk:…> converter)
from comparison.views import lab as lab_views
from comparison.views import playground as views
from comparison.views import probes as probe_views

app_name = "comparison"

urlpatterns = [
    path("playground/", views.playground, name="playground"),
    path("hosts/", lab_views.hosts_matrix, name="hosts"),
    path("hosts/protocol/", views.host_protocol, name="host_protocol"),
    path("hosts/compare/", lab_views.compare_hosts, name="compare_hosts"),
    path("hosts/lab/", lab_views.lab_form, name="lab_form"),
    path("hosts/lab/<str:batch>/", lab_views.lab_batch, name="lab_batch"),
    path("hosts/features/<str:feature>/", lab_views.feature_detail, name="lab_feature"),
    path("hosts/observations/<pk:pk>/", lab_views.observation_detail, name="lab_observation"),
    path("hosts/<str:key>/", lab_views.host_detail, name="lab_host"),
    path("probes/", probe_views.target_list, name="target_list"),
    path("probes/targets/<pk:pk>/", probe_views.target_detail, name="target_detail"),
    path("probes/targets/<pk:pk>/badge.svg", probe_views.target_badge, name="target_badge"),
    path("probes/targets/<pk:pk>/run/", probe_views.run_probe_view, name="run_probe"),
    path("probes/runs/<pk:pk>/", probe_views.run_detail, name="run_detail"),
    path("probes/runs/<pk:pk>/cancel/", probe_views.cancel_run_view, name="cancel_run"),
    path("probes/runs/<pk:pk>/audit/", probe_views.run_audit, name="run_audit"),
    path("probes/runs/<pk:pk>/grid/", probe_views.run_era_grid, name="run_era_grid"),
    path("probes/compare/", probe_views.compare_runs, name="compare_runs"),
    path("probes/results/<pk:pk>/", probe_views.result_detail, name="result_detail"),
]
