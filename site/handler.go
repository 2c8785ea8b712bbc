package site

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
)

// contentTypes maps the site's file extensions to their MIME types.
var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".wasm":  "application/wasm",
	".svg":   "image/svg+xml",
	".json":  "application/json",
	".txt":   "text/plain; charset=utf-8",
	".md":    "text/markdown; charset=utf-8",
	".png":   "image/png",
	".ico":   "image/x-icon",
	".woff2": "font/woff2",
	".gz":    "application/gzip",
}

// contentType returns the MIME type for a file name.
func contentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// Handler serves a folder written by Build: GET and HEAD only, index.html
// for a directory, 404.html for a missing file, the MIME types the site
// needs (application/wasm for .wasm), and NAME.gz with Content-Encoding:
// gzip when the client accepts gzip and the copy exists. Every response
// says Cache-Control: no-cache, so a rebuilt site shows at once; the files
// keep their Last-Modified, so a browser revalidates cheaply. Nothing
// outside dir can be reached, symbolic links included.
func Handler(dir string) http.Handler { return &fileServer{dir: dir} }

type fileServer struct{ dir string }

func (s *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		http.Error(w, "site folder missing: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer root.Close()
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "."
	}
	info, err := root.Stat(name)
	if err == nil && info.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			target := r.URL.Path + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		info, err = root.Stat(name)
	}
	status := http.StatusOK
	if err != nil || info.IsDir() {
		if !errors.Is(err, fs.ErrNotExist) && err != nil {
			http.Error(w, "cannot read "+name, http.StatusInternalServerError)
			return
		}
		name, status = "404.html", http.StatusNotFound
		if info, err = root.Stat(name); err != nil {
			http.NotFound(w, r)
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	serve := name
	if compressible[strings.ToLower(path.Ext(name))] {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			if gz, err := root.Stat(name + ".gz"); err == nil && !gz.IsDir() {
				serve, info = name+".gz", gz
				h.Set("Content-Encoding", "gzip")
			}
		}
	}
	f, err := root.Open(serve)
	if err != nil {
		http.Error(w, "cannot open "+name, http.StatusInternalServerError)
		return
	}
	defer f.Close()
	if status != http.StatusOK {
		h.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_, _ = io.Copy(w, f)
		}
		return
	}
	if h.Get("Content-Encoding") != "" && r.Header.Get("Range") == "" {
		// ServeContent leaves the length of an encoded body unset.
		h.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
	}
	http.ServeContent(w, r, name, info.ModTime(), f)
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: gzip
// (or x-gzip) with a quality above zero, or, when gzip is not named, * with
// a quality above zero.
func acceptsGzip(header string) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			gzipQ = max(gzipQ, q)
		case "*":
			starQ = max(starQ, q)
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}
