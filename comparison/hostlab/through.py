"""What a host saw through a target set beside what it saw directly from the fixture: the same
scenario's two observations compared on what reached the model and on the chips. Pure."""

from __future__ import annotations

from typing import Any

SAME, DIFFERS, NOT_COMPARED = "same", "differs", "not compared"
NOT_MEASURED_CHIP = "not measured"


def failed_capture(observation: dict[str, Any]) -> str:
    """Why a fresh run measured nothing, or "": the host neither asked the model anything nor
    printed what its model gets (it did not start, crashed, or was not installed whole). Such a run
    is "not measured", never a finding: compared, it would look the same as another that failed."""
    raw = observation.get("raw")
    if observation.get("not_measured") or not isinstance(raw, dict) or "capture" not in raw:
        return ""
    if raw.get("capture") or raw.get("model_requests"):
        return ""
    said = [line for line in str(raw.get("stderr") or raw.get("stdout") or "").splitlines() if line.strip()]
    # Node prints its own version after an error: the line that names the error says more.
    errors = [line for line in said if "error" in line.lower()]
    timed_out = ", timed out" if observation.get("timed_out") else ""
    last = f": {(errors or said)[-1].strip()[:300]}" if said else ""
    return f"the host captured nothing (exit code {observation.get('exit_code')}{timed_out}){last}"


def measured_or_not(observation: dict[str, Any]) -> dict[str, Any]:
    """The observation, marked not measured (with why) when its capture failed."""
    why = failed_capture(observation)
    if not why:
        return observation
    return dict(observation, not_measured=why, cells=[{"feature": "call", "chip": NOT_MEASURED_CHIP, "detail": why}])


def _chips(item: dict[str, Any]) -> dict[str, str]:
    return {cell["feature"]: cell["chip"] for cell in item.get("cells") or []}


def compare(direct: dict[str, Any] | None, via: dict[str, Any] | None) -> dict[str, Any]:
    """{"verdict", "changed": [{feature, direct, via}], "parts_differ"}; not compared when either
    side was not measured (never "same")."""
    if not direct or not via or direct.get("not_measured") or via.get("not_measured"):
        return {"verdict": NOT_COMPARED, "changed": [], "parts_differ": False}
    before, after = _chips(direct), _chips(via)
    if after.get("call") == NOT_MEASURED_CHIP and "call" not in before:
        # Nothing came back through the target: that is the change, not every feature gone.
        why = next(c["detail"] for c in via.get("cells") or [] if c["feature"] == "call")
        return {"verdict": DIFFERS, "changed": [{"feature": "call", "direct": "reached the model", "via": why}],
                "parts_differ": True}  # fmt: skip
    changed = [
        {"feature": feature, "direct": before.get(feature, "absent"), "via": after.get(feature, "absent")}
        for feature in sorted(set(before) | set(after))
        if before.get(feature) != after.get(feature)
    ]
    seen_direct, seen_via = direct.get("reached") or {}, via.get("reached") or {}
    parts_differ = (seen_direct.get("parts"), seen_direct.get("error_flag")) != (
        seen_via.get("parts"),
        seen_via.get("error_flag"),
    )
    return {"verdict": DIFFERS if changed or parts_differ else SAME, "changed": changed, "parts_differ": parts_differ}


def row(direct: dict[str, Any] | None, via: dict[str, Any]) -> dict[str, Any]:
    """One host × scenario seen through a target beside directly, compared (what pages and
    commands list)."""
    return {"host": via["host"], "label": via["label"], "version": via["version"], "scenario": via["scenario"],
            "via": via, "direct": direct, **compare(direct, via)}  # fmt: skip


