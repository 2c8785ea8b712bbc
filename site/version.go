package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// VersionPrefix is the folder of the built site under which each build's
// widget files lie in a folder named for their content (v/<hash>/): they
// never change at that address, so Handler and the build's _headers send
// them with ImmutableCache, and widget.js, the one address pages name,
// points at them.
const VersionPrefix = "v/"

// ImmutableCache is the Cache-Control of a versioned file: a browser keeps
// it a year and never asks again.
const ImmutableCache = "public, max-age=31536000, immutable"

// EntryCache is the Cache-Control of widget.js and widget.css at their
// stable addresses, which pages name: a browser uses its copy five minutes, then asks again, so that a new build
// reaches readers within five minutes while a page seen twice in a row
// asks for nothing.
const EntryCache = "public, max-age=300"

// versionMark is the line of widget.js that the build sets to the
// versioned folder.
const versionMark = `const VERSION = "";`

// cacheControl is the Cache-Control of a file of the built site (its
// slash-separated name from the root): ImmutableCache under VersionPrefix,
// EntryCache for widget.js and widget.css, and no-cache for everything else, so that a
// rebuilt site shows at once (a browser revalidates by Last-Modified).
func cacheControl(name string) string {
	switch {
	case strings.HasPrefix(name, VersionPrefix):
		return ImmutableCache
	case name == "widget.js" || name == "widget.css":
		return EntryCache
	}
	return "no-cache"
}

// writeVersioned writes the widget's files into out/v/<hash>/, hash being
// the first 12 hex digits of the SHA-256 of their names and contents: the
// modules joined into widget/bundle.js and the worker's into
// widget/engine-worker.js (see bundle), the style sheets (widget.css,
// widget/*.css), and, when wasm is true, warren.wasm, inspect.wasm and wasm_exec.js
// from out. It
// sets widget.js in out to load them, and returns the folder's name
// (v/<hash>/).
func writeVersioned(out string, wasm bool) (string, error) {
	files := map[string][]byte{}
	for _, m := range []string{"element.js", "engine-worker.js"} {
		b, err := bundle(static, "static/widget/"+m)
		if err != nil {
			return "", fmt.Errorf("bundling the widget: %w", err)
		}
		files["widget/"+strings.Replace(m, "element.js", "bundle.js", 1)] = b
	}
	sheets, err := fs.Glob(static, "static/widget/*.css")
	if err != nil {
		return "", err
	}
	for _, p := range append(sheets, "static/widget.css") {
		b, err := fs.ReadFile(static, p)
		if err != nil {
			return "", err
		}
		files[strings.TrimPrefix(p, "static/")] = b
	}
	for _, name := range []string{"warren.wasm", "inspect.wasm", "wasm_exec.js"} {
		if !wasm {
			break
		}
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return "", err
		}
		files[name] = b
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	version := VersionPrefix + hex.EncodeToString(h.Sum(nil))[:12] + "/"
	for _, n := range names {
		if err := writeFile(filepath.Join(out, filepath.FromSlash(path.Join(version, n))), files[n]); err != nil {
			return "", err
		}
	}
	loader := filepath.Join(out, "widget.js")
	b, err := os.ReadFile(loader)
	if err != nil {
		return "", err
	}
	if bytes.Count(b, []byte(versionMark)) != 1 {
		return "", fmt.Errorf("widget.js has no line %s for the build to set", versionMark)
	}
	b = bytes.Replace(b, []byte(versionMark), []byte(`const VERSION = "`+version+`";`), 1)
	if err := writeFile(loader, b); err != nil {
		return "", err
	}
	return version, nil
}
