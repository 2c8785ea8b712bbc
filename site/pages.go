package site

import (
	"net/url"
	"strconv"

	"warren/lessons"
)

// nav names the section of the site a page belongs to, for the header.
type nav int

const (
	navNone nav = iota
	navLessons
	navPlayground
	navEmbedding
)

// pageMeta is what the layout needs to know about a page.
type pageMeta struct {
	// Title is the page's own title; the layout adds the site name.
	Title       string
	Description string
	Nav         nav
	// Layout shapes the main column: "" for a column of text, "wide" for
	// the whole width (the playground), "lesson" for text with a table of
	// contents beside it on wide screens.
	Layout string
}

// mainClass is the class of the page's <main>.
func (p pageMeta) mainClass() string {
	if p.Layout == "" {
		return "main"
	}
	return "main main-" + p.Layout
}

// fullTitle is the <title> of the page.
func (p pageMeta) fullTitle() string {
	if p.Title == "" {
		return siteName + ": inside a RabbitMQ node"
	}
	return p.Title + " · " + siteName
}

const siteName = "warren"

// lessonLink points at one lesson from another page.
type lessonLink struct {
	Href    string
	Title   string
	Summary string
	Order   int
	Version string
	// Exercises is how many exercise blocks the lesson has.
	Exercises int
}

func linkTo(l lessons.Lesson) lessonLink {
	ll := lessonLink{Href: lessonPath(l.Slug), Title: l.Title, Summary: l.Summary, Order: l.Order, Version: l.Version}
	if blocks, err := l.Scenarios(); err == nil {
		for _, b := range blocks {
			if b.Info.Exercise {
				ll.Exercises++
			}
		}
	}
	return ll
}

// lessonPath is the URL of a lesson's page.
func lessonPath(slug string) string { return "/lessons/" + slug + "/" }

// lessonPage is everything the lesson template shows.
type lessonPage struct {
	Lesson lessons.Lesson
	Body   renderedLesson
	Prev   *lessonLink
	Next   *lessonLink
}

// orderLabel is "Lesson 2".
func orderLabel(n int) string { return "Lesson " + strconv.Itoa(n) }

// embedLink is the address of the embed page running script.
func embedLink(title, script string) string {
	v := url.Values{}
	if title != "" {
		v.Set("title", title)
	}
	v.Set("scenario", script)
	return "/embed.html?" + v.Encode()
}
