package browser_test

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPackageSelfHosts packs the built site with npm pack, as a host that
// self-hosts the widget would, and checks that the tarball holds the
// widget's files and nothing of the site's pages, and that a page served
// with only those files, from its own origin, has two live widgets.
func TestPackageSelfHosts(t *testing.T) {
	b := newBrowser(t)
	siteURL(t)
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm is missing (apt-get install npm)")
	}
	out := t.TempDir()
	cmd := exec.Command("npm", "pack", "--pack-destination", out, "--loglevel=error")
	cmd.Dir = testSite.dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, msg)
	}
	tarballs, _ := filepath.Glob(filepath.Join(out, "*.tgz"))
	if len(tarballs) != 1 {
		t.Fatalf("npm pack wrote %q", tarballs)
	}
	root := filepath.Join(out, "x")
	names := untar(t, tarballs[0], root)
	for _, want := range []string{"package/widget.js", "package/widget.css", "package/v/*/widget/bundle.js", "package/v/*/widget/engine-worker.js", "package/v/*/widget.css", "package/v/*/widget/files.css", "package/v/*/warren.wasm", "package/v/*/inspect.wasm", "package/v/*/wasm_exec.js", "package/package.json"} {
		if !slices.ContainsFunc(names, func(n string) bool { ok, _ := path.Match(want, n); return ok }) {
			t.Errorf("the tarball lacks %s: %q", want, names)
		}
	}
	for _, n := range names {
		if strings.HasSuffix(n, ".html") || strings.HasSuffix(n, ".gz") || strings.HasSuffix(n, ".br") || strings.HasPrefix(n, "package/lessons/") {
			t.Errorf("the tarball holds %s, which is no widget's file", n)
		}
	}
	t.Logf("the tarball holds %d files", len(names))

	dir := filepath.Join(root, "package")
	writeFile(t, filepath.Join(dir, "docs.html"), `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>self-hosted</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="a">queue.declare queue=q
basic.publish key=q count=3</warren-scenario>
<script type="text/warren" id="b">queue.declare queue=jobs
basic.publish key=jobs count=2</script></body></html>`)
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; worker-src 'self'; connect-src 'self'")
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	before := fetches("/warren.wasm")
	b.open(srv.URL + "/docs.html")
	b.waitFor(rawFormsDone)
	b.waitReady()
	if a, w := b.shown("#a"), b.shown("#b"); a.Ready["q"] != 3 || w.Ready["jobs"] != 2 {
		t.Errorf("the self-hosted page's widgets show %+v and %+v", a, w)
	}
	if n := fetches("/warren.wasm") - before; n != 0 {
		t.Errorf("the self-hosted page fetched warren.wasm %d times from warren's site", n)
	}
	b.noErrors()
}

// untar extracts a .tgz into dir and returns the names it held.
func untar(t *testing.T, path, dir string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(z)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, "..") {
			continue
		}
		names = append(names, h.Name)
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(h.Name)), string(body))
	}
}
