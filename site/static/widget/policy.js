// policy.js: what a host page's Content-Security-Policy must allow, said
// from what it blocked. The page (widget.js) and the engine's worker
// (engine-worker.js) each record the violations their global sees; when
// the engine cannot start, the message names the directive and the source
// to add. DOM-free: a violation is {directive, blocked} as the
// securitypolicyviolation event has them (effectiveDirective, blockedURI).
// The advice is said in the page's language; the worker, which does not
// know it, hands its violations to the page with its failure.

import { translator } from "./i18n.js";

/** TRUSTED_TYPES is the Trusted Types policy the widget makes for its
 * worker's address, which a page that requires Trusted Types lists in its
 * trusted-types directive. */
export const TRUSTED_TYPES = "warren";

/** advice is what to add for violation v, the widget's files being at
 * origin, said by tr (i18n.js's translator); "" when the violation is
 * none of the widget's. */
export function advice(v, origin, tr = translator("en")) {
  const d = v.directive || "";
  const blocked = v.blocked || "";
  if (d === "require-trusted-types-for" || blocked === "trusted-types-sink" || blocked === "trusted-types-policy") {
    return tr("policy.trustedTypes", { policy: TRUSTED_TYPES });
  }
  if (blocked === "wasm-eval" || blocked === "eval") {
    return tr("policy.wasmEval");
  }
  const source = blocked === "blob" || blocked.startsWith("blob:") ? "blob:" : blocked.startsWith(origin) ? origin : "";
  if (!source || !d) {
    return "";
  }
  return tr("policy.add", { source, directive: d });
}

/** adviceFor is the advice of every violation in vs, once each, joined
 * and said by tr; "" when none is the widget's. */
export function adviceFor(vs, origin, tr = translator("en")) {
  const out = [];
  for (const v of vs) {
    const a = advice(v, origin, tr);
    if (a && !out.includes(a)) {
      out.push(a);
    }
  }
  return out.length ? tr("policy.blocked", { list: out.join(tr("list.semicolon")) }) : "";
}
