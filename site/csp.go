package site

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
