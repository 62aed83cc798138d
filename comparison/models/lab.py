"""What the host lab observed: one row per host version × scenario × fixture version (the cache
key), with the exact command and the raw capture as provenance."""

from __future__ import annotations

from django.db import models
from django.urls import reverse

FIXTURE_SERVER = "fixture"
#: Observations of a host run through a configured target (comparison/services/lab_through.py).
TARGET_SERVER = "target"


class HostObservation(models.Model):
    key = models.CharField(max_length=300, unique=True, help_text="host@version/scenario/fixture/lab: the cache key.")
    host = models.CharField(max_length=40, db_index=True)
    label = models.CharField(max_length=100)
    version = models.CharField(max_length=40)
    scenario = models.CharField(max_length=100)
    fixture = models.CharField(max_length=40, help_text="The fixture's version, or 'user-server'.")
    server = models.CharField(
        max_length=20, default=FIXTURE_SERVER, help_text="'fixture', or 'user' for a user's own server."
    )
    measured_at = models.DateTimeField()
    seconds = models.FloatField(null=True, blank=True)
    not_measured = models.TextField(blank=True, help_text="Why the lab did not run it, when it did not.")
    command = models.JSONField(default=list, blank=True)
    reached = models.JSONField(default=dict, blank=True)
    told = models.JSONField(default=dict, blank=True)
    cells = models.JSONField(default=list, blank=True)
    partings = models.JSONField(default=list, blank=True, help_text="Where the host's hand model predicted otherwise.")
    egress = models.JSONField(default=list, blank=True)
    raw = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["host", "scenario", "-measured_at"]
        indexes = [models.Index(fields=["host", "version", "scenario"])]

    def __str__(self) -> str:
        return self.key

    def get_absolute_url(self) -> str:
        return reverse("comparison:lab_observation", args=[self.pk])


class HostReleases(models.Model):
    """The versions npm published for a host's package, as last read by a sweep (the ranges'
    gaps are read against it)."""

    host = models.CharField(max_length=40, unique=True)
    package = models.CharField(max_length=100)
    versions = models.JSONField(default=list)
    fetched_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.package}: {len(self.versions)} versions"
