from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


def _changed(sender, **kwargs) -> None:
    from common.pagecache import bump_data_version

    bump_data_version()


def _runs_changed(sender, **kwargs) -> None:
    from common.pagecache import bump_runs_version

    bump_runs_version()


class ComparisonConfig(AppConfig):
    name = "comparison"
    verbose_name = "Comparison"

    def ready(self) -> None:
        # Row pages and exports show probe results and host observations: a saved result or
        # observation, or a run that changes status, is new data for them.
        from comparison import models

        # A schedule is shown on its target's page (a cached page): its edits are new data too.
        for model in (models.ProbeTarget, models.HostObservation, models.ProbeSchedule):
            post_save.connect(_changed, sender=model, dispatch_uid=f"data-version-save-{model.__name__}")
        # A run or a result is a change of runs alone: what reads no run (the rows, the lab) is kept.
        for model in (models.ProbeRun, models.ProbeResult):
            post_save.connect(_runs_changed, sender=model, dispatch_uid=f"data-version-save-{model.__name__}")
        # Deleting a target or a run (the admin) takes its results with it; results alone are
        # never deleted one by one, so they need no delete receiver (it would slow cascades).
        for model in (models.ProbeTarget, models.ProbeSchedule):
            post_delete.connect(_changed, sender=model, dispatch_uid=f"data-version-delete-{model.__name__}")
        post_delete.connect(_runs_changed, sender=models.ProbeRun, dispatch_uid="data-version-delete-ProbeRun")
