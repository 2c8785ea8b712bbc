package script

import (
	"slices"
	"strconv"
	"strings"

	"warren/engine/say"
)

// Error is a mistake in a command line, with where it is and a hint.
type Error struct {
	Line int // 1-based; 0 when the command has no line (a console entry)
	Col  int // 1-based
	Cmd  string
	Msg  say.Text
	Hint say.Text // no key and no words: none
}

// Error prints `line 3, column 11: basic.ack: tag must be ... (usage: ...)`.
func (e *Error) Error() string { return e.Said().String() }

// Said is the mistake as a sentence: where, the command, the message and
// its hint.
func (e *Error) Said() say.Text {
	t := e.Msg
	if e.Hint.Key != "" || len(e.Hint.Args) > 0 {
		t = say.Both("con.hinted", t, e.Hint)
	}
	if e.Cmd != "" {
		t = say.Around("con.named", t, e.Cmd)
	}
	if e.Line > 0 {
		return say.Around("con.lineColumn", t, strconv.Itoa(e.Line), strconv.Itoa(e.Col))
	}
	return say.Around("con.column", t, strconv.Itoa(e.Col))
}

// usage is the hint that gives a command's usage.
func usage(u string) say.Text { return say.S("con.usage", u) }

// meant is the hint that names the word meant.
func meant(w string) say.Text { return say.S("con.didYouMean", w) }

