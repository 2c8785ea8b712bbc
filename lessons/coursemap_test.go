package lessons

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// courseMapFile is the course map: a row per mechanism, number and claim a
// learner should come away with, and per common mistake, read against
// RabbitMQ 3.10.8's source.
const courseMapFile = "testdata/course-map.md"

// nearestPrefix starts a course map's "shown in" cell for an item that no
// block shows live yet: the title after it is the block closest to it.
const nearestPrefix = "nearest: "

// courseMapGaps names the rows of the course map whose item no block shows
// live yet, with what would close each. A gap is closed by a block that
// shows the item, which the row then names; the test fails on a row listed
// here that names no nearest block, so the list can only shrink.
var courseMapGaps = map[int]string{}

// courseMapClasses are the kinds of item the course map has.
var courseMapClasses = []string{"mechanism", "number", "claim", "common mistake"}

// minChecked is how many of the course map's items a question or an
// exercise must ask the reader for.
const minChecked = 45

// courseMapRow is one row of the course map.
type courseMapRow struct {
	num                                       int
	item, class, source, lesson, shown, check string
	named, namedZh, note                      string
}

// readCourseMap parses the course map's table: the rows after its header
// and separator, ten cells each.
func readCourseMap(t *testing.T) []courseMapRow {
	t.Helper()
	src, err := os.ReadFile(courseMapFile)
	if err != nil {
		t.Fatal(err)
	}
	var rows []courseMapRow
	header := true
	for i, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		if header {
			if strings.HasPrefix(line, "|---") {
				header = false
			}
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 10 {
			t.Fatalf("%s:%d: a row has %d cells, want 10", courseMapFile, i+1, len(cells))
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		n, err := strconv.Atoi(cells[0])
		if err != nil {
			t.Fatalf("%s:%d: the row's number %q is not a number", courseMapFile, i+1, cells[0])
		}
		rows = append(rows, courseMapRow{
			num: n, item: cells[1], class: cells[2], source: cells[3], lesson: cells[4],
			shown: cells[5], check: cells[6], named: cells[7], namedZh: cells[8], note: cells[9],
		})
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", courseMapFile)
	}
	return rows
}

// lessonBlocks is a lesson's scenario blocks and the names of their
// questions.
type lessonBlocks struct {
	l         Lesson
	blocks    []Scenario
	questions []string
}

func blocksOf(t *testing.T, ls []Lesson) map[string]lessonBlocks {
	t.Helper()
	out := map[string]lessonBlocks{}
	for _, l := range ls {
		bs, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		lb := lessonBlocks{l: l, blocks: bs}
		for _, b := range bs {
			qs, err := b.Questions()
			if err != nil {
				t.Fatalf("%s:%d: %v", l.File, b.Line, err)
			}
			for _, q := range qs {
				lb.questions = append(lb.questions, q.Name)
			}
		}
		out[l.Slug] = lb
	}
	return out
}

// courseMapProblems lists what is wrong with one row of the course map,
// against the lessons in English (en) and Chinese (zh).
func courseMapProblems(r courseMapRow, en, zh map[string]lessonBlocks) []string {
	var out []string
	if r.item == "" || r.source == "" {
		out = append(out, "an item and its source")
	}
	if !slices.Contains(courseMapClasses, r.class) {
		out = append(out, fmt.Sprintf("a class: %q is not one of %s", r.class, strings.Join(courseMapClasses, ", ")))
	}
	l, ok := en[r.lesson]
	if !ok {
		return append(out, fmt.Sprintf("a lesson: %q is no lesson of the course", r.lesson))
	}
	lz, ok := zh[r.lesson]
	if !ok {
		return append(out, fmt.Sprintf("the Chinese lesson zh/%s.md", r.lesson))
	}
	title, nearest := strings.CutPrefix(r.shown, nearestPrefix)
	_, gap := courseMapGaps[r.num]
	switch {
	case title == "":
		out = append(out, "a block that shows it live (shown in is empty)")
	case nearest && !gap:
		out = append(out, fmt.Sprintf("a block that shows it live: %q is only the nearest, and the row is not in courseMapGaps", title))
	case !nearest && gap:
		out = append(out, "to leave courseMapGaps: it names a block that shows it live")
	}
	if title != "" {
		i := slices.IndexFunc(l.blocks, func(b Scenario) bool { return b.Info.Title == title })
		switch {
		case i < 0:
			out = append(out, fmt.Sprintf("the block %q in %s", title, l.l.File))
		case i >= len(lz.blocks):
			out = append(out, fmt.Sprintf("block %d of zh/%s.md, which translates %q: the Chinese lesson has %d blocks", i+1, r.lesson, title, len(lz.blocks)))
		case len(lz.blocks) != len(l.blocks):
			out = append(out, fmt.Sprintf("as many blocks in zh/%s.md (%d) as in %s (%d)", r.lesson, len(lz.blocks), l.l.File, len(l.blocks)))
		}
	}
	if r.check != "" && !slices.Contains(l.questions, r.check) &&
		!slices.ContainsFunc(l.blocks, func(b Scenario) bool { return b.Info.Exercise && b.Info.Title == r.check }) {
		out = append(out, fmt.Sprintf("its check: %q is neither a question nor an exercise of %s", r.check, l.l.File))
	}
	if r.class != "common mistake" {
		if r.named != "" || r.namedZh != "" {
			out = append(out, "empty named-by cells: only a common mistake is named")
		}
		return out
	}
	switch {
	case r.named == "":
		out = append(out, "the words by which the English lesson names the mistake")
	case !strings.Contains(withoutFences(l.l.Body), r.named):
		out = append(out, fmt.Sprintf("the mistake named in %s: its prose does not say %q", l.l.File, r.named))
	}
	switch {
	case r.namedZh == "":
		out = append(out, "the words by which the Chinese lesson names the mistake")
	case !strings.Contains(withoutFences(lz.l.Body), r.namedZh):
		out = append(out, fmt.Sprintf("the mistake named in %s: its prose does not say %q", lz.l.File, r.namedZh))
	}
	return out
}

// TestCourseMap: every item of the course map names a lesson of the
// course and a block of it that shows the item live (one that the Chinese
// lesson has too), or is a gap listed in courseMapGaps; a check it names
// is a question or an exercise of that lesson, and at least minChecked
// items have one; a common mistake is named in the prose of the lesson,
// in English and in Chinese.
func TestCourseMap(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	zhLessons, err := In("zh")
	if err != nil {
		t.Fatal(err)
	}
	en, zh := blocksOf(t, all), blocksOf(t, zhLessons)
	rows := readCourseMap(t)
	checked := 0
	seen := map[int]bool{}
	for i, r := range rows {
		if r.num != i+1 {
			t.Errorf("%s: row %d is numbered %d: number the rows 1, 2, 3 in order", courseMapFile, i+1, r.num)
		}
		seen[r.num] = true
		if r.check != "" {
			checked++
		}
		for _, p := range courseMapProblems(r, en, zh) {
			t.Errorf("%s: row %d (%s) needs %s", courseMapFile, r.num, r.item, p)
		}
	}
	for n := range courseMapGaps {
		if !seen[n] {
			t.Errorf("courseMapGaps lists row %d, which the course map does not have", n)
		}
	}
	if checked < minChecked {
		t.Errorf("%s: %d of %d items have a question or an exercise, want at least %d", courseMapFile, checked, len(rows), minChecked)
	}
}
