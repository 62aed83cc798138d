"""Django Tasks entry points. The web request only enqueues; a worker (`manage.py db_worker`) runs."""

from __future__ import annotations

from django.tasks import task


@task
def execute_run_task(run_id: int) -> None:
    from .probing import execute_run

    execute_run(run_id)


@task
def schedule_tick_task(schedule_id: int, token: str) -> str:
    from .scheduling import fire

    return fire(schedule_id=schedule_id, token=token)


@task
def host_lab_task(target_id: int, tool: str, arguments: dict, batch: str) -> int:
    """A configured stdio target's tool through every installed host (the lab page's runs)."""
    from .lab_services import run_target

    return run_target(target_id, tool, arguments, batch)


@task
def host_version_task(host: str, version: str) -> dict:
    """One version of a host through the lab's catalogue (a sweep queues one task per version)."""
    from .lab_sweeps import measure_version

    return measure_version(host, version)


@task
def host_target_task(target_id: int, run_id: int | None = None) -> dict:
    """Every installed host through a target, beside the same host directly (a run's "also run
    the real hosts" queues it after its probe cells, so the run's lease is not held meanwhile);
    the per-host summary is recorded on the run."""
    from .lab_through import real_hosts_pass

    return real_hosts_pass(target_id, run_id)
