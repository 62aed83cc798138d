"""Drive the real opencode binary (npm opencode-ai) headless: `opencode serve` on 127.0.0.1 with a
fake model and a stdio MCP server that returns canned results, one session per capture.

What a capture holds is what opencode sent the model after the tool ran: the tool message text and
the media it attached (in a separate user message for an OpenAI-compatible provider).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparison.hostlab.adapters.opencode import QUIET_ENV, opencode_config
from comparison.hostlab.chat_fake_model import FakeModel
from comparison.hostlab.install import OPENCODE_BIN
from comparison.probes.processes.process_tree import end_group
from comparison.probes.processes.tether import Tether

SERVER = Path(__file__).resolve().parent / "stdio_result_server.py"
START_TIMEOUT = 60.0
CAPTURE_TIMEOUT = 60.0


@dataclass
class Capture:
    case: str
    tool_text: str | None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    request: dict[str, Any] | None = None

    def normal_form(self) -> dict[str, Any]:
        return {"model_text": self.tool_text, "attachments": self.attachments}

    def offered_tools(self) -> list[str]:
        """The tool names opencode offered the model in the captured request."""
        tools = (self.request or {}).get("tools") or []
        return [tool.get("function", {}).get("name", "") for tool in tools if isinstance(tool, dict)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _data_url_media(url: str) -> tuple[str, int]:
    header, _, data = url.partition(",")
    mime = header.removeprefix("data:").split(";")[0]
    return mime, len(base64.b64decode(data)) if ";base64" in header else len(data)


def read_capture(case: str, body: dict[str, Any]) -> Capture:
    messages = body.get("messages", [])
    tool_index = next(i for i, m in enumerate(messages) if m.get("role") == "tool")
    content = messages[tool_index].get("content")
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    attachments: list[dict[str, Any]] = []
    inline = _inline_parts(content)
    if inline is not None:
        # Files other than images and PDFs stay in the tool message: the provider serialises the
        # tool's parts (text and base64 file data) as one JSON string.
        content = "\n".join(part.get("text", "") for part in inline if part.get("type") == "text")
        attachments += [
            {"mime": part.get("mediaType", ""), "bytes": len(base64.b64decode(part.get("data", "")))}
            for part in inline
            if part.get("type") == "file-data"
        ]
    for message in messages[tool_index + 1 :]:
        if message.get("role") != "user" or not isinstance(message.get("content"), list):
            continue
        for part in message["content"]:
            if part.get("type") == "image_url":
                mime, size = _data_url_media(part["image_url"]["url"])
                attachments.append({"mime": mime, "bytes": size})
            elif part.get("type") == "file":
                mime, size = _data_url_media(part["file"]["file_data"])
                attachments.append({"mime": mime, "bytes": size, "filename": part["file"].get("filename")})
    return Capture(case, content, attachments, body)


def _inline_parts(content: Any) -> list[dict[str, Any]] | None:
    if not isinstance(content, str) or not content.startswith('[{"type":'):
        return None
    try:
        parts = json.loads(content)
    except ValueError:
        return None
    if isinstance(parts, list) and any(isinstance(p, dict) and p.get("type") == "file-data" for p in parts):
        return parts
    return None


class OpencodeHost:
    """One `opencode serve` with one MCP server whose tools answer with `cases` (name -> result)."""

    def __init__(
        self,
        cases: dict[str, Any],
        *,
        binary: Path = OPENCODE_BIN,
        code_mode: bool = False,
        server: list[str] | None = None,
    ):
        """`server` replaces the canned-result server with another stdio MCP server's command."""
        self.cases = cases
        self.server = server
        self.binary = binary
        self.code_mode = code_mode
        self.workdir = Path(tempfile.mkdtemp(prefix="mcp-compare-opencode-"))
        self.process: subprocess.Popen | None = None
        self.tether: Tether | None = None
        self.model = FakeModel(code_mode=code_mode)
        self.port = 0

    def __enter__(self) -> OpencodeHost:
        try:
            self._start()
        except BaseException:
            # A serve that never became healthy leaves nothing behind: no process, no model, no folder.
            self.stop()
            raise
        return self

    def _start(self) -> None:
        self.model.__enter__()
        project = self.workdir / "project"
        project.mkdir()
        (self.workdir / "cases.json").write_text(json.dumps(self.cases), encoding="utf-8")
        (project / "opencode.json").write_text(json.dumps(self._config()), encoding="utf-8")
        self.port = _free_port()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.workdir),
            "PWD": str(project),
            **{f"XDG_{kind}_HOME": str(self.workdir / kind.lower()) for kind in ("CONFIG", "DATA", "CACHE", "STATE")},
            **QUIET_ENV,
            **({"OPENCODE_EXPERIMENTAL_CODE_MODE": "1"} if self.code_mode else {}),
        }
        # Tethered: a worker killed in the real-host lane leaves no `opencode serve` behind.
        self.tether = Tether([str(self.binary), "serve", "--hostname", "127.0.0.1", "--port", str(self.port)])
        self.process = subprocess.Popen(
            self.tether.argv,
            pass_fds=self.tether.pass_fds,
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._wait_healthy()

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """End serve and everything it started (its MCP server runs in its process group), the fake
        model, and remove the working folder. Safe to call more than once."""
        if self.process is not None:
            end_group(self.process, wait=10)
        if self.tether is not None:
            self.tether.close()
        self.model.__exit__()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def _config(self) -> dict[str, Any]:
        command = self.server or [sys.executable, str(SERVER), str(self.workdir / "cases.json")]
        return opencode_config(
            f"http://127.0.0.1:{self.model.port}", {"type": "local", "enabled": True, "command": command}
        )

    def _url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"opencode serve exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self._url("/global/health"), timeout=2) as response:  # noqa: S310
                    if json.load(response).get("healthy"):
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"opencode serve did not answer /global/health within {START_TIMEOUT:.0f} s")

    def _post(self, path: str, payload: dict[str, Any], timeout: float) -> dict[str, Any]:
        request = urllib.request.Request(  # noqa: S310 - always http://127.0.0.1
            self._url(path),
            data=json.dumps(payload).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return json.load(response)

    def capture(self, case: str) -> Capture:
        session = self._post("/session", {"title": f"capture {case}"}, timeout=30)
        self._post(
            f"/session/{session['id']}/message",
            {"parts": [{"type": "text", "text": f"CASE={case}"}]},
            timeout=CAPTURE_TIMEOUT,
        )
        body = self.model.wait_for(case, timeout=5)
        if body is None:
            return Capture(case, None)
        return read_capture(case, body)
