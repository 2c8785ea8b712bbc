package site

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHandlerKeepsPagesOutOfFrames: every response says nosniff; every
// page but the embed page refuses to be framed (a second policy,
// frame-ancestors 'none', and X-Frame-Options: DENY), and the embed page,
// which other sites put in an iframe, says neither.
func TestHandlerKeepsPagesOutOfFrames(t *testing.T) {
	dir, _ := fakeSite(t)
	for _, name := range []string{"embed.html", "zh/embed.html"} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte("<!doctype html><title>embed</title>")); err != nil {
			t.Fatal(err)
		}
	}
	h := Handler(dir)
	for target, frameable := range map[string]bool{
		"/": false, "/lessons/a/": false, "/index.html": false, "/nothing-here.html": false, "/widget.js": false, "/warren.wasm": false,
		"/embed.html": true, "/embed.html?scenario=list_queues": true, "/zh/embed.html": true,
	} {
		res := get(t, h, "GET", target)
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", target, got)
		}
		policies := res.Header.Values("Content-Security-Policy")
		if len(policies) == 0 || policies[0] != ContentSecurityPolicy {
			t.Errorf("%s: Content-Security-Policy %q", target, policies)
		}
		refuses := slices.Contains(policies, NoFraming) && res.Header.Get("X-Frame-Options") == "DENY"
		if frameable && (slices.Contains(policies, NoFraming) || res.Header.Get("X-Frame-Options") != "") {
			t.Errorf("%s: the embed page refuses frames: %q, X-Frame-Options %q", target, policies, res.Header.Get("X-Frame-Options"))
		}
		if !frameable && !refuses {
			t.Errorf("%s: can be framed: %q, X-Frame-Options %q", target, policies, res.Header.Get("X-Frame-Options"))
		}
	}
}

// TestHostHeadersKeepPagesOutOfFrames: the build's _headers says nosniff
// and the site's policy for every file, and refuses frames for every page
// but the embed pages, under each address a static host serves it at.
func TestHostHeadersKeepPagesOutOfFrames(t *testing.T) {
	out := buildSite(t)
	b, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string][]string{} // address: its header lines
	var at string
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "/"):
			at = l
		case strings.HasPrefix(l, "  ") && at != "":
			rules[at] = append(rules[at], strings.TrimSpace(l))
		}
	}
	all := rules["/*"]
	for _, want := range []string{"X-Content-Type-Options: nosniff", "Content-Security-Policy: " + ContentSecurityPolicy, "Access-Control-Allow-Origin: *"} {
		if !slices.Contains(all, want) {
			t.Errorf("/* lacks %q: %q", want, all)
		}
	}
	noFrames := []string{"Content-Security-Policy: " + NoFraming, "X-Frame-Options: DENY"}
	for _, p := range pages(t) {
		for _, addr := range pageAddresses(p) {
			got := rules[addr]
			if framed(p) && len(got) > 0 {
				t.Errorf("%s (%s): the embed page has a rule of its own: %q", addr, p, got)
			}
			if !framed(p) && !slices.Equal(got, noFrames) {
				t.Errorf("%s (%s): %q, want %q", addr, p, got, noFrames)
			}
		}
	}
	for _, addr := range []string{"/", "/lessons/", "/playground/", "/404"} {
		if !slices.Equal(rules[addr], noFrames) {
			t.Errorf("%s: %q, want %q", addr, rules[addr], noFrames)
		}
	}
	if len(rules["/embed.html"]) > 0 || len(rules["/embed"]) > 0 {
		t.Errorf("the embed page refuses frames: %q", rules["/embed.html"])
	}
}
