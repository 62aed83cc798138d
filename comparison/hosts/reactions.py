"""The data of the host × protocol model (comparison.hosts.protocol): what each host does with
each scenario beyond request → answer, with its source. Pure, no Django.

One `Reaction` per host and aspect (a probe scenario of the families beyond request → answer):
whether the host uses the message (asks for it, acts on it, or is told something because of it),
what it does when it arrives, what changes for the model when a proxy loses it, and the source.
A proxy's loss counts against a host's interop only where the host uses what was lost, at a
revision the host negotiates at all.

Sources, and how each was read:
- opencode v1 is the 1.18.33 binary the real-host lane drives (npm `opencode-ai`); its bundled
  JavaScript was read for the identifiers quoted below, and `tests/e2e/test_real_protocol.py` checks
  the pagination, `list_changed`, elicitation, roots and progress-token rows on the binary itself.
  (The 1.18.31 source commit the registers cite is not readable here: the repository is larger
  than a fetch allows.)
- opencode v2 is `packages/core/src/mcp/client.ts` @a2cc772 and `elicitation.ts` @5b90322 (the
  2.0-era copies readable here; HOSTS.md explains why 2.0.3 itself has no resolved commit).
- lootbox is upstream 587a5a1 (read at that commit).
- Cloudflare is `@cloudflare/codemode` 0.5.6 `codeMcpServer` (dist/mcp.js), the path the host
  model and the real-host lane use; `tests/e2e/test_real_protocol.py` runs it against a paginated server.
- mcpx: the registers' sources say nothing about these messages, so every aspect is "not modelled"
  and a loss counts against it, as before this model existed.
"""

from __future__ import annotations

from dataclasses import dataclass

from language.vocabulary import REVISIONS
from language.vocabulary import Revision as R

OC1 = "opencode-ai 1.18.33 bundle"
OC2 = "v2:packages/core/src/mcp/client.ts@a2cc772"
OC2_ELICIT = "v2:packages/core/src/mcp/elicitation.ts@5b90322"
LOOTBOX_CLIENT = ".lootbox/src/lib/external-mcps/mcp_client_manager.ts:72-80"
LOOTBOX_LISTS = ".lootbox/src/lib/external-mcps/mcp_schema_fetcher.ts"
LOOTBOX_CALL = ".lootbox/src/lib/rpc/execute_mcp.ts:57-61"
CODEMODE = "@cloudflare/codemode 0.5.6 dist/mcp.js"
SDK_POST_ERROR = "@modelcontextprotocol/sdk 1.32.2 dist/esm/client/streamableHttp.js:326-378"

#: The newest revision each host's client negotiates (its SDK's latest): a cell at a later revision
#: is a conversation that host never has.
NEWEST = {
    "opencode-v1": R.V2025_11_25,  # OC1: `M3="2025-11-25"` and the supported list after it
    "opencode-v2": R.V2026_07_28,  # OC2_ELICIT: handles the 2026-07-28 form of URL elicitation
    "lootbox": R.V2025_06_18,  # @modelcontextprotocol/sdk 1.22.0 (HOSTS.md §4)
    "cloudflare": R.V2025_11_25,  # @modelcontextprotocol/sdk 1.32.2 under codemode 0.5.6
    "mcpx": REVISIONS[-1],
}


@dataclass(frozen=True)
class Reaction:
    uses: bool  # a proxy losing it changes what the host (and so its model) gets
    does: str  # what the host does with the message, or why it never meets one
    if_lost: str  # what changes when a proxy loses or refuses it ("" when `uses` is False)
    source: str


def ignoring(does: str, source: str) -> Reaction:
    return Reaction(False, does, "", source)


def using(does: str, if_lost: str, source: str) -> Reaction:
    return Reaction(True, does, if_lost, source)


NOT_MODELLED = Reaction(
    True,
    "not modelled: no source read here says what this host does with it",
    "not modelled (no source read here says what this host does with it): unknown, scored for nobody",
    "",
)

#: Server→client requests in their 2026-07-28 form (MRTR) are the same question to the host.
SAME_ASPECT = {
    "mrtr-sampling": "ask-sampling",
    "mrtr-elicit-form": "ask-elicit-form",
    "mrtr-elicit-url": "ask-elicit-url",
    "mrtr-roots": "ask-roots",
}

_NO_SAMPLING = "declares no sampling capability and has no handler"
_MCP_HEADERS_LOST = (
    "the upstream gets its calls without the MCP headers the client sent (version, session; method and "
    f"name at {R.V2026_07_28}): it may refuse them or read them as another revision"
)
_TOOL_LIST = "the tool list offered to the model"

