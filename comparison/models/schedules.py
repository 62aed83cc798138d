"""Probe schedules (a target probed every N seconds by the worker's ticks) and the workers' signs
of life."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


class ProbeSchedule(models.Model):
    """Runs of one target at a fixed interval, fired by the probe worker through the Tasks API (no
    cron). One tick is pending at a time: a worker that was down for many intervals runs the
    missed slot once, then schedules the next one an interval later."""

    target = models.OneToOneField("comparison.ProbeTarget", on_delete=models.CASCADE, related_name="schedule")
    every_seconds = models.PositiveIntegerField(default=86_400, help_text="Seconds between runs (86400: daily).")
    revisions = models.JSONField(default=list, blank=True, help_text="Revisions to probe; empty for every one.")
    upstream_revisions = models.JSONField(
        default=list,
        blank=True,
        help_text="The cross-era grid: upstream revisions to pin the upstream to, each with every client revision; "
        "empty for none.",
    )
    scenarios = models.JSONField(default=list, blank=True, help_text="Scenario keys; empty for the whole suite.")
    conformance = models.BooleanField(
        default=False, help_text="Each run also runs the official conformance suite (HTTP targets)."
    )
    real_hosts = models.BooleanField(
        default=False, help_text="Each run also runs every installed host through the target and directly."
    )
    enabled = models.BooleanField(default=True)
    next_run_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_fired_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_message = models.TextField(blank=True, editable=False, help_text="What the last tick did.")
    #: The pending tick's token; a tick carrying another token is stale and does nothing.
    token = models.CharField(max_length=40, blank=True, editable=False)

    def __str__(self) -> str:
        return f"every {self.every_seconds} s: {self.target}"

    @property
    def effective_seconds(self) -> int:
        """The interval it runs at: never below MCP_COMPARE_SCHEDULE_MIN_SECONDS, whatever was saved
        (a schedule made before the minimum was raised keeps its value and runs at the minimum)."""
        return max(self.every_seconds, int(settings.SCHEDULE_MIN_SECONDS))

    @property
    def below_minimum(self) -> bool:
        return self.every_seconds < self.effective_seconds

    def clean(self) -> None:
        minimum = settings.SCHEDULE_MIN_SECONDS
        # A value saved before the minimum was raised may be kept as it is (so the schedule's
        # other fields can still be edited); a new or changed interval must meet the minimum.
        saved = ProbeSchedule.objects.filter(pk=self.pk).values_list("every_seconds", flat=True)
        stored = saved.first() if self.pk else None
        if self.every_seconds < minimum and self.every_seconds != stored:
            raise ValidationError(
                {
                    "every_seconds": f"At least {minimum:.0f} s (MCP_COMPARE_SCHEDULE_MIN_SECONDS): each run writes "
                    "its results and empties the page cache."
                }
            )
        for name in ("revisions", "upstream_revisions", "scenarios"):
            value = getattr(self, name)
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise ValidationError({name: "Expected a list of strings."})


class WorkerHeartbeat(models.Model):
    """A probe worker's sign of life, renewed every lease period; /healthz reports the newest."""

    name = models.CharField(max_length=100, unique=True)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.name
