package site

import "strings"

// scenarioView is one <warren-scenario> element: a live widget running a
// script on the engine. The element's text is the script, so the widget
// reads it with textContent; inside, a highlighted <pre> shows the script
// to readers without JavaScript until the widget takes over.
type scenarioView struct {
	// ID is the element's id, for links to one scenario of a page.
	ID string
	// Title is shown above the widget; empty means none.
	Title string
	// Version is the RabbitMQ release line the engine should show.
	Version string
	// Layout is "full" for a widget that fills the page (playground,
	// embed page); empty for one among the text of a lesson.
	Layout string
	// ErrorOK marks a script that shows a refused command on purpose.
	ErrorOK bool
	// View is the view the widget opens on; empty for the diagram.
	View string
	// Open is the moment the widget opens at: start, end (empty) or the
	// name of a #@mark line of the script.
	Open string
	// Script is the scenario, lines joined by "\n".
	Script string
	// Goals and Solution make the widget an exercise: the expect lines the
	// reader is to meet, and commands that meet them.
	Goals    []string
	Solution []string
	// Hints are revealed one at a time before the solution.
	Hints []string
	// Lesson marks a block of one of the site's own lessons: the lesson
	// tests check that it runs, so the browser's time budget of one
	// command, which guards scripts from elsewhere, does not cut it on a
	// slow computer.
	Lesson bool
}

// defaultVersion is the RabbitMQ release line the playground and the embed
// page show: the one the engine is checked against.
const defaultVersion = "3.10"

// starterScript is the playground's scenario before the learner changes
// it, in English; starterScriptIn gives it in a language.
var starterScript = starterScriptIn(langEN)

func starterScriptIn(lang string) string {
	return "# " + tr(lang, "site.script.starter") + `
queue.declare queue=hello
basic.publish key=hello body=world count=3
show processes
basic.qos prefetch=1 on=c2.1
basic.consume queue=hello tag=reader on=c2.1
basic.ack tag=1 on=c2.1
show queues`
}

// embedStarterScript is what the embed page runs when its URL names no
// scenario, in English; embedStarterScriptIn gives it in a language.
var embedStarterScript = embedStarterScriptIn(langEN)

func embedStarterScriptIn(lang string) string {
	return "# " + tr(lang, "site.script.embedStarter", "link", inLang(lang, "/embedding/")) + `
queue.declare queue=q
basic.publish key=q body=hello
basic.get queue=q no-ack`
}

// homeScriptIn is the home page's first scenario, the embedding page's
// example with a caption at each step in lang: a newcomer's widget opens
// at its start (see home.templ), so the first Step shows the first thing
// happen rather than an idle node.
func homeScriptIn(lang string) string {
	caption := func(key string) string { return "#@caption " + tr(lang, key) + "\n" }
	lines := strings.Split(exampleEmbedScript, "\n")
	return caption("site.home.cap.start") + lines[0] + "\n" +
		caption("site.home.cap.declared") + lines[1] + "\n" +
		caption("site.home.cap.low") + lines[2] + "\n" +
		caption("site.home.cap.urgent") + lines[3] + "\n" +
		caption("site.home.cap.got")
}

// exampleEmbedScript is the scenario the embedding page uses as its
// example.
const exampleEmbedScript = `queue.declare queue=jobs x-max-priority=5
basic.publish key=jobs body=low
basic.publish key=jobs body=urgent priority=5
basic.get queue=jobs no-ack`
