package lessons

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// A command's arguments are the words after its name: key=value pairs,
// named by their key, and bare flags (persistent, no-ack). The columns of
// a list_* command and the view of show are words of another kind: the
// views are taught with the console, the columns name themselves.

// commandArgs returns the argument names a command line uses.
func commandArgs(line string) []string {
	f := strings.Fields(line)
	if len(f) > 0 && f[0] == "submit" {
		f = f[1:]
	}
	if len(f) == 0 {
		return nil
	}
	bareOK := !(f[0] == "show" || strings.HasPrefix(f[0], "list_"))
	var out []string
	for _, w := range f[1:] {
		if k, _, ok := strings.Cut(w, "="); ok {
			out = append(out, k)
		} else if bareOK {
			out = append(out, w)
		}
	}
	return out
}

// explainedIn returns the argument names that a stretch of prose explains:
// each word in backticks, taken as a key when it has a `=`.
var backticked = regexp.MustCompile("`([^`]+)`")

func explainedIn(prose string, into map[string]bool) {
	for _, m := range backticked.FindAllStringSubmatch(prose, -1) {
		for _, w := range strings.Fields(m[1]) {
			k, _, _ := strings.Cut(w, "=")
			into[k] = true
		}
	}
}

// pieces splits a lesson body into its prose and its fenced blocks, in
// order; a block is returned with its fences.
func pieces(body string) (prose []string, fenced []bool) {
	var cur []string
	in := false
	flush := func(isBlock bool) {
		prose = append(prose, strings.Join(cur, "\n"))
		fenced = append(fenced, isBlock)
		cur = nil
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if !in {
				flush(false)
				in = true
				cur = append(cur, line)
			} else {
				cur = append(cur, line)
				flush(true)
				in = false
			}
			continue
		}
		cur = append(cur, line)
	}
	flush(in)
	return prose, fenced
}

// TestArgumentsExplainedBeforeUse: every argument a lesson's scenario
// blocks use, solutions included, is named in backticks in the course's
// prose (or a caption or hint) before the block, or in the prose right after
// it, up to the next block: the reader meets no argument that the course
// has not explained by then. Each language is read on its own.
func TestArgumentsExplainedBeforeUse(t *testing.T) {
	courses := map[string][]Lesson{}
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	courses["en"] = all
	for _, lang := range Languages {
		tl, err := In(lang)
		if err != nil {
			t.Fatal(err)
		}
		courses[lang] = tl
	}
	for lang, course := range courses {
		explained := map[string]bool{}
		missing := map[string][]string{}
		for _, l := range course {
			parts, isBlock := pieces(l.Body)
			for i, p := range parts {
				if !isBlock[i] {
					explainedIn(p, explained)
					continue
				}
				// the words the block's own comments and the prose after it explain
				after := map[string]bool{}
				for _, line := range strings.Split(p, "\n") {
					if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") && !strings.HasPrefix(t, SolutionPrefix) && !strings.HasPrefix(t, ExpectPrefix) {
						explainedIn(t, after)
					}
				}
				if i+1 < len(parts) && !isBlock[i+1] {
					explainedIn(parts[i+1], after)
				}
				for _, line := range strings.Split(p, "\n") {
					t := strings.TrimSpace(line)
					if strings.HasPrefix(t, "```") || t == "" || strings.HasPrefix(t, ExpectPrefix) {
						continue
					}
					if strings.HasPrefix(t, SolutionPrefix) {
						t = strings.TrimSpace(strings.TrimPrefix(t, SolutionPrefix))
					} else if strings.HasPrefix(t, "#") || t == "expect" || strings.HasPrefix(t, "expect ") {
						continue
					}
					for _, a := range commandArgs(t) {
						if !explained[a] && !after[a] {
							missing[a] = append(missing[a], l.File)
						}
						explained[a] = true
					}
				}
				for k := range after {
					explained[k] = true
				}
			}
		}
		var keys []string
		for k := range missing {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Errorf("%s: the argument %q is used in %s before any prose names it in backticks (`%s=...` or `%s`)", lang, k, missing[k][0], k, k)
		}
	}
}
