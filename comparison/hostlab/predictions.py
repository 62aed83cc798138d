"""The hand-written host models as predictions of the lab: for each lab host that has a model, the
model's view of each fixture scenario is read into the same chips as a run, so where a model and
its host part is one comparison of chips."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from comparison.hostlab.catalogue import fixture_reply
from comparison.hostlab.features import judge
from comparison.hosts import cloudflare, opencode_v1
from comparison.hosts.view import HostView

#: lab host -> (the model's name on the pages, the model's view of a CallToolResult)
MODELS: dict[str, tuple[str, Callable[[Any], HostView]]] = {
    "opencode": ("opencode v1 model (comparison/hosts/opencode_v1.py)", opencode_v1.direct),
    "codemode": ("Cloudflare model (comparison/hosts/cloudflare.py)", cloudflare.script),
}


def view_reached(view: HostView) -> dict[str, Any]:
    """A model's view in the form `reached.py` gives a run."""
    if view.host_text is not None:
        parts = [{"kind": "text", "text": view.host_text}]
        return {
            "reached": True,
            "parts": parts,
            "error_flag": bool(view.host_is_error),
            "glue": [],
            "text": view.host_text,
        }
    if view.error is not None:
        parts = [{"kind": "text", "text": view.error}]
    else:
        parts = [{"kind": "text", "text": part.text} for part in view.parts if part.text is not None]
        parts += [
            {"kind": _kind(part.media.mime), "mime": part.media.mime, "bytes": part.media.bytes, "via": "model"}
            for part in view.parts
            if part.media is not None
        ]
    parts += [{"kind": _kind(m.mime), "mime": m.mime, "bytes": m.bytes, "via": "model"} for m in view.attachments]
    text = "\n".join(part["text"] for part in parts if part["kind"] == "text")
    return {"reached": True, "parts": parts, "error_flag": None, "glue": [], "text": text}


def _kind(mime: str) -> str:
    return {"image": "image", "audio": "audio"}.get(mime.split("/")[0], "file")


def predict(host: str, tool: str) -> list[dict[str, str]] | None:
    """The model's chips for a scenario, or None when the host has no model or the model does not
    cover the scenario (a JSON-RPC error is not a result a model is given)."""
    if host not in MODELS:
        return None
    reply = fixture_reply(tool)
    if reply is None or "error" in reply:
        return None
    _, model = MODELS[host]
    return judge(reply, view_reached(model(reply["result"])))


def partings(host: str, tool: str, measured: list[dict[str, str]]) -> list[dict[str, str]]:
    """Where the model's chip for a feature differs from the measured one."""
    predicted = predict(host, tool)
    if predicted is None:
        return []
    model = {cell["feature"]: cell for cell in predicted}
    found = []
    for cell in measured:
        guess = model.get(cell["feature"])
        if guess is not None and guess["chip"] != cell["chip"]:
            found.append(
                {
                    "feature": cell["feature"],
                    "measured": cell["chip"],
                    "measured_detail": cell["detail"],
                    "predicted": guess["chip"],
                    "predicted_detail": guess["detail"],
                }
            )
    return found
