"""scripts/serve.sh as a machine with two dashboards runs it (issue 21, row 12): gunicorn's control
socket is per user by default (~/.gunicorn/gunicorn.ctl), so two dashboards fought over it."""

from __future__ import annotations

from tests.e2e.test_database_down import fetch
from tests.support.processes import free_port, server


def test_two_dashboards_serve_side_by_side_without_a_shared_control_socket(tmp_path, lane_database):
    """Issue 21 row 12: both gunicorns used ~/.gunicorn/gunicorn.ctl."""
    first, second = free_port(), free_port()
    env = {"DATABASE_URL": lane_database, "MCP_COMPARE_WEB_WORKERS": "1", "HOME": str(tmp_path)}
    with (
        server(["scripts/serve.sh"], first, env={**env, "PORT": str(first)}),
        server(["scripts/serve.sh"], second, env={**env, "PORT": str(second)}),
    ):
        assert fetch(f"http://127.0.0.1:{first}/healthz")[0] == 200
        assert fetch(f"http://127.0.0.1:{second}/healthz")[0] == 200
    assert not (tmp_path / ".gunicorn").exists()
