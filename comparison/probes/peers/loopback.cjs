// Preloaded into Node peers (server-everything, supergateway) with --require: they call listen()
// without a host, which binds every interface. Keep them on 127.0.0.1.
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || typeof args[0] === "string" && /^\d+$/.test(args[0])) {
    if (typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  } else if (args[0] && typeof args[0] === "object" && !args[0].path && !args[0].host) {
    args[0] = { ...args[0], host: "127.0.0.1" };
  } else if (args.length === 0 || typeof args[0] === "function") {
    args.unshift(0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
