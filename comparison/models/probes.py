"""Probe targets, runs and results."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse

from common import choices
from comparison.models.querysets import ResultQuerySet, RunQuerySet
from comparison.probes.assessment.result_shape import repaired
from comparison.probes.fixture.forkserver import fixture_command
from comparison.probes.processes.launch import loopback_port
from comparison.probes.run.runner import TargetSpec
from comparison.probes.run.scenarios import SUITES
from comparison.probes.targets.pinning import pinnable
from comparison.probes.targets.secrets import (
    Redactor,
    command_secrets,
    display_command,
    display_url,
    url_secrets,
    url_userinfo,
)
from comparison.services.own_secrets import own_secrets
from language.anchors import kinds
from language.vocabulary import ACTIVE_RUN_STATUSES, RunStatus

USERINFO_REFUSED = (
    "Credentials in the URL (user:password@…) would be shown wherever the URL is. Remove them and put the "
    "credential in {where} instead (e.g. Authorization: Basic … or Bearer …): header values are never shown."
)


class ProbeTarget(models.Model):
    """A proxy (or server) to probe. Only admins create targets: probes go nowhere else."""

    name = models.CharField(max_length=100, unique=True)
    transport = models.CharField(max_length=10, choices=choices.Transport)
    url = models.URLField(
        max_length=500, blank=True, help_text="For HTTP: the MCP endpoint, e.g. http://127.0.0.1:3301/mcp"
    )
    command = models.JSONField(
        default=list, blank=True, help_text='For stdio: the argument list, e.g. ["mcp-proxy", "…"]'
    )
    headers = models.JSONField(
        default=dict, blank=True, help_text="Extra HTTP headers (credentials); never shown back."
    )
    upstream_headers = models.JSONField(
        default=dict,
        blank=True,
        help_text="Headers for probing the upstream directly (its credentials); never shown back.",
    )
    env = models.JSONField(
        default=dict,
        blank=True,
        help_text="Environment for the command and the launch command (NAME → value), e.g. "
        '{"API_KEY": "…"}: put a command\'s secrets here rather than on its command line; an argument may '
        'name one as ${API_KEY} (e.g. "Bearer ${API_KEY}"), replaced when the command starts. Values are '
        "credentials: never shown back, masked wherever a target echoes them.",
    )
    upstream_description = models.TextField(blank=True, help_text="What sits behind this target.")
    suite = models.CharField(max_length=20, choices=[(key, key) for key in SUITES], default="fixture")
    upstream = models.CharField(
        max_length=500,
        blank=True,
        help_text='"fixture" when the upstream is the built-in fixture (its answers are known), or the upstream\'s '
        "own URL to probe directly for the diff; empty for no diff.",
    )
    launch = models.JSONField(
        default=list,
        blank=True,
        help_text="A command that serves the URL, started by each run and stopped after it (loopback only), "
        'e.g. ["mcp-proxy", "--port", "3301", "--", "python", "server.py"]; empty when something else runs it.',
    )
    builtin = models.BooleanField(default=False, editable=False)
    enabled = models.BooleanField(default=True)
    uploaders = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="upload_targets",
        help_text="Who may upload runs made elsewhere into this target (a proxy's CI user). Uploaded runs show "
        "on its pages and badge; they count as the dashboard's own measurements only once accepted.",
    )

    class Meta:
        ordering = ["-builtin", "name"]
        permissions = [("set_target_command", "Can set a target's command, launch and environment (run by the worker)")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("comparison:target_detail", args=[self.pk])

    def clean(self) -> None:
        errors = {}
        if url_userinfo(self.url):
            errors["url"] = USERINFO_REFUSED.format(where="Headers")
        if url_userinfo(self.upstream):
            errors["upstream"] = USERINFO_REFUSED.format(where="Upstream headers")
        if self.launch and (
            not isinstance(self.launch, list) or not all(isinstance(part, str) and part for part in self.launch)
        ):
            errors["launch"] = 'Expected a list of arguments, e.g. ["mcp-proxy", "--port", "3301", "--", "server"].'
        elif self.launch and self.transport == "http" and loopback_port(self.url) is None:
            errors["url"] = "A target with a launch command must serve a loopback URL (http://127.0.0.1:<port>/…)."
        for name in ("headers", "upstream_headers", "env"):
            value = getattr(self, name)
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            ):
                errors[name] = 'Expected an object of names to string values, e.g. {"Authorization": "…"}.'
        if errors:
            raise ValidationError(errors)

    @property
    def display_url(self) -> str:
        return display_url(self.url) if self.url else ""

    @property
    def display_upstream(self) -> str:
        return display_url(self.upstream) if self.upstream.startswith(("http://", "https://")) else self.upstream

    @property
    def display_command(self) -> str:
        return self._shown_command(self.command)

    @property
    def display_launch(self) -> str:
        return self._shown_command(self.launch)

    def _shown_command(self, command) -> str:
        """A command line with its credential-looking options and the dashboard's own credentials masked."""
        return Redactor(own_secrets()).text(" ".join(display_command(command))) if isinstance(command, list) else ""

    def redactor(self) -> Redactor:
        """Masks every credential this target is configured with, wherever it turns up."""
        values = [*_values(self.headers), *_values(self.upstream_headers), *_values(self.env), *url_secrets(self.url)]
        values += url_secrets(self.upstream)
        for command in (self.command, self.launch):
            values += command_secrets(command) if isinstance(command, list) else []
        return Redactor([*values, *own_secrets()])

    def spec(self) -> TargetSpec:
        command = list(self.command)
        if self.builtin:
            # The built-in fixture runs with this process's interpreter, wherever it is installed,
            # forked from a process that has already imported it.
            command = fixture_command()
        return TargetSpec(
            self.name,
            self.transport,
            url=self.url,
            command=command,
            headers=dict(_items(self.headers)),
            suite=self.suite,
            upstream=self.upstream,
            launch=list(self.launch) if self.transport == "http" and isinstance(self.launch, list) else [],
            env=dict(_items(self.env)),
        )

    def grid_unpinnable(self) -> str:
        """Why a cross-era grid cannot pin this target's upstream, "" when it can (the built-in
        fixture always can: asked first, so a page never starts its fork server)."""
        return "" if self.builtin else pinnable(self.spec())

    def upstream_spec(self) -> TargetSpec | None:
        if self.upstream.startswith(("http://", "https://")):
            return TargetSpec(
                f"{self.name} upstream",
                "http",
                url=self.upstream,
                headers=dict(_items(self.upstream_headers)),
                suite=self.suite,
            )
        return None

    @property
    def header_names(self) -> list[str]:
        return sorted(self.headers) if isinstance(self.headers, dict) else []

    @property
    def upstream_header_names(self) -> list[str]:
        return sorted(self.upstream_headers) if isinstance(self.upstream_headers, dict) else []


