from django.apps import AppConfig
from django.db.models.signals import m2m_changed, post_delete, post_save


def _changed(sender, **kwargs) -> None:
    from common.pagecache import bump_data_version

    bump_data_version()


def _permissions_changed(sender, **kwargs) -> None:
    if kwargs.get("action", "post_").startswith("post_"):  # m2m_changed says pre_ and post_
        from common.pagecache import bump_permissions_version

        bump_permissions_version()


class RegistersConfig(AppConfig):
    name = "registers"
    verbose_name = "Registers"

    def ready(self) -> None:
        # One-by-one saves (the admin, the tests) change what pages show; bulk loads,
        # verification and the admin's deletions bump the data version themselves. No delete
        # signal: a receiver would turn every bulk delete into one statement per object.
        from registers import models

        for model in (models.Register, models.Row, models.Citation, models.SourceRoot):
            post_save.connect(_changed, sender=model, dispatch_uid=f"data-version-save-{model.__name__}")
        # Users who hold the same permissions share cached pages: a grant or a revocation, a
        # group joined or left, a group or user deleted, reads every profile again.
        from django.contrib.auth.models import Group, User

        for through in (User.user_permissions.through, User.groups.through, Group.permissions.through):
            m2m_changed.connect(_permissions_changed, sender=through, dispatch_uid=f"permissions-{through.__name__}")
        for model in (User, Group):
            post_delete.connect(_permissions_changed, sender=model, dispatch_uid=f"permissions-{model.__name__}")
