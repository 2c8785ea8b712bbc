package lessons

import (
	"fmt"
	"strconv"
	"strings"
)

// splitFrontMatter cuts a `---` delimited block off the top of text and
// returns its lines' `key: value` pairs, the rest of the text and the line
// on which that rest starts.
func splitFrontMatter(text string) (fm []field, body string, bodyLine int, err error) {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], "\n") != "---" {
		return nil, "", 0, fmt.Errorf("line 1: a lesson starts with a front matter block opened by ---")
	}
	for i := 1; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\n")
		if line == "---" {
			return fm, strings.Join(lines[i+1:], ""), i + 2, nil
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(key) != key || key == "" {
			return nil, "", 0, fmt.Errorf("line %d: front matter lines are `key: value`, got %q", i+1, line)
		}
		v, err := unquote(strings.TrimSpace(val))
		if err != nil {
			return nil, "", 0, fmt.Errorf("line %d: %s: %w", i+1, key, err)
		}
		fm = append(fm, field{key: key, val: v, line: i + 1})
	}
	return nil, "", 0, fmt.Errorf("the front matter block is not closed by ---")
}

type field struct {
	key, val string
	line     int
}

// unquote reads a YAML scalar as this front matter allows it: plain, or
// in double quotes (with \" and \\ escapes), or in single quotes (where
// a quote inside is written twice).
func unquote(v string) (string, error) {
	switch {
	case strings.HasPrefix(v, `"`):
		if len(v) < 2 || !strings.HasSuffix(v, `"`) {
			return "", fmt.Errorf("unterminated double-quoted value")
		}
		var b strings.Builder
		in := v[1 : len(v)-1]
		for i := 0; i < len(in); i++ {
			c := in[i]
			if c == '\\' && i+1 < len(in) && (in[i+1] == '"' || in[i+1] == '\\') {
				i++
				c = in[i]
			} else if c == '"' {
				return "", fmt.Errorf("unescaped \" inside a double-quoted value")
			}
			b.WriteByte(c)
		}
		return b.String(), nil
	case strings.HasPrefix(v, "'"):
		if len(v) < 2 || !strings.HasSuffix(v, "'") {
			return "", fmt.Errorf("unterminated single-quoted value")
		}
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'"), nil
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v, nil
}

// setFrontMatter checks the front matter fields and copies them into l.
func (l *Lesson) setFrontMatter(fm []field) error {
	seen := map[string]bool{}
	for _, f := range fm {
		if seen[f.key] {
			return fmt.Errorf("line %d: %s is given twice", f.line, f.key)
		}
		seen[f.key] = true
		switch f.key {
		case "title":
			l.Title = f.val
		case "summary":
			l.Summary = f.val
		case "order":
			n, err := strconv.Atoi(f.val)
			if err != nil || n < 1 {
				return fmt.Errorf("line %d: order must be a whole number from 1, got %q", f.line, f.val)
			}
			l.Order = n
		case "version":
			if !validVersion(f.val) {
				return fmt.Errorf("line %d: version must be a RabbitMQ release line like \"3.10\", got %q", f.line, f.val)
			}
			l.Version = f.val
		case "requires":
			for _, r := range strings.Split(f.val, ",") {
				r = strings.TrimSpace(r)
				if !validSlug(r) {
					return fmt.Errorf("line %d: requires lists lesson slugs separated by commas, got %q", f.line, f.val)
				}
				l.Requires = append(l.Requires, r)
			}
		default:
			return fmt.Errorf("line %d: unknown front matter key %q (want title, summary, order, version, requires)", f.line, f.key)
		}
	}
	for _, k := range []string{"title", "summary", "order", "version"} {
		if !seen[k] {
			return fmt.Errorf("the front matter has no %s", k)
		}
	}
	if l.Title == "" || l.Summary == "" {
		return fmt.Errorf("the front matter's title and summary must not be empty")
	}
	return nil
}

// validVersion accepts MAJOR.MINOR, both numbers.
func validVersion(v string) bool {
	major, minor, ok := strings.Cut(v, ".")
	return ok && isDigits(major) && isDigits(minor)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
