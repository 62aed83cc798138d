from django.apps import AppConfig
from django.db.models.signals import post_save


def _changed(sender, **kwargs) -> None:
    from common.pagecache import bump_data_version

    bump_data_version()


class RegistersConfig(AppConfig):
    name = "registers"
    verbose_name = "Registers"

    def ready(self) -> None:
        # One-by-one saves (the admin, the tests) change what pages show; bulk loads,
        # verification and the admin's deletions bump the data version themselves. No delete
        # signal: a receiver would turn every bulk delete into one statement per object.
        from . import models

        for model in (models.Register, models.Row, models.Citation, models.SourceRoot):
            post_save.connect(_changed, sender=model, dispatch_uid=f"data-version-save-{model.__name__}")
