package lessons

import (
	"embed"
	"fmt"
	"io/fs"
)

// translations holds the lessons in other languages than English, one
// folder per language (zh/), each file named as the lesson it translates.
//
//go:embed zh
var translations embed.FS

// Languages lists the languages the course is translated into, besides
// English.
var Languages = []string{"zh"}

// In parses the lessons translated into lang, in course order. A
// translation's File is its path under lessons/ ("zh/SLUG.md").
func In(lang string) ([]Lesson, error) {
	sub, err := fs.Sub(translations, lang)
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "."); err != nil {
		return nil, fmt.Errorf("lessons: no translations into %q", lang)
	}
	out, err := Load(sub)
	if err != nil {
		return nil, fmt.Errorf("lessons/%s: %w", lang, err)
	}
	for i := range out {
		out[i].File = lang + "/" + out[i].File
	}
	return out, nil
}
