package browser_test

import (
	"strings"
	"testing"
)

// TestPolicyTable holds the embedding page's policy table: a host policy
// that lacks one of the directives the widget needs gets a message naming
// the directive and what to add, in the page's language, and the widget
// shows its script as text;
// a page that requires Trusted Types works once its trusted-types
// directive lists the widget's policy, warren, and is told so when not.
func TestPolicyTable(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	full := hostPolicy(site)
	const script = "queue.declare queue=q\nbasic.publish key=q count=2"
	page := map[string]string{"/p.html": `<warren-scenario id="w">` + script + `</warren-scenario>`}
	zh := map[string]string{"/p.html": `<div lang="zh-CN"><warren-scenario id="w">` + script + `</warren-scenario></div>`}
	for _, c := range []struct {
		name, policy, want string
		page               map[string]string // page when nil
	}{
		{"worker-src without blob:", strings.Replace(full, "worker-src blob: ", "worker-src ", 1), "add blob: to worker-src", nil},
		{"worker-src without blob:, on a Chinese page", strings.Replace(full, "worker-src blob: ", "worker-src ", 1), "页面的内容安全策略（Content-Security-Policy）拦下了它：在 worker-src 中加入 blob:", zh},
		{"connect-src without the site", strings.Replace(full, "connect-src "+site, "connect-src 'self'", 1), "add " + site + " to connect-src", nil},
		{"script-src without 'wasm-unsafe-eval'", strings.Replace(full, " 'wasm-unsafe-eval'", "", 1), "add 'wasm-unsafe-eval' to script-src", nil},
		{"Trusted Types without warren", full + "; require-trusted-types-for 'script'; trusted-types other", "add warren to trusted-types", nil},
		{"Trusted Types with warren", full + "; require-trusted-types-for 'script'; trusted-types warren", "", nil},
	} {
		if c.policy == full {
			t.Fatalf("%s: the policy did not change", c.name)
		}
		pg := page
		if c.page != nil {
			pg = c.page
		}
		host := hostPagesWith(t, site, c.policy, pg)
		b.open(host + "/p.html")
		problem := evalJS[string](b, `(() => { const p = `+in("#w", ".problem")+`; return p && !p.hidden ? p.textContent : ""; })()`)
		if c.want == "" {
			if s := b.shown("#w"); problem != "" || s.Ready["q"] != 2 {
				t.Errorf("%s: the widget says %q and shows %+v, want it live", c.name, problem, s)
			}
			continue
		}
		if !strings.Contains(problem, c.want) {
			t.Errorf("%s: the widget says %q, want %q in it", c.name, problem, c.want)
		}
		if text := evalJS[string](b, `(() => { const p = `+in("#w", "pre.unrun")+`; return p ? p.textContent : ""; })()`); text != script {
			t.Errorf("%s: the widget shows its script as %q", c.name, text)
		}
		if c.name == "worker-src without blob:" {
			b.shot("policy-no-blob")
		}
	}
}
