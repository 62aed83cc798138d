"""Hypothesis strategies for what a hostile or broken target may send: JSON values of any shape,
results and responses that look almost right, and raw bytes that are almost JSON."""

from __future__ import annotations

import json
import os

from hypothesis import strategies as st

#: Examples per property test scale with HYPOTHESIS_PROFILE: the everyday lane (`scripts/test.sh
#: --fast`, profile "fast") runs a quarter of CI's, "explore" five times as many.
EXAMPLE_SCALE = {"fast": 0.25, "explore": 5.0}.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), 1.0)


def examples(count: int) -> int:
    """How many examples a property test that CI runs `count` times runs under this profile."""
    return max(10, round(count * EXAMPLE_SCALE))


#: Keys a result, a block, an error or an envelope uses, so generated objects hit real code paths.
KEYS = [
    "content", "type", "text", "data", "mimeType", "uri", "name", "resource", "blob", "annotations", "_meta",
    "structuredContent", "isError", "messages", "role", "error", "code", "message", "schema", "policy", "target",
    "repair", "retry", "sideEffects", "retryAfterMs", "prompts", "tools", "title", "icons", "lastModified",
    "audience", "priority", "resultType", "description", "arguments", "pointer", "result", "jsonrpc", "id",
]  # fmt: skip
BLOCK_TYPES = ["text", "image", "audio", "resource", "resource_link", "video", ""]

text = st.text(max_size=40) | st.sampled_from(["mcp-error/1", "not found", "invalid type", "\ud800", "\x00", "=1+1"])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | text, children, max_size=5)
    ),
    max_leaves=25,
)
blocks = st.fixed_dictionaries(
    {"type": st.sampled_from(BLOCK_TYPES) | json_values},
    optional={
        key: json_values for key in ("text", "data", "mimeType", "uri", "name", "resource", "annotations", "_meta")
    },
)
results = st.fixed_dictionaries(
    {},
    optional={
        "content": json_values | st.lists(blocks | json_values, max_size=4),
        "structuredContent": json_values,
        "isError": json_values,
        "_meta": json_values,
        "messages": json_values
        | st.lists(st.fixed_dictionaries({"role": json_values, "content": blocks | json_values})),
    },
)
errors = json_values | st.fixed_dictionaries(
    {"code": st.integers(-33000, 1000) | json_values, "message": text | json_values},
    optional={"data": json_values},
)
responses = json_values | st.fixed_dictionaries(
    {"jsonrpc": st.just("2.0") | json_values, "id": st.just(1)},
    optional={"result": results | json_values, "error": errors},
)


@st.composite
def almost_json(draw) -> bytes:
    """A JSON-RPC response as bytes, often broken on the way: cut short, non-JSON numbers, lone
    surrogate or NUL escapes, deep nesting, invalid UTF-8."""
    body = json.dumps(draw(responses), ensure_ascii=True).encode()
    mutation = draw(st.sampled_from(["none", "truncate", "nan", "surrogate", "nul", "deep", "bytes", "bom"]))
    if mutation == "truncate" and body:
        body = body[: draw(st.integers(0, len(body) - 1))]
    elif mutation == "nan":
        body = body.replace(b"null", draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999"])), 1)
    elif mutation == "surrogate":
        body = b'{"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "\\udc80"}]}}'
    elif mutation == "nul":
        body = b'{"jsonrpc": "2.0", "id": 1, "result": {"k\\u0000": "\\u0000"}}'
    elif mutation == "deep":
        depth = draw(st.integers(60, 3000))
        body = b'{"jsonrpc": "2.0", "id": 1, "result": {"x": ' + b"[" * depth + b"]" * depth + b"}}"
    elif mutation == "bytes":
        body = body + draw(st.binary(max_size=20))
    elif mutation == "bom":
        body = b"\xef\xbb\xbf" + body
    return body
