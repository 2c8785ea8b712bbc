package site

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
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
		gz, err := gzipBytes(b)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(p+".gz", gz, 0o644)
	})
	return n, err
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
