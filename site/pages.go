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
	navCourse
	navGlossary
)

// pageMeta is what the layout needs to know about a page.
type pageMeta struct {
	// Title is the page's own title; the layout adds the site name.
	Title       string
	Description string
	Nav         nav
	// Lang is the page's language (langEN when empty); Path is its
	// address as the English page has it ("/lessons/x/"), from which the
	// layout links its twins in the other languages. An empty Path (the
	// embed page) has no twin links.
	Lang string
	Path string
	// Langs are the languages the page is in, when not all of them.
	Langs []string
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

// lang is the page's language.
func (p pageMeta) lang() string {
	if p.Lang == "" {
		return langEN
	}
	return p.Lang
}

// twins are the languages the page is in, itself included.
func (p pageMeta) twins() []string {
	if p.Langs == nil {
		return siteLangs
	}
	return p.Langs
}

// otherTwins are the languages the page is in but its own.
func (p pageMeta) otherTwins() []string {
	var out []string
	for _, l := range p.twins() {
		if l != p.lang() {
			out = append(out, l)
		}
	}
	return out
}

// fullTitle is the <title> of the page.
func (p pageMeta) fullTitle() string {
	if p.Title == "" {
		return tr(p.lang(), "site.title", "name", siteName)
	}
	return p.Title + " · " + siteName
}

const siteName = "warren"

// lessonLink points at one lesson from another page.
type lessonLink struct {
	Slug    string
	Href    string
	Title   string
	Summary string
	Order   int
	Version string
	// Exercises is how many exercise blocks the lesson has.
	Exercises int
	// Questions is how many predict-then-see questions its blocks ask;
	// answered, they count in the progress as exercises do.
	Questions int
	// Lang is the language of the page Href points to.
	Lang string
}

func linkTo(l lessons.Lesson) lessonLink {
	ll := lessonLink{Slug: l.Slug, Href: lessonPath(l.Slug), Title: l.Title, Summary: l.Summary, Order: l.Order, Version: l.Version}
	if blocks, err := l.Scenarios(); err == nil {
		for _, b := range blocks {
			if b.Info.Exercise {
				ll.Exercises++
			}
			if qs, err := b.Questions(); err == nil {
				ll.Questions += len(qs)
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
	// Requires are the lessons to read first, from the front matter.
	Requires []lessonLink
	// Lang is the language the page is in; Langs, all it is in.
	Lang  string
	Langs []string
}

// orderLabel is "Lesson 2" (in lang).
func orderLabel(lang string, n int) string {
	return tr(lang, "site.lesson.order", "order", strconv.Itoa(n))
}

// embedLink is the address of the embed page of lang running script.
func embedLink(lang, title, script string) string {
	v := url.Values{}
	if title != "" {
		v.Set("title", title)
	}
	v.Set("scenario", script)
	return inLang(lang, "/embed.html?") + v.Encode()
}
