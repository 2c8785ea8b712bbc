package lessons

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Files holds the lesson sources, one Markdown file per lesson.
//
//go:embed *.md
var Files embed.FS

// Lesson is one parsed lesson: its front matter and its Markdown body.
type Lesson struct {
	// Slug names the lesson in URLs: the file name without `.md`.
	Slug string
	// File is the file name the lesson was read from.
	File string
	// Title is the lesson's name, shown as its page's heading.
	Title string
	// Summary is one or two sentences for the lesson list.
	Summary string
	// Order places the lesson in the course, lowest first.
	Order int
	// Version is the RabbitMQ release line the lesson shows, such as "3.10".
	Version string
	// Requires names, by slug, the lessons to read first; each comes
	// earlier in the course.
	Requires []string
	// Body is the Markdown after the front matter.
	Body string
	// BodyLine is the line of the file on which Body starts (1-based), so
	// that a line in Body can be reported as a line of the file.
	BodyLine int
}

// All parses every lesson in Files, in course order.
func All() ([]Lesson, error) { return Load(Files) }

// Load parses every `*.md` file at the top of fsys, in course order (by
// Order, then by slug). Two lessons with the same Order are an error.
func Load(fsys fs.FS) ([]Lesson, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, err
	}
	var out []Lesson
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		l, err := Parse(name, src)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Order != out[j].Order {
			return out[i].Order < out[j].Order
		}
		return out[i].Slug < out[j].Slug
	})
	for i := 1; i < len(out); i++ {
		if out[i].Order == out[i-1].Order {
			return nil, fmt.Errorf("%s and %s: both have order %d", out[i-1].File, out[i].File, out[i].Order)
		}
	}
	before := map[string]bool{}
	for _, l := range out {
		for _, r := range l.Requires {
			if !before[r] {
				return nil, fmt.Errorf("%s: requires %q, which is not a lesson that comes before it", l.File, r)
			}
		}
		before[l.Slug] = true
	}
	return out, nil
}

// Parse reads one lesson file: a front matter block between two `---`
// lines, then Markdown. name is the file name, used for the slug and in
// errors.
func Parse(name string, src []byte) (Lesson, error) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	fm, body, bodyLine, err := splitFrontMatter(text)
	if err != nil {
		return Lesson{}, fmt.Errorf("%s: %w", name, err)
	}
	l := Lesson{
		Slug:     strings.TrimSuffix(path.Base(name), ".md"),
		File:     name,
		Body:     body,
		BodyLine: bodyLine,
	}
	if err := l.setFrontMatter(fm); err != nil {
		return Lesson{}, fmt.Errorf("%s: %w", name, err)
	}
	if !validSlug(l.Slug) {
		return Lesson{}, fmt.Errorf("%s: the file name must be lowercase letters, digits and dashes", name)
	}
	return l, nil
}

func validSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