def _items(headers) -> list[tuple[str, str]]:
    if not isinstance(headers, dict):
        return []
    return [(str(name), str(value)) for name, value in headers.items()]


def _values(headers) -> list[str]:
    return [value for _, value in _items(headers)]


class ProbeRun(models.Model):
    QUEUED, RUNNING, DONE, FAILED, CANCELLED = (
        RunStatus.QUEUED,
        RunStatus.RUNNING,
        RunStatus.DONE,
        RunStatus.FAILED,
        RunStatus.CANCELLED,
    )
    #: The worker stopped renewing its lease (killed, or its machine gone): partial results kept.
    INTERRUPTED = RunStatus.INTERRUPTED
    ACTIVE = ACTIVE_RUN_STATUSES
    #: Final states whose results are partial or unreliable; pages and exports say so.
    INCOMPLETE = (FAILED, CANCELLED, INTERRUPTED)

    target = models.ForeignKey(ProbeTarget, on_delete=models.CASCADE, related_name="runs")
    revisions = models.JSONField(default=list)
    #: The cross-era grid: each upstream revision the target's upstream was pinned to, every client
    #: revision through it (probes.grid_run); [] for a run whose upstream speaks every revision.
    upstream_revisions = models.JSONField(default=list, blank=True)
    scenarios = models.JSONField(default=list)
    status = models.CharField(max_length=12, choices=choices.RunStatus, default=QUEUED, db_index=True)
    cancel_requested = models.BooleanField(default=False)
    real_host = models.BooleanField(
        default=False,
        help_text="Also run the real hosts: each installed host through the target and directly, and the opencode "
        "binary on every tool result.",
    )
    uploaded = models.BooleanField(
        default=False, editable=False, help_text="Sent through the API from a run made elsewhere (`probe --json`)."
    )
    #: An uploaded run counts as the dashboard's own measurement (row evidence) only once accepted.
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    accepted_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: The upload's replay key: the sender's Idempotency-Key, else the digest of the body it sent.
    upload_key = models.CharField(max_length=100, blank=True, editable=False)
    server_identity = models.CharField(
        max_length=200,
        blank=True,
        editable=False,
        help_text="What the target said it is (serverInfo name and version) in its first answer of the run.",
    )
    #: The real hosts' pass: {"status": queued | done | failed, "ran", "reused", "identity", "hosts":
    #: {host: {label, version, same, differs, not compared, differing}}, "error"}; {} when not asked.
    real_hosts = models.JSONField(default=dict, blank=True, editable=False)
    conformance = models.BooleanField(
        default=False, help_text="Also run the official conformance suite, directly and through the target."
    )
    tries = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="How many times each timing-sensitive cell (notifications, progress, cancellation) is played.",
    )
    #: The conformance pass: {"status": why it did not run ("" when it did), "rows": [conformance.Row]}.
    conformance_results = models.JSONField(default=dict, blank=True, editable=False)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=100, blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Renewed every few seconds by the worker executing the run; a run whose heartbeat is older
    #: than the lease is interrupted by recovery.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=100, blank=True, help_text="Which process executes (or executed) the run.")
    schedule = models.ForeignKey(
        "ProbeSchedule", null=True, blank=True, on_delete=models.SET_NULL, related_name="runs", editable=False
    )
    previous_run = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    #: Cells that changed since the target's previous finished run: [{scenario, revision, status, before, after}].
    changes = models.JSONField(default=list, blank=True, editable=False)

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        permissions = [
            ("run_probe", "Can run probes"),
            ("accept_upload", "Can accept uploaded runs as the dashboard's own measurements"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["target", "upload_key"], condition=~models.Q(upload_key=""), name="one_run_per_upload_key"
            ),
            models.UniqueConstraint(
                fields=["target"],
                condition=models.Q(status__in=[str(status) for status in ACTIVE_RUN_STATUSES]),
                name="one_active_run_per_target",
            ),
        ]

    def __str__(self) -> str:
        return f"run {self.pk} on {self.target}"

    def get_absolute_url(self) -> str:
        return reverse("comparison:run_detail", args=[self.pk])

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def incomplete(self) -> bool:
        return self.status in self.INCOMPLETE

    @property
    def seconds(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None

    @staticmethod
    def measured(prefix: str = "") -> models.Q:
        """The runs that are the dashboard's own measurements: made here, or uploaded and accepted."""
        return models.Q(**{f"{prefix}uploaded": False}) | models.Q(**{f"{prefix}accepted_at__isnull": False})


#: The JSON fields whose parts have a shape of their own (probes.result_shape).
SHAPED_FIELDS = (
    "anchors", "seen", "findings", "diff", "host_views", "dpcter", "exchanges", "tries", "interop", "predictions",
)  # fmt: skip


def anchor_keys(anchors: list[str]) -> str:
    found = sorted(kinds.all_keys(anchors or ()))
    return "," + ",".join(found) + "," if found else ""


class ProbeResult(models.Model):
    run = models.ForeignKey(ProbeRun, on_delete=models.CASCADE, related_name="results")
    scenario = models.CharField(max_length=100)
    #: The scenario family (comparison.probes.families) the scenario belongs to; "" before families.
    family = models.CharField(max_length=40, blank=True, default="")
    #: What the scenario exercises (comparison.anchors): methods, fields, headers, pages.
    anchors = models.JSONField(default=list, blank=True)
    #: ",method:tools/list,type:CallToolResult," (every anchor and the broader ones it falls under),
    #: so a row page finds the results that meet its anchors with LIKEs on any database.
    anchors_key = models.TextField(blank=True, default="")
    #: The methods and notifications that travelled in the cell's exchanges, as anchors.
    seen = models.JSONField(default=list, blank=True)
    method = models.CharField(max_length=100)
    requested_revision = models.CharField(max_length=10, choices=choices.Revision)
    #: The one revision the upstream was pinned to (a grid run's pair), "" when it spoke every one.
    upstream_revision = models.CharField(max_length=10, blank=True, default="", choices=choices.Revision)
    negotiated_revision = models.CharField(max_length=20, blank=True)
    verdict = models.CharField(max_length=30, choices=choices.ProbeVerdict, db_index=True)
    failure = models.TextField(blank=True)
    response = models.JSONField(null=True, blank=True)
    findings = models.JSONField(default=list)
    diff = models.JSONField(default=list)
    diff_against = models.CharField(max_length=100, blank=True)
    host_views = models.JSONField(default=list)
    dpcter = models.JSONField(default=list, help_text="DPCTER profiles per consumer, for failure scenarios.")
    interop = models.JSONField(
        default=dict, blank=True, help_text="Per host: does it get through the proxy what the upstream sends?"
    )
    exchanges = models.JSONField(default=list)
    #: Each try of a timing-sensitive cell: [{"try", "verdict", "findings", "exchanges"}]; [] for one.
    tries = models.JSONField(default=list, blank=True)
    predictions = models.JSONField(
        default=list, blank=True, help_text="What each host the lab measured would see of a tool result."
    )
    duration_ms = models.FloatField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    objects = ResultQuerySet.as_manager()

    class Meta:
        ordering = ["run", "id"]
        indexes = [models.Index(fields=["scenario", "requested_revision"])]

    def __str__(self) -> str:
        return f"{self.scenario} @ {self.requested_revision}: {self.verdict}"

    def save(self, *args, **kwargs):
        self.anchors_key = anchor_keys(self.anchors)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("comparison:result_detail", args=[self.pk])

    @classmethod
    def from_db(cls, db, field_names, values, *args, **kwargs):
        """Every page that reads a stored result gets one whole: a part of another shape (stored
        before uploads were checked, or restored from elsewhere) is taken out and named in a finding."""
        instance = super().from_db(db, field_names, values, *args, **kwargs)
        loaded = {name: instance.__dict__[name] for name in SHAPED_FIELDS if name in instance.__dict__}
        if loaded:
            fixed, problems = repaired(loaded)
            if problems:
                instance.__dict__.update(fixed)
        return instance
