// Package say holds what the engine says to a reader in words, as data: a
// Text is a catalog key and its arguments. The English catalog here makes
// the engine's English line from it (String), byte for byte the line a
// test or a script compares; the browser's bridge hands the widget the
// key and the arguments beside it, and the widget says them in the
// reader's language from its own catalog, reading none of the English.
//
// An error the engine says to a reader is an Error: its sentence, with
// Error() its English; an error inside it (a wrapped refusal) is said as
// its own sentence, and one that is RabbitMQ's words stays words (Of).
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
	var keys []string
	for _, line := range strings.Split(strings.Trim(english, "\n"), "\n") {
		key, _, _ := strings.Cut(line, "\t")
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

// English is the catalog's text for key, with its places, and whether
// there is one.
func English(key string) (string, bool) {
	i := strings.Index(english, "\n"+key+"\t")
	if i < 0 || key == "" {
		return "", false
	}
	text := english[i+len(key)+2:]
	return text[:strings.IndexByte(text, '\n')], true
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

// Error is an error the engine says to a reader as data: a refusal, a
// mistake in a line, a bound it met. Error() is its English, byte for
// byte the line a test or a script compares; Said gives the sentence,
// which the bridge hands the widget beside it.
type Error struct {
	Text Text
	err  error // the error it wraps, if any (Unwrap)
}

func (e *Error) Error() string { return e.Text.String() }

// Said is the sentence the error says.
func (e *Error) Said() Text { return e.Text }

// Unwrap is the error it wraps.
func (e *Error) Unwrap() error { return e.err }

// A Sayer is an error that says itself as data (an Error, a mistake in a
// line of the command language).
type Sayer interface {
	error
	Said() Text
}

// E makes an Error of the sentence key with words as its arguments.
//
//go:noinline
func E(key string, words ...string) error { return &Error{Text: S(key, words...)} }

// Wrap makes an Error of the sentence key whose arguments are words and,
// last, err, said as Of says it; the Error wraps err.
//
//go:noinline
func Wrap(key string, err error, words ...string) error {
	return &Error{Text: Around(key, Of(err), words...), err: err}
}

// Around is the sentence key whose arguments are words and, last, t: t
// said inside another (where it is, the command it names).
//
//go:noinline
func Around(key string, t Text, words ...string) Text {
	s := S(key, words...)
	s.Args = append(s.Args, t)
	return s
}

// Both is the sentence key whose arguments are the sentences a and b.
//
//go:noinline
func Both(key string, a, b Text) Text { return Text{Key: key, Args: List(a, b).Args} }

// Of is the sentence err says: its own, when it says itself as data, or
// its words as they are (RabbitMQ's replies and rabbitmqctl's answers,
// said as RabbitMQ says them in every language).
func Of(err error) Text {
	if s, ok := err.(Sayer); ok {
		return s.Said()
	}
	return Words(err.Error())
}
