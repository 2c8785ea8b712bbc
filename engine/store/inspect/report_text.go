package inspect

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"warren/engine/store/format"
)

// PreviewBytes is how much of a body the text report shows.
const PreviewBytes = 24

// Text returns the report as stable, line-oriented text.
func (r *Report) Text() string {
	var b bytes.Buffer
	r.WriteText(&b)
	return b.String()
}

// WriteText writes the report as stable, line-oriented text: the vhost, each
// queue with every seq id, each message store file with every entry, other
// files, and problems.
func (r *Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	if r.HasVHost {
		p.line("vhost %q (directory name %s)", r.VHost, format.VHostDirName(r.VHost))
	} else {
		p.line("vhost unknown (no .vhost file)")
	}
	if r.HasConfig {
		p.line("v1 segment entry count %d (.config)", r.SegmentEntryCount)
	} else {
		p.line("v1 segment entry count %d (no .config: the legacy default)", r.SegmentEntryCount)
	}
	if len(r.Queues) == 0 {
		p.line("")
		p.line("no queue directories")
	}
	for _, q := range r.Queues {
		p.line("")
		p.queue(q)
	}
	for _, s := range r.Stores {
		p.line("")
		p.store(s)
	}
	if len(r.Other) > 0 {
		p.line("")
		p.line("other files:")
		for _, f := range r.Other {
			p.line("  %s%s", f.Path, sizeText(f.Size))
		}
	}
	if len(r.Problems) > 0 {
		p.line("")
		p.line("problems:")
		for _, pr := range r.Problems {
			p.line("  %v", pr.Err)
		}
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
}

func sizeText(n int64) string {
	if n < 0 {
		return " (directory)"
	}
	return fmt.Sprintf(" (%d bytes)", n)
}

func (p *printer) queue(q Queue) {
	name := "(no .queue_name)"
	if q.HasName {
		name = fmt.Sprintf("%q", q.Name)
	}
	check := "directory name ok"
	switch {
	case !q.HasName:
		check = "directory name not checked"
	case !q.DirNameOK:
		check = fmt.Sprintf("directory name MISMATCH: expected %s", format.QueueDirName(q.VHost, q.Name))
	}
	p.line("queue %s in %s (%s)", name, q.Dir, check)
	if q.Priority >= 0 {
		p.line("  priority level %d of queue %q", q.Priority, q.Parent)
	}
	counts := map[State]int{}
	for _, e := range q.Entries {
		counts[e.State]++
	}
	var parts []string
	for _, s := range []State{Present, Published, Delivered, Acked, Empty} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	summary := plural(len(q.Entries), "seq id")
	if len(parts) > 0 {
		summary += ": " + strings.Join(parts, ", ")
	}
	version := "unknown"
	if q.IndexVersion > 0 {
		version = fmt.Sprintf("v%d", q.IndexVersion)
	}
	p.line("  index %s, %s", version, summary)
	for _, f := range q.Files {
		s := ""
		if f.Summary != "" {
			s = ", " + f.Summary
		}
		p.line("  file %s: %d bytes%s", path.Base(f.Path), f.Size, s)
	}
	for _, e := range q.Entries {
		p.line("  %s", entryText(e))
	}
}

func entryText(e Entry) string {
	if e.State == Empty {
		return fmt.Sprintf("seq %d: empty slot (32 zero bytes: acked, or never written) [%s]", e.SeqID, e.Source)
	}
	var b strings.Builder
	kind := "transient"
	if e.Persistent {
		kind = "persistent"
	}
	fmt.Fprintf(&b, "seq %d: %s %s", e.SeqID, kind, e.State)
	switch e.Where {
	case InQueueStore:
		fmt.Fprintf(&b, " body in %s@%d", e.QSFile, e.QSOffset)
	case InMsgStore:
		if e.StoreFile != "" {
			fmt.Fprintf(&b, " body in %s", e.StoreFile)
		} else {
			fmt.Fprintf(&b, " body in %s", storeFor(e.Persistent))
		}
	case Embedded:
		b.WriteString(" body embedded")
	case InMemory:
		b.WriteString(" body in memory only")
	}
	fmt.Fprintf(&b, " size=%d", e.Size)
	if e.Expiry != 0 {
		fmt.Fprintf(&b, " expiry=%dus", e.Expiry)
	}
	if e.HasMsgID {
		fmt.Fprintf(&b, " id=%s", e.MsgID)
	}
	if e.Body != nil {
		fmt.Fprintf(&b, " body=%s", Preview(e.Body))
	}
	if e.Note != "" {
		fmt.Fprintf(&b, " (%s)", e.Note)
	}
	fmt.Fprintf(&b, " [%s]", e.Source)
	return b.String()
}

func (p *printer) store(s Store) {
	p.line("store %s", s.Dir)
	for _, f := range s.Files {
		if len(f.Entries) == 0 && f.Size == 0 {
			p.line("  file %s: 0 bytes, empty", path.Base(f.Path))
			continue
		}
		live, dead := 0, 0
		for _, e := range f.Entries {
			if e.Live() {
				live++
			} else {
				dead++
			}
		}
		p.line("  file %s: %d bytes, %s (%d live, %d dead), scan ends at %d (%s)",
			path.Base(f.Path), f.Size, plural(len(f.Entries), "entry"), live, dead, f.End, f.Stop)
		for _, e := range f.Entries {
			state := "dead"
			switch {
			case !e.Valid:
				state = "torn"
			case e.Refs == 1:
				state = "live (1 ref)"
			case e.Refs > 1:
				state = fmt.Sprintf("live (%d refs)", e.Refs)
			}
			line := fmt.Sprintf("    @%d size=%d id=%s %s", e.Offset, e.Size, e.MsgID, state)
			if e.Body != nil {
				line += fmt.Sprintf(" body=%s (%d bytes)", Preview(e.Body), len(e.Body))
			}
			if e.Note != "" {
				line += " (" + e.Note + ")"
			}
			p.line("%s", line)
		}
	}
	for _, f := range s.Other {
		p.line("  other file %s%s", path.Base(f.Path), sizeText(f.Size))
	}
}

// plural returns "1 entry", "2 entries", "0 slots".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Preview returns the start of a body as quoted printable text: bytes that
// are not printable ASCII show as '.', and "…" follows a cut.
func Preview(body []byte) string {
	n := min(len(body), PreviewBytes)
	out := make([]byte, n)
	for i, c := range body[:n] {
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		out[i] = c
	}
	s := fmt.Sprintf("%q", out)
	if len(body) > n {
		s += "…"
	}
	if !utf8.ValidString(s) {
		return "?"
	}
	return s
}