// Parse reads a script: one command a line; blank lines and lines starting
// with # are skipped. It stops at the first error.
func Parse(src string) ([]Command, error) {
	var out []Command
	for i, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		c, err := ParseLine(line, i+1)
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ParseLine parses and checks one command. line is its 1-based line number
// (0 for a console entry); columns count from the first byte of text.
func ParseLine(text string, line int) (Command, error) {
	if err := checkLineLength(text); err != nil {
		err.Line = line
		return Command{}, err
	}
	if f := strings.Fields(text); len(f) > 0 && f[0] == "import_definitions" {
		return parseRaw(text, line)
	}
	toks, terr := tokenize(text)
	if terr != nil {
		terr.Line = line
		if f := firstWord(text); f != "" && !strings.Contains(f, `"`) {
			terr.Cmd = f
		}
		return Command{}, terr
	}
	if len(toks) == 0 {
		return Command{}, &Error{Line: line, Col: 1, Msg: say.T("con.empty"), Hint: say.S("con.tryOneOf", strings.Join(Names(), ", "))}
	}
	name := toks[0]
	if name.s == "submit" {
		return parseSubmit(text, line, toks)
	}
	spec, ok := Lookup(name.s)
	if !ok {
		e := &Error{Line: line, Col: name.col, Msg: say.S("con.unknownCommand", strconv.Quote(clipName(name.s)))}
		if c := closest(name.s, Names()); c != "" {
			e.Hint = meant(c)
		} else {
			e.Hint = say.S("con.commands", strings.Join(Names(), ", "))
		}
		return Command{}, e
	}
	cmd := Command{Name: spec.Name, Line: line, Text: strings.TrimSpace(text), Spec: spec}
	fail := func(col int, hint say.Text, msg say.Text) (Command, error) {
		if hint.Key == "" {
			hint = usage(spec.Usage)
		}
		return Command{}, &Error{Line: line, Col: col, Cmd: spec.Name, Msg: msg, Hint: hint}
	}
	if len(toks)-1 > MaxArgs {
		return fail(toks[MaxArgs+1].col, say.Text{}, say.S("con.tooManyArgs", thousands(MaxArgs), thousands(len(toks)-1)))
	}
	given := make(map[string]bool, len(toks)-1)
	for _, t := range toks[1:] {
		key, val, hasVal := strings.Cut(t.s, "=")
		a := Arg{Key: key, Val: val, HasVal: hasVal, Col: t.col, Quoted: t.quoted}
		if key == "" {
			return fail(t.col, say.Text{}, say.S("con.noName", strconv.Quote(clipName(t.s))))
		}
		if given[key] {
			return fail(t.col, say.Text{}, say.S("con.givenTwice", clipName(key)))
		}
		given[key] = true
		if hasVal && !t.quoted && strings.HasPrefix(val, "(") {
			return fail(t.col+len(key)+1, say.T("con.noParen"), say.S("con.parenList", key))
		}
		if p, named := spec.param(key); named {
			if err := checkParam(p, a); err.Key != "" {
				return fail(t.col, clientHint(spec, t.s), err)
			}
		} else if !extraAllowed(spec, a) {
			hint := clientHint(spec, t.s)
			if hint.Key == "" {
				hint = unknownHint(spec, key)
			}
			return fail(t.col, hint, say.S("con.unknownArg", strconv.Quote(clipName(t.s))))
		}
		cmd.Args = append(cmd.Args, a)
	}
	for _, p := range spec.Params {
		if p.Required && !cmd.Has(p.Key) {
			return fail(len(strings.TrimRight(text, " \t"))+1, say.Text{}, say.S("con.missing", p.Key))
		}
	}
	if err := checkCombination(&cmd); err != nil {
		err.Line = line
		return Command{}, err
	}
	return cmd, nil
}

// clientWords are what client libraries call some of the language's
// arguments, written as a learner would copy them: the argument, or the
// argument with its value.
var clientWords = map[string]string{
	"auto-ack": "no-ack", "auto_ack": "no-ack", "autoack": "no-ack", "autoAck": "no-ack", "auto_ack=true": "no-ack",
	"auto-ack=true": "no-ack", "no_ack": "no-ack", "no-ack=true": "no-ack", "no_ack=true": "no-ack",
	"delivery_mode=2": "persistent", "delivery-mode=2": "persistent", "deliveryMode=2": "persistent",
	"delivery_mode=persistent": "persistent", "persistent=true": "persistent",
	"routing_key": "key", "routing-key": "key", "routingKey": "key", "binding_key": "key", "binding-key": "key",
	"durable=true": "durable", "exclusive=true": "exclusive", "auto_delete": "auto-delete",
	"auto_delete=true": "auto-delete", "auto-delete=true": "auto-delete", "passive=true": "passive",
	"mandatory=true": "mandatory", "multiple=true": "multiple", "if_unused": "if-unused", "if_empty": "if-empty",
	"prefetch_count": "prefetch", "prefetch-count": "prefetch", "prefetchCount": "prefetch",
	"consumer_tag": "tag", "consumer-tag": "tag", "delivery_tag": "tag", "delivery-tag": "tag",
	"exchange_type": "type", "exchange-type": "type", "queue_name": "queue",
	"reply_to": "reply-to", "replyTo": "reply-to", "correlation_id": "correlation-id", "correlationId": "correlation-id",
	"content_type": "content-type", "contentType": "content-type", "content_encoding": "content-encoding",
	"message_id": "message-id", "messageId": "message-id", "user_id": "user-id", "app_id": "app-id",
}

// clientHint suggests the language's word for what a client library
// calls it: `auto_ack` is no-ack, `delivery_mode=2` is persistent.
func clientHint(spec *Spec, arg string) say.Text {
	w, ok := clientWords[arg]
	if !ok {
		key, val, _ := strings.Cut(arg, "=")
		if w, ok = clientWords[key]; ok && val != "" {
			w += "=" + val
		}
	}
	if !ok {
		return say.Text{}
	}
	name, _, _ := strings.Cut(w, "=")
	if _, named := spec.param(name); !named {
		return say.Text{}
	}
	return meant(w)
}

func unknownHint(spec *Spec, key string) say.Text {
	var keys []string
	for _, p := range spec.Params {
		keys = append(keys, p.Key)
	}
	if spec.Extra == Words {
		keys = append(keys, spec.WordSet...)
	}
	if c := closest(key, keys); c != "" {
		return meant(c)
	}
	return usage(spec.Usage)
}

func extraAllowed(spec *Spec, a Arg) bool {
	switch spec.Extra {
	case XArgs:
		return a.HasVal && strings.HasPrefix(a.Key, "x-")
	case AnyArgs:
		return a.HasVal
	case HeaderArgs:
		return a.HasVal && strings.HasPrefix(a.Key, "header.") && len(a.Key) > len("header.")
	case Words:
		if a.HasVal {
			return false
		}
		for _, w := range spec.WordSet {
			if w == a.Key {
				return true
			}
		}
	}
	return false
}

func checkParam(p *Param, a Arg) say.Text {
	// NB: an error quotes at most 40 bytes of the value; no value a
	// check accepts (a number, a word of an enum, true or false, a target
	// like c1.2) is longer than clipName leaves whole
	a.Val = clipName(a.Val)
	switch p.Kind {
	case Flag:
		if a.HasVal {
			return say.S("con.flagNoValue", p.Key, p.Key, p.Key, a.Val)
		}
	case BoolOr:
		if a.HasVal && a.Val != "true" && a.Val != "false" {
			return say.S("con.mustBool", p.Key, strconv.Quote(a.Val))
		}
	case Str, Name:
		if !a.HasVal {
			return say.S("con.needsValue", p.Key, p.Key)
		}
	case Int:
		if !a.HasVal {
			return say.S("con.needsNumber", p.Key, p.Key)
		}
		n, err := strconv.ParseInt(a.Val, 10, 64)
		if err != nil || !looksNumber(strings.TrimPrefix(a.Val, "-")) {
			return say.S("con.mustInt", p.Key, strconv.Quote(a.Val))
		}
		if n < p.Min || n > p.Max {
			return say.S("con.mustBetween", p.Key, strconv.FormatInt(p.Min, 10), strconv.FormatInt(p.Max, 10), strconv.FormatInt(n, 10))
		}
	case Enum:
		if !a.HasVal {
			return say.S("con.needsOneOf", p.Key, strings.Join(p.Values, ", "))
		}
		for _, v := range p.Values {
			if v == a.Val {
				return say.Text{}
			}
		}
		return say.S("con.mustOneOf", p.Key, strings.Join(p.Values, ", "), strconv.Quote(a.Val))
	case On:
		if !a.HasVal {
			return say.T("con.onNeedsValue")
		}
		if _, err := ParseTarget(a.Val); err != nil {
			return say.Around("con.onWrap", say.Of(err))
		}
	}
	return say.Text{}
}

// checkCombination checks rules that span several arguments.
// checkExpect checks the two forms of a goal: a queue's list_queues
// columns, or a line a channel or connection saw.
func checkExpect(c *Command) *Error {
	bad := func(key, msg string, words ...string) *Error {
		a, ok := c.Arg(key)
		col := a.Col
		if !ok {
			col = len(c.Text) + 1
		}
		return &Error{Col: col, Cmd: c.Name, Msg: say.S(msg, words...), Hint: usage(c.Spec.Usage)}
	}
	forms, newer := 0, false
	for i, k := range []string{"queue", "saw", "process", "credit", "file", "alarm", "never"} {
		if c.Has(k) {
			forms++
			newer = newer || i >= 2
		}
	}
	if forms > 1 && newer {
		return bad("", "con.oneGoal")
	}
	if c.Has("gone") && !c.Has("file") {
		return bad("gone", "con.goneWithFile")
	}
	if c.Has("after") && !c.Has("saw") {
		return bad("after", "con.afterWithSaw")
	}
	for form, cols := range ExpectColumns {
		if !c.Has(form) {
			continue
		}
		if form == "file" && c.Has("gone") {
			if t := c.Table(); len(t) > 0 {
				return bad(t[0].Key, "con.goneNoField", t[0].Key)
			}
			return nil
		}
		if len(c.Table()) == 0 {
			return bad(form, "con.sayWhat", form, strings.Join(cols, "=..., ")+"=...")
		}
		for _, f := range c.Table() {
			if !slices.Contains(cols, f.Key) {
				return bad(f.Key, "con.notCompared", f.Key, form, strings.Join(cols, ", "))
			}
		}
		return nil
	}
	switch {
	case c.Has("alarm"):
		if len(c.Table()) > 0 {
			return bad(c.Table()[0].Key, "con.alarmAlone")
		}
		return nil
	case c.Has("never"):
		if !c.Has("on") {
			return bad("never", "con.neverNeedsOn")
		}
		if c.Str("never", "") == "dropped" && c.On().Chan == 0 {
			return bad("on", "con.neverDropped")
		}
		return nil
	}
	switch {
	case c.Has("queue") && c.Has("saw"):
		return bad("saw", "con.queueOrSaw")
	case c.Has("queue"):
		for _, k := range []string{"on", "redelivered", "persistent"} {
			if c.Has(k) {
				return bad(k, "con.withSaw", k)
			}
		}
		cols := c.Table()
		if len(cols) == 0 {
			return bad("", "con.sayQueue")
		}
		for _, f := range cols {
			if f.Key == "name" || !slices.Contains(QueueColumns, f.Key) {
				e := bad(f.Key, "con.notColumn", f.Key, strings.Join(QueueColumns[1:], ", "))
				if c := closest(f.Key, QueueColumns[1:]); c != "" {
					e.Hint = meant(c)
				}
				return e
			}
		}
	case c.Has("saw"):
	default:
		return bad("", "con.goalForms")
	}
	return nil
}

func checkCombination(c *Command) *Error {
	if err := checkShortStrings(c); err != nil {
		return err
	}
	bad := func(key, msg string, words ...string) *Error {
		a, _ := c.Arg(key)
		return &Error{Col: a.Col, Cmd: c.Name, Msg: say.S(msg, words...), Hint: usage(c.Spec.Usage)}
	}
	switch c.Name {
	case "basic.publish":
		if c.Has("body") && c.Has("size") {
			return bad("size", "con.bodyOrSize")
		}
	case "exchange.declare":
		if !c.Has("type") && !c.Has("passive") {
			return &Error{Col: len(strings.TrimRight(c.Text, " \t")) + 1, Cmd: c.Name, Msg: say.T("con.missingType"), Hint: usage(c.Spec.Usage)}
		}
	case "channel.close":
		if c.Has("on") && c.On().Chan == 0 {
			return bad("on", "con.closeNeedsChannel")
		}
	case "set_policy":
		if len(c.Table()) == 0 {
			return &Error{Col: len(c.Text) + 1, Cmd: c.Name, Msg: say.T("con.policyNeedsDef"), Hint: usage(c.Spec.Usage)}
		}
	case "alarm":
		if c.Has("set") == c.Has("clear") {
			return &Error{Col: len(c.Text) + 1, Cmd: c.Name, Msg: say.T("con.setOrClear"), Hint: usage(c.Spec.Usage)}
		}
	case "basic.consume":
		if c.Has("work-us") && !c.Has("ack-every") {
			return bad("work-us", "con.workUs")
		}
		if c.Has("ack-every") && c.Has("no-ack") {
			return bad("ack-every", "con.noAckAckEvery")
		}
	case "expect":
		if err := checkExpect(c); err != nil {
			return err
		}
	case "run":
		if c.Has("ms") && c.Has("events") {
			return bad("events", "con.msOrEvents")
		}
	}
	if c.Name == "connect" {
		if !c.Has("on") || c.On().Chan != 0 {
			return bad("on", "con.onConnection")
		}
		return nil
	}
	// expect's on= takes a connection too: blocked, unblocked and
	// connection-lost are a connection's lines.
	if c.Name != "connection.close" && c.Name != "channel.close" && c.Name != "expect" && c.Has("on") && c.On().Chan == 0 {
		return bad("on", "con.onChannel")
	}
	return nil
}

// parseSubmit reads `submit CMD ...`: a client command whose frames go to
// the node without running it (the engine only).
func parseSubmit(text string, line int, toks []token) (Command, error) {
	if len(toks) < 2 {
		return Command{}, &Error{Line: line, Col: len(strings.TrimRight(text, " \t")) + 1, Cmd: "submit",
			Msg: say.T("con.missingSubmit"), Hint: usage("submit basic.publish key=q count=100")}
	}
	if toks[1].s == "submit" {
		// NB: refused before the inner command is parsed, so that a line
		// of nested submits costs one pass, not one for each level.
		return Command{}, notClient(line, toks[1].col, "submit")
	}
	start := toks[1].col - 1
	inner, err := ParseLine(strings.Repeat(" ", start)+text[start:], line)
	if err != nil {
		return Command{}, err
	}
	if inner.Spec.Engine || inner.Spec.Extra == Words || inner.Name == "wait" || inner.Name == "set_policy" || inner.Name == "clear_policy" {
		return Command{}, notClient(line, toks[1].col, inner.Name)
	}
	return Command{Name: "submit", Line: line, Text: strings.TrimSpace(text), Spec: submitSpec, Inner: &inner}, nil
}

// parseRaw reads `import_definitions [node=N|NAME] JSON`: the rest of the
// line, as it is, is the command's json argument, so that a definitions
// file needs no quoting. NB: JSON holds quotes and = signs that tokenize
// would read as the language's.
func parseRaw(text string, line int) (Command, error) {
	spec, _ := Lookup("import_definitions")
	start := strings.Index(text, spec.Name) + len(spec.Name)
	rest := strings.TrimLeft(text[start:], " \t")
	args, rest, err := rawNode(text, rest, line, spec)
	if err != nil {
		return Command{}, err
	}
	rest = strings.TrimRight(rest, " \t")
	if rest == "" {
		return Command{}, &Error{Line: line, Col: len(strings.TrimRight(text, " \t")) + 1, Cmd: spec.Name,
			Msg: say.T("con.missingDefs"), Hint: usage(spec.Usage)}
	}
	col := len(strings.TrimRight(text, " \t")) - len(rest) + 1
	args = append(args, Arg{Key: "json", Val: rest, HasVal: true, Col: col, Quoted: true})
	return Command{Name: spec.Name, Line: line, Text: strings.TrimSpace(text), Spec: spec, Args: args}, nil
}

// notClient refuses to submit a command that is not an AMQP method.
func notClient(line, col int, name string) *Error {
	return &Error{Line: line, Col: col, Cmd: "submit", Msg: say.S("con.notClient", name),
		Hint: say.T("con.submitTakes")}
}

var submitSpec = &Spec{Name: "submit", Engine: true, Usage: "submit CMD [ARG ...]"}

type token struct {
	s      string
	col    int
	quoted bool // the value was written in quotes
}

// tokenize splits a line at spaces and tabs. A value may be quoted
// (`body="Hello World!"`): inside the quotes \" is a quote, \\ a backslash
// and nothing else is special; the token holds the value unquoted. A quote
// that does not open a value is an ordinary character.
func tokenize(text string) ([]token, *Error) {
	var out []token
	i := 0
	for i < len(text) {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		start := i
		var b strings.Builder
		quoted := false
		eq := -1 // where the token's first = is
		for i < len(text) && text[i] != ' ' && text[i] != '\t' {
			c := text[i]
			if c == '=' && eq < 0 {
				eq = i
			}
			if c != '"' {
				b.WriteByte(c)
				i++
				continue
			}
			if eq < 0 || eq != i-1 {
				// NB: a quote anywhere but at the start of a value is
				// an ordinary character, as it was before quoting.
				b.WriteByte(c)
				i++
				continue
			}
			quoted = true
			open := i
			i++
			closed := false
			for i < len(text) {
				c := text[i]
				if c == '\\' && i+1 < len(text) && (text[i+1] == '"' || text[i+1] == '\\') {
					b.WriteByte(text[i+1])
					i += 2
					continue
				}
				i++
				if c == '"' {
					closed = true
					break
				}
				b.WriteByte(c)
			}
			if !closed {
				return nil, &Error{Col: open + 1, Msg: say.T("con.quoteOpen"), Hint: say.T("con.quoteHow")}
			}
			if i < len(text) && text[i] != ' ' && text[i] != '\t' {
				return nil, &Error{Col: i + 1, Msg: say.T("con.afterQuote"), Hint: say.T("con.spaceBetween")}
			}
		}
		if i > start {
			out = append(out, token{b.String(), start + 1, quoted})
		}
	}
	return out, nil
}
