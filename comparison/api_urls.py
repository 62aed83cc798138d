"""The read-only JSON API, version 1 (namespace "api"): every page's data, no write endpoints."""

from django.urls import path

from registers import api as register_api

from . import api, lab_api

app_name = "api"

urlpatterns = [
    path("", register_api.index, name="index"),
    path("registers/", register_api.registers, name="registers"),
    path("registers/<slug:slug>/", register_api.register, name="register"),
    path("rows/", register_api.rows, name="rows"),
    path("rows/<str:row_id>/", register_api.row, name="row"),
    path("disagreements/", register_api.disagreements, name="disagreements"),
    path("targets/", api.targets, name="targets"),
    path("targets/<int:pk>/", api.target, name="target"),
    path("runs/", api.runs, name="runs"),
    path("runs/<int:pk>/", api.run, name="run"),
    path("results/<int:pk>/", api.result, name="result"),
    path("compare/", api.compare, name="compare"),
    path("hosts/", lab_api.hosts, name="hosts"),
    path("hosts/compare/", lab_api.compare, name="compare_hosts"),
    path("hosts/features/<str:feature>/", lab_api.feature, name="lab_feature"),
    path("hosts/observations/<int:pk>/", lab_api.observation, name="lab_observation"),
    path("hosts/<str:key>/", lab_api.host, name="lab_host"),
]
