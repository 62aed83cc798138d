// Node has no `cloudflare:workers` module; @cloudflare/codemode's index imports three classes
// from it. This resolve hook answers that import with minimal stand-ins.
const STANDIN = [
  "export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }",
  "export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }",
  "export class RpcTarget {}",
].join("\n");

export async function resolve(specifier, context, nextResolve) {
  if (specifier !== "cloudflare:workers") return nextResolve(specifier, context);
  return { url: `data:text/javascript,${encodeURIComponent(STANDIN)}`, shortCircuit: true };
}
