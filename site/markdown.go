package site

import (
	"bytes"
	"fmt"
	"html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"warren/lessons"
)

// tocEntry is one section of a lesson, for its table of contents.
type tocEntry struct {
	ID   string
	Text string
}

// renderedLesson is a lesson's body as HTML, with its sections.
type renderedLesson struct {
	HTML      string
	TOC       []tocEntry
	Scenarios int
}

// renderLesson turns a lesson's Markdown into HTML: headings get ids and a
// "#" link, code is highlighted, and `warren` blocks become widgets.
func renderLesson(l lessons.Lesson) (renderedLesson, error) {
	src := []byte(l.Body)
	r := &lessonRenderer{lesson: l}
	exts := []goldmark.Extender{extension.Table, extension.Strikethrough, extension.Typographer}
	if lessonLang(l) == langZH {
		// A line break in Chinese prose is no space: the lines of a
		// paragraph join up (CSS Text 3's rule for wide characters).
		exts = append(exts, extension.NewCJK(extension.WithEastAsianLineBreaks(extension.EastAsianLineBreaksCSS3Draft)))
	}
	md := goldmark.New(
		goldmark.WithExtensions(exts...),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithHeadingAttribute()),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(r, 100))),
	)
	doc := md.Parser().Parse(text.NewReader(src))
	var out renderedLesson
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			if h.Level == 1 {
				return ast.WalkStop, fmt.Errorf("%s: a level-1 heading (%q): the title comes from the front matter, sections start at ##", l.File, nodeText(h, src))
			}
			if h.Level == 2 {
				out.TOC = append(out.TOC, tocEntry{ID: headingID(h), Text: nodeText(h, src)})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return out, err
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return out, fmt.Errorf("%s: %w", l.File, err)
	}
	out.HTML = buf.String()
	out.Scenarios = r.scenarios
	return out, nil
}

// headingID returns the id the parser gave a heading.
func headingID(h *ast.Heading) string {
	if v, ok := h.AttributeString("id"); ok {
		if b, ok := v.([]byte); ok {
			return string(b)
		}
	}
	return ""
}

// nodeText returns the plain text of n's inline content.
func nodeText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			// the typographer's strings are HTML (&rsquo;), the
			// entry's text is text
			b.WriteString(html.UnescapeString(string(c.Value)))
		default:
			b.WriteString(nodeText(c, src))
		}
	}
	return b.String()
}
