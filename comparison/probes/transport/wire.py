"""Raw JSON-RPC to an MCP server over Streamable HTTP or stdio, every exchange captured and bounded.

Not the SDK's types: they reject or normalise exactly what a probe needs to see. Every read has a
connect timeout, a total deadline, a byte cap and (for SSE) an event cap; whatever a target does
(hang, drip, flood, garbage, disconnect) ends as a recorded failure on the Exchange, never as a
stuck caller. No Django here.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from comparison.probes.targets.aliases import NAMED_BY, Aliases
from comparison.probes.transport.exchange import Call, Exchange
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.param_headers import param_headers
from comparison.probes.transport.stdio_transport import StdioTransport
from language.vocabulary import Revision as R

logger = logging.getLogger(__name__)

STATELESS_REVISION = R.V2026_07_28
#: The error a 2026-07-28 server gives a request at a protocol version it does not speak.
UNSUPPORTED_VERSION = -32022
#: Where an opening names the run that made it (`initialize` params `_meta`): the fixture counts
#: another run's sessions on a shared upstream as no proxy's.
RUN_META = "mcp-compare.dev/run"
CLIENT_INFO = {"name": "mcp-compare-probe", "version": "1.0.0"}


@dataclass
class Session:
    requested: str
    negotiated: str = ""
    stateless: bool = False
    server_info: dict[str, Any] = field(default_factory=dict)
    capabilities: dict[str, Any] = field(default_factory=dict)
    exchanges: list[Exchange] = field(default_factory=list)
    failure: str = ""


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _header_safe(value: str) -> bool:
    """A value that can go back out as a header: printable ASCII, bounded."""
    return len(value) <= 512 and value.isascii() and value.isprintable()


def _refused_post(exchange: Exchange) -> bool:
    """The answer a server that has no Streamable HTTP endpoint at the URL gives a POST."""
    return exchange.status in (400, 404, 405) and not isinstance((exchange.response or {}).get("result"), dict)


def _supported_on_refusal(response: Any, revision: str) -> bool:
    """An UnsupportedProtocolVersion error (-32022) whose `data.supported` lists `revision`."""
    error = _object(_object(response).get("error"))
    supported = _object(error.get("data")).get("supported")
    return error.get("code") == UNSUPPORTED_VERSION and isinstance(supported, list) and revision in supported


def _brief(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:200]


class WireClient:
    """Opens a session at a chosen revision and sends requests in that revision's style."""

    def __init__(self, transport: HttpTransport | StdioTransport, capabilities: dict[str, Any] | None = None):
        self.transport = transport
        self.next_id = 0
        self.session: Session | None = None
        #: What the probe declares it can do (sampling, elicitation, roots): the scenario families
        #: that need a capability ask for it; none by default.
        self.capabilities = dict(capabilities or {})
        #: The run this client's sessions belong to (no dashes), told the upstream at each opening.
        self.run_key = ""
        #: The names the target gives the upstream's items, where the upstream's are known.
        self.aliases: Aliases | None = None
        #: tool name → input schema, from the session's `tools/list` answers.
        self.input_schemas: dict[str, Any] = {}

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def _envelope(self) -> dict[str, Any]:
        return {
            "io.modelcontextprotocol/protocolVersion": STATELESS_REVISION,
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
        }

    def open(self, revision: str) -> Session:
        """Open a session at `revision`; whatever the target answers, a Session comes back (with
        `failure` set when the opening did not succeed)."""
        session = Session(revision)
        self.session = session
        if revision == STATELESS_REVISION:
            discover = self._send("server/discover", {}, record=session)
            if _supported_on_refusal(discover.response, STATELESS_REVISION):
                # Refused with a list that holds our revision: a conformant client asks once more.
                discover = self._send("server/discover", {}, record=session)
            result = _object((discover.response or {}).get("result"))
            versions = result.get("supportedVersions")
            if discover.ok and isinstance(versions, list) and STATELESS_REVISION in versions:
                session.stateless, session.negotiated = True, STATELESS_REVISION
                session.server_info = _object(result.get("serverInfo"))
                session.capabilities = _object(result.get("capabilities"))
                return session
        opening: dict[str, Any] = {"protocolVersion": revision, "capabilities": self.capabilities}
        opening["clientInfo"] = CLIENT_INFO
        if self.run_key:
            opening["_meta"] = {RUN_META: self.run_key}
        init = self._send("initialize", opening, record=session)
        if _refused_post(init) and isinstance(self.transport, HttpTransport) and not self.transport.legacy_endpoint:
            # A URL that refuses the POST may serve only the deprecated HTTP+SSE transport.
            why = self.transport.fall_back_to_sse()
            if why:
                init.failure = f"{init.failure or 'initialize refused'}; no HTTP+SSE transport there either: {why}"
            else:
                init = self._send("initialize", init.request["params"], record=session)
        result = (init.response or {}).get("result")
        if not init.ok or not isinstance(result, dict):
            session.failure = init.failure or f"initialize failed: {_brief(init.response)}"
            return session
        version = result.get("protocolVersion", "")
        if not isinstance(version, str) or not version:
            session.failure = f"initialize answered without a protocolVersion string: {_brief(version)}"
            return session
        session.negotiated = version[:20]
        session.server_info = _object(result.get("serverInfo"))
        session.capabilities = _object(result.get("capabilities"))
        if isinstance(self.transport, HttpTransport):
            session_id = next((v for k, v in init.response_headers.items() if k.lower() == "mcp-session-id"), None)
            for name, value in (("Mcp-Session-Id", session_id), ("MCP-Protocol-Version", session.negotiated)):
                if value and _header_safe(value):
                    self.transport.session_headers[name] = value
        self._send("notifications/initialized", None, record=session, notification=True)
        return session

    def listen(self) -> str:
        """Open the session's GET stream (HTTP with a session only); returns what became of it:
        "open", "HTTP 405", … or "" where there is no such stream."""
        if not isinstance(self.transport, HttpTransport) or self.session is None or self.session.stateless:
            return ""
        stream = self.transport.listen()
        if stream.open:
            return "open"
        # Still waiting for the answer when start() gave up on it: say so, never a bare "not opened".
        return stream.ended or f"not opened: no answer to the GET within {self.transport.limits.connect_timeout:.0f} s"

    def _send(
        self,
        method: str,
        params: dict[str, Any] | None,
        *,
        record: Session | None = None,
        notification: bool = False,
        call: Call | None = None,
    ) -> Exchange:
        self._learn_names(method, record)
        if self.aliases is not None and method in NAMED_BY:
            params = self.aliases.call_params(method, params)
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if not notification:
            message["id"] = self._id()
        if params is not None:
            message["params"] = params
        headers: dict[str, str] = {}
        if method == "server/discover" or self._stateless:
            message, headers = self._enveloped(message)
        exchange = self.transport.exchange(message, headers, call)
        (record or self.session).exchanges.append(exchange)
        if method == "tools/list":
            self._remember_schemas(exchange.response)
        if self.aliases is not None and method in self.aliases.upstream_pages:
            self.aliases.learn(method, params, exchange.response)
        return exchange

    def _remember_schemas(self, response: Any) -> None:
        """Each listed tool's input schema, for the `Mcp-Param-*` headers of its calls."""
        tools = _object(_object(response).get("result")).get("tools")
        for tool in tools if isinstance(tools, list) else []:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                self.input_schemas[tool["name"]] = tool.get("inputSchema")

    def request(self, method: str, params: dict[str, Any] | None = None, call: Call | None = None) -> Exchange:
        return self._send(method, params, call=call)

    def stamp(self, message: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """A message sent mid-call and its HTTP headers, in the session's style."""
        return self._enveloped(message) if self._stateless else (message, {})

    @property
    def _stateless(self) -> bool:
        return self.session is not None and self.session.stateless

    def _enveloped(self, message: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """At 2026-07-28: the envelope in `_meta`, and the version, method and name headers."""
        method = message["method"]
        params = dict(message.get("params") or {})
        params["_meta"] = {**(params.get("_meta") or {}), **self._envelope()}
        headers = {"MCP-Protocol-Version": STATELESS_REVISION, "Mcp-Method": method}
        # The tool or prompt a request names, or the resource it reads.
        named = params.get("name") or (params.get("uri") if method.startswith("resources/") else None)
        if named:
            headers["Mcp-Name"] = str(named)
        if method == "tools/call" and isinstance(self.transport, HttpTransport):
            headers.update(param_headers(self.input_schemas.get(str(named)), params.get("arguments")))
        return {**message, "params": params}, headers

    def new_id(self) -> int:
        """An id for a request sent outside `request` (a listen stream)."""
        return self._id()

    def _learn_names(self, method: str, record: Session | None = None) -> None:
        """Once per kind of item: how the proxy names them (its list), before the first call."""
        if self.aliases is not None and method in NAMED_BY and not self.aliases.learned(method):
            self._send(NAMED_BY[method], {}, record=record)

    def next_request_id(self, method: str = "") -> int:
        """The id the next request of `method` will carry (a cancel sent mid-call names it): the
        list that teaches the proxy's names goes first, so it never takes that id."""
        self._learn_names(method)
        return self.next_id + 1

    def close(self) -> None:
        self.transport.close()
