//go:build !js

package main

import (
	"fmt"
	"io"
	"os"

	"warren/engine/store/inspect"
	"warren/engine/vfs"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without its process: arguments in, exit code out.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: inspect DIR   (a RabbitMQ vhost folder, holding queues/ and msg_store_persistent/)")
		return 2
	}
	st, err := os.Stat(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 1
	}
	if !st.IsDir() {
		fmt.Fprintf(stderr, "inspect: %s is not a directory\n", args[0])
		return 1
	}
	report, err := inspect.Inspect(vfs.NewOSFS(args[0]), ".")
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %s: %v\n", args[0], err)
		return 1
	}
	if err := report.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 1
	}
	if len(report.Problems) > 0 {
		for _, p := range report.Problems {
			fmt.Fprintf(stderr, "inspect: %v\n", p.Err)
		}
		return 1
	}
	return 0
}
