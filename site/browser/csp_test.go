package browser_test

import (
	"strings"
	"testing"
)

// TestPolicyHolds checks that the site's Content-Security-Policy is in
// force in the browser tests: an inline script on a page served by
// site.Handler does not run, and the breach is reported, so that every
// other browser test, which fails on a reported breach, runs the widget
// under the policy.
func TestPolicyHolds(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-inline.html")
	if ran := evalJS[bool](b, `document.title === "inline script ran"`); ran {
		t.Error("an inline script ran under the site's policy")
	}
	b.mu.Lock()
	errs := strings.Join(b.errs, "\n")
	b.errs = nil
	b.mu.Unlock()
	if !strings.Contains(errs, "Content-Security-Policy: script-src-elem blocked inline") {
		t.Errorf("the blocked inline script was not reported; the page reported:\n%s", errs)
	}
	b.noErrors()
}
