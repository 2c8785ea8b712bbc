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
	".br":    "application/x-brotli",
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
// needs (application/wasm for .wasm), and NAME.br or NAME.gz with its
// Content-Encoding when the client accepts it and the copy exists (see
// chooseEncoding; Vary: Accept-Encoding either way). Each response says
// how long it may be cached (cacheControl: a year for the versioned widget
// files, five minutes for widget.js, and no-cache, so that a rebuilt site
// shows at once, for the rest, which keep their Last-Modified so that a
// browser revalidates cheaply), carries the
// site's ContentSecurityPolicy, and lets pages of any origin use it
// (Access-Control-Allow-Origin: *, Cross-Origin-Resource-Policy:
// cross-origin), so that the widget can be embedded anywhere. Nothing
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
		if lang, _ := stripLang("/" + strings.TrimPrefix(r.URL.Path, "/")); lang != langEN {
			name = lang + "/404.html" // the reader's language
		}
		if info, err = root.Stat(name); err != nil {
			http.NotFound(w, r)
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("Cache-Control", cacheControl(name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	if !framed(name) {
		h.Add("Content-Security-Policy", NoFraming)
		h.Set("X-Frame-Options", "DENY")
	}
	// Any page may load the widget's modules, style sheets and warren.wasm
	// (module scripts and fetch are CORS requests), also one that
	// isolates itself with Cross-Origin-Embedder-Policy.
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	// and see in its resource timing what they cost (transferSize)
	h.Set("Timing-Allow-Origin", "*")
	serve := name
	if compressible[strings.ToLower(path.Ext(name))] {
		h.Add("Vary", "Accept-Encoding")
		copies := map[string]fs.FileInfo{}
		enc, ext := chooseEncoding(r.Header.Get("Accept-Encoding"), func(ext string) bool {
			fi, err := root.Stat(name + ext)
			if err != nil || fi.IsDir() {
				return false
			}
			copies[ext] = fi
			return true
		})
		if enc != "" {
			serve, info = name+ext, copies[ext]
			h.Set("Content-Encoding", enc)
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

// chooseEncoding picks the precompressed copy to send for an
// Accept-Encoding header: of the encodings the site writes (brotli, gzip)
// that have a copy (have(".br")), the one with the highest quality above
// zero, brotli on a tie; "" for the file as it is. A coding not named
// takes the quality of *, and x-gzip counts as gzip.
func chooseEncoding(header string, have func(ext string) bool) (name, ext string) {
	q := acceptQualities(header)
	best := 0.0
	for _, e := range encodings {
		v, ok := q[e.name]
		if !ok {
			v, ok = q["*"]
		}
		if ok && v > best && have(e.ext) {
			name, ext, best = e.name, e.ext, v
		}
	}
	return name, ext
}

// acceptQualities reads an Accept-Encoding header into the quality of each
// coding named (lower case; 1 when no q is given).
func acceptQualities(header string) map[string]float64 {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		if coding == "x-gzip" {
			coding = "gzip"
		}
		v := 1.0
		for _, p := range strings.Split(params, ";") {
			k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
					v = f
				}
			}
		}
		q[coding] = max(q[coding], v)
	}
	return q
}
