// Preloaded into Node peers (server-everything, supergateway, the conformance suite's scenario
// servers) with --require: they call listen() without a host, which binds every interface. Keep
// them on 127.0.0.1.
const net = require("node:net");
const listen = net.Server.prototype.listen;
let tcp = null;
try {
  tcp = process.binding("tcp_wrap");
} catch {
  tcp = null;
}

// A free port is bound here, at once: code that reads address() right after listen(0) (the
// suite's express servers do) must find it bound, and listen(port, host) binds only after a lookup.
function boundAnyPort() {
  if (!tcp) return null;
  const handle = new tcp.TCP(tcp.constants.SERVER);
  return handle.bind("127.0.0.1", 0) === 0 ? handle : null;
}

net.Server.prototype.listen = function (...args) {
  const anyPort = args.length === 0 || typeof args[0] === "function" || args[0] === 0 || args[0] === "0";
  const handle = anyPort ? boundAnyPort() : null;
  if (handle) {
    const callback = args.find((arg) => typeof arg === "function");
    return callback ? listen.call(this, handle, callback) : listen.call(this, handle);
  }
  if (typeof args[0] === "number" || typeof args[0] === "string" && /^\d+$/.test(args[0])) {
    if (typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  } else if (args[0] && typeof args[0] === "object" && !args[0].path && !args[0].host) {
    args[0] = { ...args[0], host: "127.0.0.1" };
  } else if (args.length === 0 || typeof args[0] === "function") {
    args.unshift(0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
