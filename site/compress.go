package site

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// compressible lists the extensions that get a precompressed .gz copy.
var compressible = map[string]bool{
	".html": true, ".css": true, ".js": true, ".wasm": true, ".svg": true, ".json": true,
}

// compressAll writes NAME.gz next to every compressible file under dir and
// returns how many it wrote. The gzip header has no name and no time, so
// the same input always gives the same bytes.
func compressAll(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[strings.ToLower(filepath.Ext(p))] {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		gz, err := gzipFile(p, b)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(p+".gz", gz, 0o644)
	})
	return n, err
}

// gzipFile compresses one file. warren.wasm, the one large download, goes
// through zopfli when it is installed: the same gzip format, about 5%
// smaller than the best compress/gzip does (apt-get install zopfli).
func gzipFile(p string, b []byte) ([]byte, error) {
	if strings.HasSuffix(p, ".wasm") {
		if gz, err := Zopfli(p); err == nil {
			return gz, nil
		}
	}
	return gzipBytes(b)
}

// Zopfli gzips a file with the zopfli tool; it fails when zopfli is not
// installed.
func Zopfli(p string) ([]byte, error) {
	bin, err := exec.LookPath("zopfli")
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(bin, "--i1", "-c", p).Output()
	if err != nil {
		return nil, fmt.Errorf("zopfli %s: %w", p, err)
	}
	if len(out) < 18 || out[0] != 0x1f || out[1] != 0x8b {
		return nil, fmt.Errorf("zopfli %s: output is not gzip", p)
	}
	return out, nil
}

func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
