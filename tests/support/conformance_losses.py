"""What each proxy of the probe tests loses of the official conformance suite's server scenarios."""

#: What each proxy loses of the 30 scenarios the fixture passes directly, measured (2026-12-02).
LOST_THROUGH = {
    "mcp-proxy": {
        "dns-rebinding-protection",  # no Host/Origin check
        "tools-call-with-logging",  # notifications during a call are not relayed
        "tools-call-with-progress",
        "tools-call-sampling",  # server→client requests are refused
        "tools-call-elicitation",
        "elicitation-sep1034-defaults",
        "elicitation-sep1330-enums",
    },
    "supergateway-stateful": {"dns-rebinding-protection"},
    "supergateway-stateless": {
        "dns-rebinding-protection",
        "server-sse-multiple-streams",  # GET answers 405
        "tools-call-sampling",  # a fresh upstream per message: no path back for its requests
        "tools-call-elicitation",
        "elicitation-sep1034-defaults",
        "elicitation-sep1330-enums",
    },
}
