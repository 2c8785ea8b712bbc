package site

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// compressible lists the extensions that get precompressed copies.
var compressible = map[string]bool{
	".html": true, ".css": true, ".js": true, ".wasm": true, ".svg": true, ".json": true,
}

// encodings are the precompressed copies the site writes beside a file,
// and Handler serves, best first: brotli, then gzip.
var encodings = []struct{ name, ext string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// compressed counts the precompressed copies compressAll wrote.
type compressed struct {
	Gzip, Brotli int
	// NoBrotli is set when the brotli tool is missing: no .br copies.
	NoBrotli bool
}

// Compression is how hard Build compresses the copies it writes beside
// each file.
type Compression int

const (
	// CompressFast is for a site served on this machine: gzip at its
	// default level and brotli at quality 5, a second or two for
	// warren.wasm, about a tenth larger than the best.
	CompressFast Compression = iota
	// CompressBest is for a deployment: gzip at its best (zopfli for
	// warren.wasm when it is installed) and brotli at quality 11, its
	// best, which take about half a minute for warren.wasm.
	CompressBest
)

// String names the level as Build's log says it.
func (c Compression) String() string {
	if c == CompressBest {
		return "best: zopfli and brotli -q 11"
	}
	return "fast: gzip -6 and brotli -q 5"
}

// compressAll writes NAME.gz next to every compressible file under dir
// and, when Debian's brotli tool is installed, NAME.br, as hard as level
// says. The gzip header has no name and no time, and brotli is
// deterministic, so the same input always gives the same bytes. Without
// brotli, .br copies left by an earlier build are removed, so that no
// stale copy is served. warren.wasm's two compressions, the slow ones,
// run at once.
func compressAll(dir string, level Compression) (compressed, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[strings.ToLower(filepath.Ext(p))] {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return compressed{}, err
	}
	return compressFiles(paths, level)
}

// Recompress writes again the .gz and .br copies of the given files of a
// built site, as hard as level says, as Build would have written them at
// that level: a test of what a deployment ships (warren.wasm's size
// budget) builds the site fast and compresses only the file it measures
// at the best level.
func Recompress(paths []string, level Compression) error {
	_, err := compressFiles(paths, level)
	return err
}

// compressFiles writes the .gz and .br copies of the files at paths, the
// wasm modules among them after the rest.
func compressFiles(paths []string, level Compression) (compressed, error) {
	var files, wasm []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".wasm") {
			wasm = append(wasm, p)
		} else {
			files = append(files, p)
		}
	}
	all := append(files, wasm...)
	var c compressed
	var wg sync.WaitGroup
	var brErrs [3]error
	if brotli, err := exec.LookPath("brotli"); err != nil {
		c.NoBrotli = true
		for _, p := range all {
			if err := os.Remove(p + ".br"); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return c, err
			}
		}
	} else {
		// One brotli process for the small files, and one for the wasm
		// while zopfli works on it below; at the best level a second one
		// for the wasm with a smaller window, whose stream is at times
		// the smaller (a few hundred bytes either way, build by build):
		// the smaller is kept.
		for i, group := range [][]string{files, wasm} {
			if len(group) > 0 {
				wg.Go(func() { brErrs[i] = brotliFiles(brotli, group, level) })
			}
		}
		if level == CompressBest && len(wasm) > 0 {
			wg.Go(func() { brErrs[2] = brotliFiles(brotli, wasm, level, "-w", "22", "-S", smallWindow) })
		}
	}
	err := gzipAll(all, level, &c)
	wg.Wait()
	if err = errors.Join(err, brErrs[0], brErrs[1], brErrs[2]); err != nil {
		return c, err
	}
	if level == CompressBest && !c.NoBrotli {
		for _, p := range wasm {
			if err := keepSmaller(p+".br", p+smallWindow); err != nil {
				return c, err
			}
		}
	}
	if !c.NoBrotli {
		c.Brotli = len(all)
	}
	return c, nil
}

// gzipAll writes NAME.gz beside each file.
func gzipAll(files []string, level Compression, c *compressed) error {
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		gz, err := gzipFile(p, b, level)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p+".gz", gz, 0o644); err != nil {
			return err
		}
		c.Gzip++
	}
	return nil
}

// smallWindow is the suffix of the wasm's brotli copy with a 4 MB window.
const smallWindow = ".w22.br"

// keepSmaller leaves at path br the smaller of the files at br and other,
// and removes other.
func keepSmaller(br, other string) error {
	a, errA := os.Stat(br)
	b, errB := os.Stat(other)
	if err := errors.Join(errA, errB); err != nil {
		return err
	}
	if b.Size() < a.Size() {
		return os.Rename(other, br)
	}
	return os.Remove(other)
}

// brotliFiles writes NAME.br beside each file with the brotli tool, at
// its best quality (-q 11) or a fast one (-q 5), overwriting what is
// there; more are brotli's options besides (another window, another
// suffix).
func brotliFiles(bin string, files []string, level Compression, more ...string) error {
	q := "5"
	if level == CompressBest {
		q = "11"
	}
	args := append(append([]string{"-q", q, "-f", "-k"}, more...), "--")
	args = append(args, files...)
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("brotli %s: %v: %s", filepath.Base(files[0]), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// gzipFile compresses one file. At the best level warren.wasm, the one
// large download, goes through zopfli when it is installed: the same gzip
// format, about 5% smaller than the best compress/gzip does (apt-get
// install zopfli). Three of zopfli's iterations, not one: 4 kB smaller,
// for a second more of its 17.
func gzipFile(p string, b []byte, level Compression) ([]byte, error) {
	if level != CompressBest {
		return gzipBytes(b, gzip.DefaultCompression)
	}
	if strings.HasSuffix(p, ".wasm") {
		if gz, err := Zopfli(p); err == nil {
			return gz, nil
		}
	}
	return gzipBytes(b, gzip.BestCompression)
}

// Zopfli gzips a file with the zopfli tool; it fails when zopfli is not
// installed.
func Zopfli(p string) ([]byte, error) {
	bin, err := exec.LookPath("zopfli")
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(bin, "--i3", "-c", p).Output()
	if err != nil {
		return nil, fmt.Errorf("zopfli %s: %w", p, err)
	}
	if len(out) < 18 || out[0] != 0x1f || out[1] != 0x8b {
		return nil, fmt.Errorf("zopfli %s: output is not gzip", p)
	}
	return out, nil
}

func gzipBytes(b []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
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
