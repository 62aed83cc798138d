"""One strictness policy: what counts as a difference between what the upstream sent and what the
client got, for every answer the probe compares, and the words each difference is told in.

- Key order never counts (answers are compared as JSON values).
- A field sent with the value the schema gives it when absent (`isError: false` on a tool result)
  is the same as the field left out: both sides are compared without it.
- Everything else counts: an added `_meta` or optional field, a removed one, any other value, an
  error's text as much as its code (a known answer pins the fixture's own words wherever they are
  fixed). Lists of named items are compared by name (`diffing`).

Pure, no Django.
"""

from __future__ import annotations

import copy
from typing import Any

from comparison.hosts.present import shorten
from comparison.probes.families.base import Finding
from language.vocabulary import ProbeVerdict

#: method → {result field: the value that means the same as leaving it out}
DEFAULTS: dict[str, dict[str, Any]] = {"tools/call": {"isError": False}}
#: How many differences a cell tells in words before it says how many more there are.
TOLD = 3


def normalized(method: str, answer: dict[str, Any] | None) -> dict[str, Any] | None:
    """The answer as it is compared: fields at their default value left out."""
    result = answer.get("result") if isinstance(answer, dict) else None
    defaults = DEFAULTS.get(method, {})
    if not isinstance(result, dict) or not any(result.get(k, object()) == v for k, v in defaults.items()):
        return answer
    kept = copy.copy(result)
    for name, value in defaults.items():
        if name in kept and kept[name] == value and type(kept[name]) is type(value):
            del kept[name]
    return {**answer, "result": kept}


def _quote(value: Any, limit: int = 120) -> str:
    return f"“{shorten(' '.join(str(value).split()), limit)}”"


def _text_of(result: Any) -> str:
    blocks = result.get("content") if isinstance(result, dict) else None
    texts = [b.get("text", "") for b in blocks or [] if isinstance(b, dict) and b.get("type") == "text"]
    return " ".join(t for t in texts if isinstance(t, str))


def explain(sent: Any, got: Any, differences: list[dict[str, Any]]) -> list[Finding]:
    """Findings that say, from the two answers, what the differences are: an error turned into a
    result (or back), an error's text rewritten, and otherwise each field added, removed or changed."""
    sent_error = sent.get("error") if isinstance(sent, dict) else None
    got_error = got.get("error") if isinstance(got, dict) else None
    if isinstance(sent_error, dict) and got_error is None and isinstance(got, dict) and "result" in got:
        data = sent_error.get("data")
        lost = f"; its data ({', '.join(sorted(data))}) never reaches the client" if isinstance(data, dict) else ""
        flag = " with isError" if isinstance(got["result"], dict) and got["result"].get("isError") else ""
        return [
            Finding(
                ProbeVerdict.CHANGED,
                "error",
                f"the upstream's JSON-RPC error {sent_error.get('code')} {_quote(sent_error.get('message', ''))} "
                f"reached the client as a tool result{flag} saying {_quote(_text_of(got['result']))}{lost}",
            )
        ]
    if isinstance(got_error, dict) and sent_error is None and isinstance(sent, dict) and "result" in sent:
        return [
            Finding(
                ProbeVerdict.LOST,
                "result",
                f"the upstream's result never reaches the client: it got JSON-RPC error {got_error.get('code')} "
                f"{_quote(got_error.get('message', ''))}",
            )
        ]
    sent_result = sent.get("result") if isinstance(sent, dict) else None
    got_result = got.get("result") if isinstance(got, dict) else None
    if (
        isinstance(sent_result, dict)
        and isinstance(got_result, dict)
        and got_result.get("isError") is True
        and sent_result.get("isError") is not True
    ):
        return [
            Finding(
                ProbeVerdict.LOST,
                "result.isError",
                "the upstream's result never reaches the client: it got a tool error saying "
                + _quote(_text_of(got_result)),
            )
        ]
    told = [_said(difference) for difference in differences[:TOLD]]
    if len(differences) > TOLD:
        told.append(f"and {len(differences) - TOLD} more")
    return [Finding(ProbeVerdict.CHANGED, str(differences[0].get("path", "")), "; ".join(told))] if told else []


def _said(difference: dict[str, Any]) -> str:
    path, change = difference.get("path", ""), difference.get("change", "")
    if change == "added":
        return f"`{path}` added: {_quote(difference.get('after'), 80)}"
    if change == "removed":
        return f"`{path}` removed (was {_quote(difference.get('before'), 80)})"
    if path.endswith(".message"):
        return f"the error text changed: {_quote(difference.get('before'))} → {_quote(difference.get('after'))}"
    return f"`{path}` changed: {_quote(difference.get('before'), 80)} → {_quote(difference.get('after'), 80)}"
