package scenario

import (
	"fmt"
	"strings"
)

// edit is one line of an edit script.
type edit struct {
	kind byte // ' ' both, '-' only in a, '+' only in b
	text string
	ai   int // index in a of this line, or of the next a line for '+'
	bi   int // index in b of this line, or of the next b line for '-'
}

// Unified returns a unified diff turning a into b, labelled `--- aName` and
// `+++ bName`, with context lines of context around each change. It
// returns "" when a and b are equal.
func Unified(aName, bName string, a, b []string, context int) string {
	ops := edits(a, b)
	changed := false
	for _, o := range ops {
		if o.kind != ' ' {
			changed = true
			break
		}
	}
	if !changed {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range hunks(ops, context) {
		writeHunk(&out, ops[h.start:h.end])
	}
	return out.String()
}

// edits returns a shortest edit script from a to b, computed from the
// longest common subsequence; deletions come before insertions within a
// change.
func edits(a, b []string) []edit {
	n, m := len(a), len(b)
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []edit
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, edit{' ', a[i], i, j})
			i++
			j++
		case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, edit{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, edit{'+', b[j], i, j})
			j++
		}
	}
	return ops
}

type hunk struct{ start, end int }

// hunks groups the changed ops with up to context unchanged ops on each
// side; changes separated by at most 2*context unchanged ops share a hunk.
func hunks(ops []edit, context int) []hunk {
	var hs []hunk
	last := -1 // index of the last change of the open hunk
	for k, o := range ops {
		if o.kind == ' ' {
			continue
		}
		if last >= 0 && k-last-1 <= 2*context {
			last = k
			hs[len(hs)-1].end = min(k+1+context, len(ops))
			continue
		}
		hs = append(hs, hunk{max(k-context, 0), min(k+1+context, len(ops))})
		last = k
	}
	return hs
}

func writeHunk(out *strings.Builder, ops []edit) {
	aStart, bStart := ops[0].ai, ops[0].bi
	aLen, bLen := 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			aLen++
		}
		if o.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeText(aStart, aLen), rangeText(bStart, bLen))
	for _, o := range ops {
		out.WriteByte(o.kind)
		out.WriteString(o.text)
		out.WriteByte('\n')
	}
}

// rangeText prints a hunk range the way GNU diff does: 1-based start, the
// length omitted when it is 1, and an empty range named by the line before.
func rangeText(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
