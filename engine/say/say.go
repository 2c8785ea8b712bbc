// Package say holds what the engine says to a reader in words, as data: a
// Text is a catalog key and its arguments. The English catalog here makes
// the engine's English line from it (String), byte for byte the line a
// test or a script compares; the browser's bridge hands the widget the
// key and the arguments beside it, and the widget says them in the
// reader's language from its own catalog, reading none of the English.
//
// An argument is a word the engine does not translate (a process's or a
// queue's name, a number, a job as the node names it), kept as the
// string the English line shows, or a sentence of its own, a Text, said
// in turn.
//
// NB: the constructors are not inlined (go:noinline): the engine says a
// sentence at a hundred places, and inlined, the browser's build carries a
// copy of each at every one, about 10 kB.
package say

import (
	"slices"
	"strings"
)

// Text is one sentence: Key names it in the catalogs, Args fill its
// places {a}, {b}, ... in order; each is a string or a Text. A Text
// without a key is a list (List) or words (Words): its arguments said one
// after another, ", " between them.
type Text struct {
	Key  string
	Args []any
}

// T makes a Text of arguments that are words (strings) or sentences
// (Texts); anything else is a mistake of the engine's, which String shows
// as "?" rather than fail.
//
//go:noinline
func T(key string, args ...any) Text { return Text{Key: key, Args: args} }

// S makes a Text whose arguments are all words. It is T for the common
// case, cheaper where it is called: the words are boxed here, once, not
// at every call.
//
//go:noinline
func S(key string, words ...string) Text {
	args := make([]any, len(words))
	for i, w := range words {
		args[i] = w
	}
	return Text{Key: key, Args: args}
}

// String is the sentence in English.
func (t Text) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t Text) write(b *strings.Builder) {
	if t.Key == "" { // List, Words
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeArg(b, a)
		}
		return
	}
	tmpl, ok := English(t.Key)
	if !ok {
		b.WriteString(t.Key) // a key without English: TestEveryKeyHasEnglish
		return
	}
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 || i+2 >= len(tmpl) || tmpl[i+2] != '}' || tmpl[i+1] < 'a' || tmpl[i+1] > 'z' {
			b.WriteString(tmpl)
			return
		}
		b.WriteString(tmpl[:i])
		writeArg(b, arg(t.Args, int(tmpl[i+1]-'a')))
		tmpl = tmpl[i+3:]
	}
}

func writeArg(b *strings.Builder, a any) {
	switch a := a.(type) {
	case string:
		b.WriteString(a)
	case Text:
		a.write(b)
	default:
		b.WriteString("?")
	}
}

func arg(args []any, n int) any {
	if n < len(args) {
		return args[n]
	}
	return nil
}

// Keys lists the catalog's keys, sorted.
func Keys() []string {
	keys := make([]string, 0, len(english))
	for _, e := range english {
		keys = append(keys, e.key)
	}
	slices.Sort(keys)
	return keys
}

// English is the catalog's text for key, with its places, and whether
// there is one.
func English(key string) (string, bool) {
	for _, e := range english {
		if e.key == key {
			return e.text, true
		}
	}
	return "", false
}

// List is its items said one after another, ", " between them, in every
// language: the engine's lists are of words and of short sentences alike.
//
//go:noinline
func List(items ...Text) Text {
	args := make([]any, len(items))
	for i, t := range items {
		args[i] = t
	}
	return Text{Args: args}
}

// Words is a Text of words said as they are in every language: the
// command language's own (queue q messages=3), a name.
//
//go:noinline
func Words(w string) Text { return Text{Args: []any{w}} }
