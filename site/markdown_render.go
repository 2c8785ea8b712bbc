package site

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"warren/lessons"
)

// lessonRenderer overrides goldmark's HTML for headings and code blocks.
type lessonRenderer struct {
	lesson    lessons.Lesson
	scenarios int
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *lessonRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.heading)
	reg.Register(ast.KindFencedCodeBlock, r.fencedCode)
	reg.Register(ast.KindCodeBlock, r.indentedCode)
}

// heading writes <hN id="..."> with a visible "#" link to itself after the
// text.
func (r *lessonRenderer) heading(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	h := n.(*ast.Heading)
	id := headingID(h)
	tag := "h" + strconv.Itoa(h.Level)
	if entering {
		fmt.Fprintf(w, "<%s", tag)
		if id != "" {
			fmt.Fprintf(w, ` id="%s"`, html.EscapeString(id))
		}
		w.WriteString(">")
		return ast.WalkContinue, nil
	}
	if id != "" {
		label := tr(lessonLang(r.lesson), "site.anchor", "section", nodeText(h, src))
		fmt.Fprintf(w, ` <a class="anchor" href="#%s" aria-label="%s">#</a>`, html.EscapeString(id), html.EscapeString(label))
	}
	fmt.Fprintf(w, "</%s>\n", tag)
	return ast.WalkContinue, nil
}

// fencedCode renders a `warren` block as a widget and any other block as
// highlighted or escaped code.
func (r *lessonRenderer) fencedCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.FencedCodeBlock)
	var info string
	if b.Info != nil {
		info = string(b.Info.Segment.Value(src))
	}
	code := blockText(b, src)
	in, err := lessons.ParseInfo(info)
	if err != nil {
		return ast.WalkStop, fmt.Errorf("%s: %w", r.lesson.File, err)
	}
	if in.Lang == lessons.Lang {
		r.scenarios++
		s := scenarioView{
			ID:      "scenario-" + strconv.Itoa(r.scenarios),
			Title:   in.Title,
			Version: r.lesson.Version,
			ErrorOK: in.ErrorOK,
			View:    in.View,
			Open:    in.Open,
			Script:  strings.TrimSuffix(code, "\n"),
			Lesson:  true,
		}
		if in.Exercise {
			// the line of the opening fence, for errors
			line := r.lesson.BodyLine + bytes.Count(src[:b.Info.Segment.Start], []byte("\n"))
			ex, err := lessons.Scenario{Line: line, Info: in, Script: s.Script}.Exercise()
			if err != nil {
				return ast.WalkStop, fmt.Errorf("%s: %w", r.lesson.File, err)
			}
			s.Script = ex.Setup.Script
			for _, g := range ex.Goals {
				s.Goals = append(s.Goals, g.Command)
			}
			s.Hints = ex.Hints
			for _, c := range ex.Solution {
				s.Solution = append(s.Solution, c.Command)
			}
		}
		if err := scenarioElement(s).Render(context.Background(), w); err != nil {
			return ast.WalkStop, err
		}
		w.WriteString("\n")
		return ast.WalkSkipChildren, nil
	}
	writeCode(w, in.Lang, code)
	return ast.WalkSkipChildren, nil
}

func (r *lessonRenderer) indentedCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		writeCode(w, "", blockText(n, src))
	}
	return ast.WalkSkipChildren, nil
}

// writeCode writes a code block in any language but warren's: escaped as
// plain text, with the language as a class.
func writeCode(w util.BufWriter, lang, code string) {
	w.WriteString(`<pre class="code" tabindex="0"><code`)
	if lang != "" {
		fmt.Fprintf(w, ` class="language-%s"`, html.EscapeString(lang))
	}
	w.WriteString(">")
	w.WriteString(html.EscapeString(code))
	w.WriteString("</code></pre>\n")
}

// blockText joins a code block's lines as they appear in the source.
func blockText(n ast.Node, src []byte) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}
