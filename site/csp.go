package site

import "path"

// ContentSecurityPolicy is the policy the site's pages work under: Handler
// sends it with every response, and every page carries it in a <meta>
// tag too, so that a static host that sends no headers keeps it (a meta
// policy covers the page; a worker takes the policy of its script's
// response, or of its page when it is made from a blob). Scripts come
// only from the site's own files, never inline, and may compile
// WebAssembly ('wasm-unsafe-eval', for warren.wasm); the widget sets
// style attributes (the width of a gauge), and nothing else inline;
// a worker may start from the site or from a blob URL (a page on another
// origin starts the widget's worker that way); fetches go to the site
// alone.
const ContentSecurityPolicy = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; style-src-attr 'unsafe-inline'; " +
	"worker-src 'self' blob:; " +
	"connect-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'"

// NoFraming is a second policy sent with every page that is not meant to
// be shown in another site's frame (all but the embed page, see framed):
// no page of any origin, this one's included, may frame it, so that a
// page cannot be laid under another's clicks. A <meta> policy cannot say
// it (browsers ignore frame-ancestors there), so only headers do: serve's
// Handler and the build's _headers.
const NoFraming = "frame-ancestors 'none'"

// framed says whether the site's file name (slash-separated, from the
// site's root) is a page meant to be framed: the embed page, in each
// language, which the embedding page tells other sites to put in an
// iframe.
func framed(name string) bool { return path.Base(name) == "embed.html" }
