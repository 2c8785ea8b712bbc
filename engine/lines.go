package engine

import "warren/engine/trace"

func traceLines(ev []trace.Event) []string { return trace.Lines(ev) }