def summary(rows: list[dict[str, Any]], ran: int, reused: int, identity: str) -> dict[str, Any]:
    """A finished real-hosts pass as a run records it and `probe --real-hosts` prints it: `ran`
    counts the runs that measured something; `not_measured` the pairs that could not be compared
    (a host not installed, a capture that failed), and `compared` those that could."""
    compared = sum(1 for row in rows if row["verdict"] != NOT_COMPARED)
    unmeasured = sum(1 for row in rows if (row.get("via") or {}).get("not_measured"))
    return {"status": "done", "ran": max(0, ran - unmeasured), "reused": reused, "identity": identity,
            "compared": compared, "not_measured": len(rows) - compared, "hosts": per_host(rows)}  # fmt: skip


def affected_hosts(pairs: list[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """host -> how many scenarios differ through the target (hosts with none are left out)."""
    found: dict[str, int] = {}
    for host, comparison in pairs:
        if comparison["verdict"] == DIFFERS:
            found[host] = found.get(host, 0) + 1
    return found


def per_host(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Rows are {host, label, version, scenario, verdict, changed}: per host, how many scenarios it
    saw the same through the target, how many differ (and which), how many could not be compared."""
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        item = found.setdefault(row["host"], {"label": row["label"], "version": row["version"], SAME: 0,
                                              DIFFERS: 0, NOT_COMPARED: 0, "differing": []})  # fmt: skip
        item[row["verdict"]] += 1
        if row["verdict"] == DIFFERS:
            item["differing"].append({"scenario": row["scenario"], "changed": row["changed"]})
    return found


def words(host: dict[str, Any]) -> str:
    scored = host[SAME] + host[DIFFERS]
    line = f"{host['label']} {host['version']}: the same in {host[SAME]} of {scored} scenario(s)"
    if host[NOT_COMPARED]:
        line += f", {host[NOT_COMPARED]} not compared"
    if host["differing"]:
        shown = "; ".join(f"{d['scenario']} ({_changes(d['changed'])})" for d in host["differing"])
        line += f"; differs in {shown}"
    return line


def _changes(changed: list[dict[str, str]]) -> str:
    return ", ".join(f"{c['feature']}: {c['direct']} → {c['via']}" for c in changed) or "what reached the model"


#: The hand model each lab host is the real counterpart of (language.vocabulary host keys).
MODEL_HOST = {"opencode": "opencode-v1", "codemode": "cloudflare"}
#: The score's host of each lab host: a capture through the target takes that host's line.
SCORED_AS = {**MODEL_HOST, **{host: host for host in ("codex", "claude-code", "gemini-cli", "qwen-code", "copilot",
                                                      "cline", "kilo", "continue")}}  # fmt: skip


def host_interop(
    captured: dict[str, dict[str, Any]],
    modelled: dict[str, dict[str, Any]],
    names: dict[str, str],
    sources: dict[str, str] | None = None,
):
    """One line per host: from the real host's captures where the lab ran it through the target,
    else from the run's score, labelled with where it comes from. `captured`: per_host();
    `modelled`: {host: {"same", "scored", "percent"}}; `names`: host -> label; `sources`: host ->
    "lab" (predicted from the lab's chips), "lab + model", or "model" (the default)."""
    sources = sources or {}
    lines = []
    for host, item in captured.items():
        scored = item[SAME] + item[DIFFERS]
        lines.append({"host": item["label"], "version": item["version"], "source": "captures", "same": item[SAME],
                      "scored": scored, "percent": round(100 * item[SAME] / scored, 1) if scored else None,
                      "replaces": SCORED_AS.get(host, ""), "differing": item["differing"]})  # fmt: skip
    # A real host that measured nothing replaces no model: its hand model still says what it can.
    replaced = {line["replaces"] for line in lines if line["scored"]}
    for line in lines:
        line["replaces_label"] = names.get(line["replaces"], line["replaces"])
    for host, score in modelled.items():
        if host not in replaced and score.get("scored"):
            shares = {name: score[name] for name in ("same", "scored", "percent")}
            lines.append({"host": names.get(host, host), "version": "", "source": sources.get(host, "model"),
                          "replaces": "", "differing": [], "key": host, **shares})  # fmt: skip
    return lines
