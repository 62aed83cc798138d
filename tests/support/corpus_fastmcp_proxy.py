"""A FastMCP proxy (fastmcp 4.2.3, run in its own virtualenv) in front of an HTTP upstream, on
127.0.0.1; with a namespace, the proxy is mounted under it, as a gateway that namespaces its
upstreams does (every tool, prompt and resource renamed).

    corpus_fastmcp_proxy.py UPSTREAM_PORT PORT [NAMESPACE]
"""

import sys

from fastmcp import FastMCP
from fastmcp.server.server import create_proxy

upstream, port = sys.argv[1], int(sys.argv[2])
namespace = sys.argv[3] if len(sys.argv) > 3 else ""
proxy = create_proxy(f"http://127.0.0.1:{upstream}/mcp", name="proxy")
if namespace:
    gateway = FastMCP("gateway")
    gateway.mount(proxy, namespace=namespace)
    proxy = gateway
proxy.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
