// Loaded with `node --require` for a host whose Node (20) has a fetch that ignores HTTPS_PROXY.
// The lab's proxy is its egress trap: a fetch to anything but loopback is sent to it as the
// CONNECT a proxied fetch would make, then fails as a refused one would, so the trap has the
// attempt on record and no name lookup leaves the machine.
"use strict";
const http = require("node:http");

const proxy = process.env.HTTPS_PROXY || process.env.https_proxy;
const original = globalThis.fetch;
const WEB = new Set(["http:", "https:"]);
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function targetOf(input) {
  try {
    const raw = typeof input === "string" || input instanceof URL ? input : input.url;
    return new URL(raw);
  } catch {
    return null;
  }
}

if (proxy && typeof original === "function") {
  globalThis.fetch = function fetchViaProxy(input, init) {
    const url = targetOf(input);
    if (url === null || !WEB.has(url.protocol) || LOOPBACK.has(url.hostname)) {
      return original(input, init);
    }
    const target = `${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`;
    const via = new URL(proxy);
    return new Promise((resolve, reject) => {
      const refused = () => reject(new TypeError("fetch failed", { cause: new Error(`proxy refused ${target}`) }));
      const request = http.request({ host: via.hostname, port: via.port, method: "CONNECT", path: target });
      request.setTimeout(5000, () => request.destroy());
      request.on("connect", (_response, socket) => {
        socket.destroy();
        refused();
      });
      request.on("error", refused);
      request.on("close", refused);
      request.end();
    });
  };
}
