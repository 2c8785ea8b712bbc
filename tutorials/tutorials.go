// Package tutorials holds RabbitMQ's six official tutorials (Hello World,
// Work Queues, Publish/Subscribe, Routing, Topics, RPC) written in warren's
// command language, each step commented with the client code it stands
// for. Each file is also a conformance file: its expected output was
// recorded from RabbitMQ 3.10.8, and the engine must print the same. The
// playground offers them as scenarios to open. zh/ holds their Chinese
// twins: the same commands and recorded output line for line, with the
// comments in Chinese, for the Chinese playground.
package tutorials

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"

	"warren/engine/scenario"
)

//go:embed *.txt zh/*.txt
var files embed.FS

// langs are the languages that have twins of the tutorials, each in the
// folder of its name.
var langs = map[string]bool{"zh": true}

// Tutorial is one tutorial: its title and its scenario file.
type Tutorial struct {
	Slug  string // the file name without .txt: 1-hello-world
	Title string
	File  string // the conformance file, commands and recorded output
}

var titles = map[string]string{
	"1-hello-world":       "1. Hello World",
	"2-work-queues":       "2. Work Queues",
	"3-publish-subscribe": "3. Publish/Subscribe",
	"4-routing":           "4. Routing",
	"5-topics":            "5. Topics",
	"6-rpc":               "6. RPC",
}

// All returns the tutorials in order.
func All() []Tutorial {
	return In("en")
}

// In returns the tutorials in order, with their comments in lang where
// the tutorials have twins in it, else in English.
func In(lang string) []Tutorial {
	dir := "."
	if langs[lang] {
		dir = lang
	}
	names, _ := fs.Glob(files, path.Join(dir, "*.txt"))
	sort.Strings(names)
	var out []Tutorial
	for _, n := range names {
		b, _ := files.ReadFile(n)
		slug := strings.TrimSuffix(path.Base(n), ".txt")
		out = append(out, Tutorial{Slug: slug, Title: titles[slug], File: string(b)})
	}
	return out
}

// Script is the tutorial as a scenario to run: its comments and commands,
// without the recorded output that follows each `----`. A file the
// scenario parser refuses (TestAll fails on it) is given as it is.
func (t Tutorial) Script() string {
	f, err := scenario.Parse(t.Slug+".txt", t.File)
	if err != nil {
		return t.File
	}
	return f.Script()
}
