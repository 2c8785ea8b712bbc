// Package browser holds warren's tests in Chromium: the real site, built
// once with warren.wasm and served on 127.0.0.1, driven headless through
// chromedp, each test checking what the widget shows against the engine
// run natively. They need Debian's chromium and the Noto CJK fonts, which
// ./scripts/test installs, and are left out of the quick tier: go test
// -short ./... runs none of them.
package browser
