from django.apps import AppConfig


class RegistersConfig(AppConfig):
    name = "registers"
    verbose_name = "Registers"
