package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeSite writes a small site folder: a page, a fake warren.wasm and the
// .gz copies Build would write.
func fakeSite(t *testing.T) (dir string, wasm []byte) {
	t.Helper()
	dir = t.TempDir()
	wasm = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("warren "), 500)...)
	files := map[string]string{
		"warren.wasm":          string(wasm),
		"index.html":           "<!doctype html><title>home</title>",
		"lessons/a/index.html": "<!doctype html><title>a</title>",
		"404.html":             "<!doctype html><title>not found</title>",
		"widget.js":            "console.log('widget')",
		"widget/element.js":    "export function define() {}",
		"plain.txt":            "plain",
	}
	for name, body := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := compressAll(dir, CompressFast); err != nil {
		t.Fatal(err)
	}
	// A stand-in for the brotli copy, whether or not the brotli tool is
	// here: the handler only picks it and labels it.
	if err := os.WriteFile(filepath.Join(dir, "warren.wasm.br"), []byte(fakeBrotli), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file outside the site, which no request may reach.
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, wasm
}

// fakeBrotli is what fakeSite puts in warren.wasm.br.
const fakeBrotli = "brotli copy of warren.wasm"

func get(t *testing.T, h http.Handler, method, target string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestHandlerServesWasmCompressed(t *testing.T) {
	dir, wasm := fakeSite(t)
	h := Handler(dir)

	res := get(t, h, "GET", "/warren.wasm", "Accept-Encoding", "gzip, deflate")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	for k, want := range map[string]string{
		"Content-Type":     "application/wasm",
		"Content-Encoding": "gzip",
		"Vary":             "Accept-Encoding",
	} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, wasm) {
		t.Errorf("the gzipped body does not decompress to warren.wasm")
	}
	if n := res.Header.Get("Content-Length"); n == "" {
		t.Errorf("no Content-Length on the gzipped body")
	}

	// What Chromium and Firefox send: brotli wins.
	res = get(t, h, "GET", "/warren.wasm", "Accept-Encoding", "gzip, deflate, br, zstd")
	body, _ = io.ReadAll(res.Body)
	if res.Header.Get("Content-Encoding") != "br" || string(body) != fakeBrotli {
		t.Errorf("with br accepted: encoding %q, body %.40q, want the .br copy", res.Header.Get("Content-Encoding"), body)
	}
	if res.Header.Get("Content-Type") != "application/wasm" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("the brotli copy: Content-Type %q, Vary %q", res.Header.Get("Content-Type"), res.Header.Get("Vary"))
	}
	if res.Header.Get("Content-Length") != strconv.Itoa(len(fakeBrotli)) {
		t.Errorf("Content-Length %q, want %d", res.Header.Get("Content-Length"), len(fakeBrotli))
	}

	res = get(t, h, "GET", "/warren.wasm")
	body, _ = io.ReadAll(res.Body)
	if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm) {
		t.Errorf("without Accept-Encoding: encoding %q, %d bytes", res.Header.Get("Content-Encoding"), len(body))
	}
	if res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("the plain response must say Vary: Accept-Encoding too")
	}
	res = get(t, h, "GET", "/warren.wasm", "Accept-Encoding", "br;q=0, gzip;q=0, *")
	if res.Header.Get("Content-Encoding") != "" {
		t.Errorf("br;q=0, gzip;q=0 refuses both, got %q", res.Header.Get("Content-Encoding"))
	}
}

// TestHandlerLetsOtherOriginsIn checks the headers a page on another
// origin needs to run the widget, and the policy every response carries.
func TestHandlerLetsOtherOriginsIn(t *testing.T) {
	dir, _ := fakeSite(t)
	h := Handler(dir)
	for _, target := range []string{"/widget.js", "/widget/element.js", "/warren.wasm", "/", "/nothing-here.html"} {
		res := get(t, h, "GET", target, "Origin", "http://docs.example", "Accept-Encoding", "br, gzip")
		if got := res.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want *", target, got)
		}
		if got := res.Header.Get("Cross-Origin-Resource-Policy"); got != "cross-origin" {
			t.Errorf("%s: Cross-Origin-Resource-Policy %q, want cross-origin", target, got)
		}
		if got := res.Header.Get("Content-Security-Policy"); got != ContentSecurityPolicy {
			t.Errorf("%s: Content-Security-Policy %q", target, got)
		}
	}
}