#: How an SDK 1.x client meets an unknown session: it throws on any error status, 404 or not, and
#: never starts a new session by itself, so 400 for 404 changes nothing for it.
_SDK1_SESSION = Reaction(
    False,
    "throws on any error status (404 or not) and never starts a new session by itself",
    "",
    SDK_POST_ERROR,
)

BEHAVIOUR: dict[str, dict[str, Reaction]] = {
    "opencode-v1": {
        "progress": using(
            "sends a progress token (`onprogress:()=>{}`) and lets progress reset the call's timeout "
            "(`resetTimeoutOnProgress:!0`); nothing is shown",
            "a call that outlasts the tool's timeout fails with 'Request timed out' instead of returning",
            f"{OC1}: tool `execute` → `callTool(…,{{resetTimeoutOnProgress:!0,…,onprogress:()=>{{}}}})`",
        ),
        "logging": ignoring(
            "writes `notifications/message` to opencode's own log (debug/info/warning); never sets a level",
            f'{OC1}: `setNotificationHandler(d6,…)` → `logDebug/logInfo/logWarning("MCP server log")`',
        ),
        "ask-sampling": ignoring(_NO_SAMPLING, f"{OC1}: client options `M5={{capabilities:{{roots:{{}}}}}}`"),
        "ask-elicit-form": ignoring(
            "declares no elicitation capability; the SDK answers `elicitation/create` with -32601",
            f"{OC1}: `M5={{capabilities:{{roots:{{}}}}}}`; measured by tests/e2e/test_real_protocol.py",
        ),
        "ask-elicit-url": ignoring(
            "declares no elicitation capability", f"{OC1}: `M5={{capabilities:{{roots:{{}}}}}}`"
        ),
        "ask-roots": using(
            "declares `roots` and answers `roots/list` with the project directory",
            "the upstream never learns the project directory: a server that works within roots "
            "works elsewhere or refuses",
            f"{OC1}: `setRequestHandler(s6,()=>({{roots:[{{uri:pathToFileURL(dir)}}]}}))`; measured",
        ),
        "pages-tools": using(
            "follows `nextCursor` (up to 1000 pages, a repeated cursor is an error)",
            f"tools after the first page are missing from {_TOOL_LIST}",
            f"{OC1}: `N1(…listTools(cursor…))`, `C4=1000`; measured by tests/e2e/test_real_protocol.py",
        ),
        "pages-prompts": using(
            "follows `nextCursor` for prompts (offered as slash commands)",
            "prompts after the first page are missing from the slash commands",
            f"{OC1}: `N1((Y)=>Q.listPrompts({{cursor:Y}}))`",
        ),
        "pages-resources": using(
            "follows `nextCursor` for resources (offered to the user to attach)",
            "resources after the first page cannot be attached",
            f"{OC1}: `N1((Y)=>Q.listResources({{cursor:Y}}))`",
        ),
        "pages-templates": using(
            "follows `nextCursor` for resource templates",
            "templates after the first page cannot be used",
            f"{OC1}: `N1((Y)=>Q.listResourceTemplates({{cursor:Y}}))`",
        ),
        "list-changed": using(
            "re-lists tools on `notifications/tools/list_changed` (when the server declares `tools`) and "
            "offers the new list from the next turn",
            f"{_TOOL_LIST} stays as it was at connect: added tools are never offered, removed ones fail",
            f"{OC1}: `setNotificationHandler(z1,async()=>{{…M0.defs(Z,I)…publish(ToolsChanged)}})`; measured",
        ),
        "resource-updated": ignoring(
            "never subscribes to resources", f"{OC1}: no `subscribeResource` call outside the SDK"
        ),
        "cancel": using(
            "passes the turn's abort signal to the call: the SDK sends `notifications/cancelled` when "
            "the user stops the turn",
            "the upstream keeps working (and acting) after the user stopped it",
            f"{OC1}: `callTool(…,{{signal:J.abortSignal,…}})`",
        ),
        "told-version": using(
            "offers 2025-11-25 and reads results of the revision agreed",
            "the upstream answers in another revision's shapes",
            f'{OC1}: `M3="2025-11-25"`',
        ),
        "told-capabilities": using(
            "declares `roots`",
            "the upstream never asks for roots",
            f"{OC1}: `M5={{capabilities:{{roots:{{}}}}}}`",
        ),
        "told-client-info": ignoring(
            "sends clientInfo `opencode`; nothing it gets depends on the upstream knowing it",
            f'{OC1}: `new wQ({{name:"opencode",…}},M5)`',
        ),
        "told-meta": ignoring(
            "sends only the SDK's progress token in `_meta` (the progress row covers it)",
            f"{OC1}: `callTool` options",
        ),
        "told-headers": using(
            "sends the MCP headers of its SDK's Streamable HTTP client",
            _MCP_HEADERS_LOST,
            "v1:packages/opencode/src/mcp/index.ts (StreamableHTTPClientTransport `requestInit.headers`)",
        ),
        "session-get": using(
            "opens the GET stream through the SDK's Streamable HTTP client",
            "a `tools/list_changed` sent outside a call never arrives: the tool list goes stale",
            f"{OC1}: SDK StreamableHTTPClientTransport; list_changed handling above",
        ),
        "session-unknown": _SDK1_SESSION,
    },
    "opencode-v2": {
        "progress": ignoring(
            "sends a progress token (`onprogress: () => {}`) but does not let progress reset its "
            "12-hour execution timeout; nothing is shown",
            f"{OC2} callTool",
        ),
        "logging": ignoring("passes `notifications/message` to its log callback (`onLog`)", f"{OC2} onLog"),
        "ask-sampling": ignoring(_NO_SAMPLING, f"{OC2} `new Client(…{{capabilities}})`"),
        "ask-elicit-form": using(
            "declares form elicitation (`applyDefaults`) and asks the user with a form: boolean, "
            "number/integer, string (with enum/oneOf) and multi-select fields",
            "the user is never asked: the tool fails or proceeds without the answer",
            f"{OC2} capabilities `elicitation: {{form: {{applyDefaults: true}}, url: {{}}}}`; {OC2_ELICIT} toField",
        ),
        "ask-elicit-url": using(
            "declares URL elicitation and shows the link to the user",
            "the user never sees the link the upstream needs opened",
            f"{OC2_ELICIT} (mode url)",
        ),
        "ask-roots": using(
            "declares `roots` and answers `roots/list` with the project directory",
            "the upstream never learns the project directory",
            f"{OC2} `setRequestHandler(ListRootsRequestSchema, …)`",
        ),
        "pages-tools": using(
            "follows `nextCursor` (`paginate`, a repeated cursor is an error)",
            f"tools after the first page are missing from {_TOOL_LIST}",
            f"{OC2} tools → paginate",
        ),
        "pages-prompts": using(
            "follows `nextCursor` for prompts", "prompts after the first page are missing", f"{OC2} prompts → paginate"
        ),
        "pages-resources": ignoring("does not list resources", f"{OC2} (no resources/list)"),
        "pages-templates": ignoring("does not list resource templates", f"{OC2} (no resources/templates/list)"),
        "list-changed": using(
            "re-lists tools on `tools/list_changed` when the server declares `tools.listChanged`",
            f"{_TOOL_LIST} goes stale",
            f"{OC2} onToolsChanged",
        ),
        "resource-updated": ignoring("never subscribes to resources", f"{OC2} (no resources/subscribe)"),
        "cancel": using(
            "aborts the call's signal when the turn is interrupted: the SDK sends `notifications/cancelled`",
            "the upstream keeps working after the user stopped it",
            f"{OC2} callTool `{{ signal, … }}`",
        ),
        "told-version": using(
            "reads results of the revision agreed", "the upstream answers in another revision's shapes", OC2
        ),
        "told-capabilities": using(
            "declares `roots` and elicitation", "the upstream never asks for roots or input", f"{OC2} capabilities"
        ),
        "told-client-info": ignoring("sends clientInfo `opencode`", f'{OC2} `new Client({{ name: "opencode" …}})`'),
        "told-meta": ignoring("sends only the SDK's progress token in `_meta`", f"{OC2} callTool options"),
        "told-headers": using(
            "sends the MCP headers of its SDK's Streamable HTTP client",
            _MCP_HEADERS_LOST,
            f"{OC2} StreamableHTTPClientTransport `requestInit.headers`",
        ),
        "session-get": using(
            "opens the GET stream through the SDK's Streamable HTTP client",
            "a `tools/list_changed` sent outside a call never arrives: the tool list goes stale",
            f"{OC2} StreamableHTTPClientTransport",
        ),
    },
    "lootbox": {
        "progress": ignoring(
            "sends no progress token; a call has a fixed 30 s timeout", f"{LOOTBOX_CALL} (`callTool` without options)"
        ),
        "logging": ignoring("has no notification handlers", LOOTBOX_CLIENT),
        "ask-sampling": ignoring("declares no capabilities (`capabilities: {}`)", LOOTBOX_CLIENT),
        "ask-elicit-form": ignoring("declares no capabilities", LOOTBOX_CLIENT),
        "ask-elicit-url": ignoring("declares no capabilities", LOOTBOX_CLIENT),
        "ask-roots": ignoring("declares no capabilities", LOOTBOX_CLIENT),
        "pages-tools": ignoring(
            "reads the first page only (`listTools()` without a cursor): later tools never reach a "
            "script, directly or not",
            f"{LOOTBOX_LISTS}:69",
        ),
        "pages-prompts": ignoring("does not list prompts", LOOTBOX_LISTS),
        "pages-resources": ignoring("reads the first page only (`listResources()`)", f"{LOOTBOX_LISTS}:101"),
        "pages-templates": ignoring(
            "never calls `resources/templates/list` (reads a non-standard `uriTemplate` off resources)",
            f"{LOOTBOX_LISTS}:115",
        ),
        "list-changed": ignoring("has no notification handlers: its tool types are built once", LOOTBOX_CLIENT),
        "resource-updated": ignoring("never subscribes", LOOTBOX_CLIENT),
        "cancel": ignoring(
            "never cancels: its 30 s timeout races the call without a signal, so the upstream keeps working either way",
            LOOTBOX_CALL,
        ),
        "told-version": using(
            "offers 2025-06-18 (SDK 1.22.0)", "the upstream answers in another revision's shapes", LOOTBOX_CLIENT
        ),
        "told-capabilities": ignoring("declares no capabilities", LOOTBOX_CLIENT),
        "told-client-info": ignoring("sends clientInfo `lootbox`", LOOTBOX_CLIENT),
        "told-meta": ignoring("sends no `_meta`", LOOTBOX_CALL),
        "told-headers": ignoring(
            "its configuration type has `headers`, but the transport is built from the URL alone: "
            "no header reaches the upstream, directly or not",
            ".lootbox/src/lib/external-mcps/mcp_client_manager.ts:65-67",
        ),
        "session-get": ignoring("consumes nothing a server sends outside a call", LOOTBOX_CLIENT),
        "session-unknown": _SDK1_SESSION,
    },
    "cloudflare": {
        "progress": ignoring("sends no progress token (`callTool` without options)", f"{CODEMODE}:85-88"),
        "logging": ignoring("its client has no notification handlers", f"{CODEMODE}:69-72"),
        "ask-sampling": ignoring("its client declares no capabilities", f"{CODEMODE}:69-72"),
        "ask-elicit-form": ignoring("its client declares no capabilities", f"{CODEMODE}:69-72"),
        "ask-elicit-url": ignoring("its client declares no capabilities", f"{CODEMODE}:69-72"),
        "ask-roots": ignoring("its client declares no capabilities", f"{CODEMODE}:69-72"),
        "pages-tools": ignoring(
            "lists tools once, first page only (`const { tools } = await client.listTools()`): later "
            "tools are never in the `code` tool's types, directly or not",
            f"{CODEMODE}:74; measured by tests/e2e/test_real_protocol.py",
        ),
        "pages-prompts": ignoring("does not list prompts", CODEMODE),
        "pages-resources": ignoring("does not list resources", CODEMODE),
        "pages-templates": ignoring("does not list resource templates", CODEMODE),
        "list-changed": ignoring(
            "lists tools once when the `code` tool is built; a `list_changed` changes nothing",
            f"{CODEMODE}:74; measured by tests/e2e/test_real_protocol.py",
        ),
        "resource-updated": ignoring("never subscribes", CODEMODE),
        "cancel": ignoring("calls without a signal: never cancels", f"{CODEMODE}:85-88"),
        "told-version": using(
            "offers 2025-11-25 (SDK 1.32.2)", "the upstream answers in another revision's shapes", CODEMODE
        ),
        "told-capabilities": ignoring("declares no capabilities", f"{CODEMODE}:69-72"),
        "told-client-info": ignoring("sends clientInfo `codemode-proxy`", f"{CODEMODE}:69-72"),
        "told-meta": ignoring("sends no `_meta`", f"{CODEMODE}:85-88"),
        "told-headers": ignoring("talks to its upstream in memory, not over HTTP", f"{CODEMODE}:67-68"),
        "session-get": ignoring("talks to its upstream in memory, not over HTTP", f"{CODEMODE}:67-68"),
        "session-unknown": ignoring("talks to its upstream in memory, not over HTTP", f"{CODEMODE}:67-68"),
    },
    "mcpx": {},
}

#: Aspects no host modelled here reads, whatever the host: said once for all.
NOBODY = {
    "cache-list": "no host read here looks at caching hints",
    "cache-read": "no host read here looks at caching hints",
    "session-delete": "no host read here ends its session with DELETE",
    "told-sessions": "a host's own session is the same whatever other sessions a proxy opens upstream",
}
#: Aspects that change what every host gets, whatever the host does.
EVERYBODY = {
    "negotiated-revision": (
        "talks the revision the opening agreed",
        "talks another revision than the upstream would: what the upstream's adds never reaches it",
    ),
    "offered-capabilities": (
        "uses what the opening says the server offers",
        "never asks for what it is not told the server offers",
    ),
    "cache-private": (
        "takes the answer it gets; no host tells a shared answer from its own",
        "another caller's private answer is what reaches the model",
    ),
}
