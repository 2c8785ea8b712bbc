// policy.js: what a host page's Content-Security-Policy must allow, said
// from what it blocked. The page (widget.js) and the engine's worker
// (engine-worker.js) each record the violations their global sees; when
// the engine cannot start, the message names the directive and the source
// to add. DOM-free: a violation is {directive, blocked} as the
// securitypolicyviolation event has them (effectiveDirective, blockedURI).

/** TRUSTED_TYPES is the Trusted Types policy the widget makes for its
 * worker's address, which a page that requires Trusted Types lists in its
 * trusted-types directive. */
export const TRUSTED_TYPES = "warren";

/** advice is what to add for violation v, the widget's files being at
 * origin; "" when the violation is none of the widget's. */
export function advice(v, origin) {
  const d = v.directive || "";
  const blocked = v.blocked || "";
  if (d === "require-trusted-types-for" || blocked === "trusted-types-sink" || blocked === "trusted-types-policy") {
    return `add ${TRUSTED_TYPES} to trusted-types (the widget's policy for its worker's address)`;
  }
  if (blocked === "wasm-eval" || blocked === "eval") {
    return `add 'wasm-unsafe-eval' to script-src (warren.wasm is compiled)`;
  }
  const source = blocked === "blob" || blocked.startsWith("blob:") ? "blob:" : blocked.startsWith(origin) ? origin : "";
  if (!source || !d) {
    return "";
  }
  return `add ${source} to ${d}`;
}

/** adviceFor is the advice of every violation in vs, once each, joined;
 * "" when none is the widget's. */
export function adviceFor(vs, origin) {
  const out = [];
  for (const v of vs) {
    const a = advice(v, origin);
    if (a && !out.includes(a)) {
      out.push(a);
    }
  }
  return out.length ? `the page's Content-Security-Policy blocked it: ${out.join("; ")}` : "";
}