func TestHandlerTypesAndCaching(t *testing.T) {
	dir, _ := fakeSite(t)
	h := Handler(dir)
	for target, want := range map[string]string{
		"/":                  "text/html; charset=utf-8",
		"/lessons/a/":        "text/html; charset=utf-8",
		"/widget.js":         "text/javascript; charset=utf-8",
		"/widget/element.js": "text/javascript; charset=utf-8",
		"/warren.wasm":       "application/wasm",
		"/plain.txt":         "text/plain; charset=utf-8",
	} {
		res := get(t, h, "GET", target, "Accept-Encoding", "gzip")
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != want {
			t.Errorf("%s: %d %q, want 200 %q", target, res.StatusCode, res.Header.Get("Content-Type"), want)
		}
		want := "no-cache"
		if target == "/widget.js" {
			want = EntryCache
		}
		if res.Header.Get("Cache-Control") != want {
			t.Errorf("%s: Cache-Control %q, want %q", target, res.Header.Get("Cache-Control"), want)
		}
	}
	if res := get(t, h, "GET", "/widget/element.js", "Accept-Encoding", "gzip"); res.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("a module in a folder was not served from its .gz copy")
	}
	if res := get(t, h, "GET", "/plain.txt", "Accept-Encoding", "gzip"); res.Header.Get("Content-Encoding") != "" {
		t.Errorf(".txt has no .gz copy, but was served encoded")
	}
}

func TestHandlerPaths(t *testing.T) {
	dir, _ := fakeSite(t)
	h := Handler(dir)

	res := get(t, h, "GET", "/lessons/a?x=1")
	if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/lessons/a/?x=1" {
		t.Errorf("a folder without its slash: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = get(t, h, "GET", "/nothing-here.html")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 404 || !strings.Contains(string(body), "not found") {
		t.Errorf("missing page: %d %q", res.StatusCode, body)
	}
	for _, target := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/lessons/../../secret.txt"} {
		res := get(t, h, "GET", target)
		body, _ := io.ReadAll(res.Body)
		if strings.Contains(string(body), "secret") {
			t.Errorf("%s reached a file outside the site", target)
		}
	}
	if res := get(t, h, "POST", "/"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", res.StatusCode)
	}
	res = get(t, h, "HEAD", "/warren.wasm", "Accept-Encoding", "gzip")
	body, _ = io.ReadAll(res.Body)
	if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("HEAD: %d, %d bytes, %q", res.StatusCode, len(body), res.Header.Get("Content-Type"))
	}
}

func TestChooseEncoding(t *testing.T) {
	both := func(string) bool { return true }
	gzOnly := func(ext string) bool { return ext == ".gz" }
	for _, c := range []struct {
		header string
		have   func(string) bool
		want   string
	}{
		{"", both, ""},
		{"gzip", both, "gzip"},
		{"GZIP", both, "gzip"},
		{"x-gzip", both, "gzip"},
		{"deflate, gzip", both, "gzip"},
		{"gzip, deflate, br, zstd", both, "br"},
		{"br", both, "br"},
		{"br", gzOnly, ""},
		{"gzip, br", gzOnly, "gzip"},
		{"br;q=1.0, gzip;q=0.5", both, "br"},
		{"br;q=0.5, gzip", both, "gzip"},
		{"br;q=0, gzip", both, "gzip"},
		{"gzip;q=0", both, ""},
		{"gzip; q=0.0", both, ""},
		{"*", both, "br"},
		{"*", gzOnly, "gzip"},
		{"*;q=0", both, ""},
		{"gzip;q=0, *", both, "br"},
		{"gzip;q=0, *", gzOnly, ""},
		{"identity", both, ""},
	} {
		if got, _ := chooseEncoding(c.header, c.have); got != c.want {
			t.Errorf("chooseEncoding(%q) = %q, want %q", c.header, got, c.want)
		}
	}
}

func TestCompressIsDeterministic(t *testing.T) {
	a, err := gzipBytes([]byte("same input"), gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := gzipBytes([]byte("same input"), gzip.BestCompression)
	if !bytes.Equal(a, b) {
		t.Errorf("two compressions of the same bytes differ")
	}
}
