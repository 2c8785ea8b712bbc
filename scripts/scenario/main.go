// Command scenario runs scenario files (the command language, in the
// cockroachdb/datadriven layout) against the engine or a real RabbitMQ
// broker and reports every case whose output differs from the file.
//
//	go run ./scripts/scenario [-target amqp://guest:guest@127.0.0.1:5672/] [-rewrite] FILE|DIR...
//
// Without -target the engine runs each file on a fresh simulation. With
// -target the files run on the broker at that URL (rabbitmqctl on this
// machine serves the operator commands; scripts/broker.sh starts one).
// -rewrite replaces each case's expected output with what the target
// printed. A directory stands for the .txt files under it.
//
// The exit status is 0 when every case of every file matched (or the files
// were rewritten), 1 otherwise; the last line is `N passed, M failed`.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"warren/engine"
	"warren/engine/scenario"
	"warren/engine/script"
	"warren/scripts/scenario/internal/broker"
)

func main() {
	target := flag.String("target", "", "run on the RabbitMQ broker at this AMQP URL instead of the engine")
	node := flag.String("node", broker.DefaultConfig.Node, "the node rabbitmqctl talks to (with -target)")
	quiet := flag.Duration("quiet", broker.DefaultConfig.Quiet, "with -target: a command is over once nothing arrived for this long")
	rewrite := flag.Bool("rewrite", false, "rewrite the files with the actual output")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: scenario [-target URL] [-node NODE] [-quiet DURATION] [-rewrite] FILE|DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	open := openEngine
	if *target != "" {
		cfg := broker.DefaultConfig
		cfg.URL, cfg.Node, cfg.Quiet = *target, *node, *quiet
		open = broker.Opener(cfg)
	}
	files, err := expand(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "scenario:", err)
		os.Exit(2)
	}
	if !run(os.Stdout, files, open, *rewrite) {
		os.Exit(1)
	}
}

// expand replaces each directory argument by the .txt files under it.
func expand(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") {
				found = append(found, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// openEngine is the engine's Opener: a fresh simulation for each file,
// with default options.
func openEngine(string, []script.Command) (scenario.Target, error) {
	s := engine.New(engine.Options{})
	return scenario.LineRunner(func(line string, n int) []string { return s.Run(line, engine.RunOptions{Line: n}).Lines }), nil
}

// run runs every file and prints each mismatching case with a diff, then
// the `N passed, M failed` line. It reports whether all went well.
func run(w io.Writer, files []string, open scenario.Opener, rewrite bool) bool {
	passed, failed, ok := 0, 0, true
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(w, "error:", err)
			ok = false
			continue
		}
		f, err := scenario.Parse(name, string(src))
		if err != nil {
			fmt.Fprintln(w, "error:", err)
			ok = false
			continue
		}
		results, err := scenario.RunFile(f, open)
		if err != nil {
			fmt.Fprintln(w, "error:", err)
			ok = false
			if results == nil {
				continue
			}
		}
		if rewrite {
			out, err := f.Rewrite(scenario.Outputs(results))
			if err == nil {
				err = os.WriteFile(name, out, 0o644)
			}
			if err != nil {
				fmt.Fprintln(w, "error:", err)
				ok = false
			}
		}
		for _, r := range results {
			if r.Pass || rewrite {
				passed++
				continue
			}
			failed++
			report(w, name, r)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return ok && failed == 0
}

// report prints one mismatching case: where it is, then the diff.
func report(w io.Writer, file string, r scenario.Result) {
	first := ""
	if len(r.Case.Steps) > 0 {
		first = strings.TrimSpace(r.Case.Steps[0].Command)
	}
	fmt.Fprintf(w, "%s:%d: %s\n", file, r.Case.Line, first)
	if r.Case.Expected == nil {
		fmt.Fprintln(w, "  no expected output (run with -rewrite)")
	}
	for _, l := range strings.SplitAfter(r.Diff(), "\n") {
		if l != "" {
			fmt.Fprint(w, "  "+l)
		}
	}
}
