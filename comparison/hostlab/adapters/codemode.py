"""Cloudflare codemode (`@cloudflare/codemode`): a library, not a program. Its `code` tool is what a
model calls; the lab's Node driver (node/codemode_lab.mjs) wraps the upstream with codeMcpServer,
runs a script that calls the tool once, and prints the `code` tool's result: what the model gets."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import Adapter, Context, Launch
from comparison.hostlab.install import NODE_DIR

DRIVER = NODE_DIR / "codemode_lab.mjs"


def _driver(context: Context) -> Path:
    """The driver beside the codemode it drives: the pinned install's, or a swept version's copy."""
    return (context.install_dir or NODE_DIR) / DRIVER.name


def _server(context: Context) -> list[str]:
    return ["--url", context.server_url] if context.server_url else context.server


def launch(context: Context, executable: Path) -> Launch:
    return Launch(
        argv=[
            str(executable),
            str(_driver(context)),
            context.tool,
            json.dumps(context.arguments),
            "--",
            *_server(context),
        ],
        # Headers go through the environment: the command line is stored with the observation.
        env={"CODEMODE_LAB_HEADERS": json.dumps(context.server_headers)} if context.server_headers else {},
        cwd=context.project,
    )


ADAPTER = Adapter(
    key="codemode",
    label="Cloudflare codemode",
    package="@cloudflare/codemode",
    version="0.5.6",
    dialect="none: a library; its `code` tool's result is what a model gets",
    tool_visibility="behind code: one `code` tool whose script calls `codemode.TOOL(...)`",
    binary="node",
    launch=launch,
    reads="stdout",
)
