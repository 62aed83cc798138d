"""What every host adapter says about its host, and what a run hands it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SERVER_NAME = "probe"
#: The tool name that asks the fake model to call every tool of the server once, in turn.
ANY_TOOL = "*"


@dataclass(frozen=True)
class Context:
    """One run: a fresh home folder, the fake model's and the egress trap's URLs, the upstream's
    command (already wrapped by the recorder) and the prompt."""

    home: Path
    model_url: str
    server: list[str]
    server_env: dict[str, str]
    prompt: str
    tool: str
    arguments: dict = field(default_factory=dict)
    #: A Streamable HTTP server to use instead of the stdio command (the conformance suite's).
    server_url: str = ""
    #: The folder the host is installed in (node_modules inside): the pinned install, or a version's.
    install_dir: Path | None = None
    #: HTTP headers for `server_url` (an admin-configured target's); written only into the run's home.
    server_headers: dict[str, str] = field(default_factory=dict)

    @property
    def project(self) -> Path:
        """The folder the host starts in (a host warns, or reads more, when started in HOME)."""
        return self.home / "project"


@dataclass(frozen=True)
class Launch:
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    files: dict[Path, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Adapter:
    key: str
    label: str
    package: str  # the npm package ("" for a host that is not on npm)
    version: str  # the pinned version the test lane runs
    dialect: str  # the model API the fake speaks for it
    tool_visibility: str  # how MCP tools reach the model, in words
    binary: str = ""  # the executable: relative to node_modules/.bin, or "node"
    launch: Callable[[Context, Path], Launch] | None = None  # (context, executable) -> Launch
    unavailable: str = ""  # why the lab cannot run it, when it cannot
    reads: str = "model"  # where what reached the model is read: "model" (the fake) or "stdout" (a driver)
    notes: tuple[str, ...] = ()
    #: How often the lab starts the host for one run when its MCP tools were not among those it
    #: offered its model: a host that connects its servers while the session starts, and never
    #: adds them later (Cline), misses them now and then; the observation says how many it took.
    starts: int = 1
    #: MCP tools reach the model under their own names, nothing of the server's (Continue): the
    #: fake model calls the tool by its very name.
    bare_tool_names: bool = False
    #: With bare names, the host's own tools at the pinned version: when the lab calls every tool
    #: of a server (the conformance suite's), it calls every other tool offered.
    own_tools: tuple[str, ...] = ()

    @property
    def runnable(self) -> bool:
        return self.launch is not None and not self.unavailable
