from django.urls import path

from registers import views

app_name = "registers"

urlpatterns = [
    path("", views.row_list, name="row_list"),
    path("matrix/", views.matrix, name="matrix"),
    path("export.<str:fmt>", views.export, name="export"),
    path("glossary/", views.glossary, name="glossary"),
    path("registers/", views.register_list, name="register_list"),
    path("registers/<slug:slug>/", views.register_detail, name="register_detail"),
    path("registers/<slug:slug>/verify/", views.verify_register, name="verify_register"),
    path("registers/<slug:slug>/proposals/", views.register_proposals, name="register_proposals"),
    path("registers/<slug:slug>/<str:row_id>/", views.row_detail, name="row_detail"),
    path("rows/<str:row_id>/", views.row_by_id, name="row_by_id"),
]
