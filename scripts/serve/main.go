// Command serve builds warren's static site and serves it on this machine.
//
//	go run ./scripts/serve [-addr 127.0.0.1:8080] [-out dist] [-wasm=false] [-origin URL] [-build-only]
//
// It writes the site into the -out folder (pages, assets, warren.wasm,
// wasm_exec.js and their .gz and .br copies, compressed fast), saying each
// step as it goes, then serves that folder on -addr, which must be a
// loopback address, until interrupted. -wasm=false skips compiling the
// bridge, for work on the pages alone. -build-only writes the folder, with
// the copies compressed as hard as the tools can, and exits, for deploying
// to a static host; -origin is the address that host serves the site at,
// used in the embedding page's snippets.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"warren/site"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "loopback `host:port` to listen on")
	out := flag.String("out", "dist", "`folder` to build the site into")
	wasm := flag.Bool("wasm", true, "compile ./wasm into warren.wasm (false: pages and assets only)")
	origin := flag.String("origin", "", "`URL` the site will be served at, for the embedding snippets")
	buildOnly := flag.Bool("build-only", false, "write the site and exit without serving it")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: serve [-addr 127.0.0.1:8080] [-out dist] [-wasm=false] [-origin URL] [-build-only]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := checkLoopback(*addr); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(2)
	}
	// A site served here needs no maximum compression; one written for a
	// static host does, and takes half a minute more for it.
	level := site.CompressFast
	if *buildOnly {
		level = site.CompressBest
	}
	if err := site.Build(*out, site.BuildOptions{SkipWasm: !*wasm, Origin: *origin, Compression: level, Log: os.Stderr}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *buildOnly {
		return
	}
	if err := serve(*addr, *out); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// checkLoopback refuses an address other computers could reach.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-addr %q: serve listens on loopback addresses only (127.0.0.1, ::1, localhost)", addr)
}

// serve runs the file server until SIGINT or SIGTERM.
func serve(addr, dir string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: site.Handler(dir), ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("serving %s on http://%s/\n", dir, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
