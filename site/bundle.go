package site

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// The widget's modules are written in a narrow form that bundle relies on:
// every import is one line at the start of a line, from a sibling file
// ("./x.js"), of a default or of named bindings without renaming, and
// every export is a declaration (function, async function, class, const)
// or export default, at the start of a line.
var (
	importLine = regexp.MustCompile(`(?m)^import\s+(\{[^}\n]*\}|[A-Za-z_$][\w$]*)\s+from\s+"\./([\w.-]+\.js)";[ \t]*$`)
	exportDecl = regexp.MustCompile(`(?m)^export\s+(async\s+function\*?|function\*?|class|const)\s+([A-Za-z_$][\w$]*)`)
	exportDef  = regexp.MustCompile(`(?m)^export\s+default\s+`)
	otherForm  = regexp.MustCompile(`(?m)^(import|export)\b`)
)

// bundle joins the ES module entry of fsys (a path in it) and every module
// it imports, at any depth, into one ES module with the exports of entry,
// so that a page asks for one file instead of one a module. Each module
// becomes a function run once, in an order where a module comes after
// those it imports, so that modules keep their own scopes; import.meta
// stays the bundle's, which lies in entry's folder. An import cycle, or an
// import or export bundle does not read, is an error that names the file
// and line.
func bundle(fsys fs.FS, entry string) ([]byte, error) {
	type module struct {
		name    string
		body    string
		exports []string
	}
	var order []*module
	state := map[string]int{} // 1 visiting, 2 done
	dir := path.Dir(entry)
	var visit func(name string, from string) error
	visit = func(name, from string) error {
		switch state[name] {
		case 1:
			return fmt.Errorf("%s: import cycle through %s", from, name)
		case 2:
			return nil
		}
		state[name] = 1
		src, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		m := &module{name: name}
		text := string(src)
		for _, loc := range otherForm.FindAllStringIndex(text, -1) {
			line := text[loc[0]:]
			if i := strings.IndexByte(line, '\n'); i >= 0 {
				line = line[:i]
			}
			if !importLine.MatchString(line) && !exportDecl.MatchString(line) && !exportDef.MatchString(line) {
				return fmt.Errorf("%s line %d: bundle cannot read %q", name, strings.Count(text[:loc[0]], "\n")+1, line)
			}
		}
		var imports []error
		text = importLine.ReplaceAllStringFunc(text, func(line string) string {
			sub := importLine.FindStringSubmatch(line)
			if err := visit(sub[2], name); err != nil {
				imports = append(imports, err)
			}
			if strings.HasPrefix(sub[1], "{") {
				return "const " + sub[1] + " = __warren[" + quote(sub[2]) + "];"
			}
			return "const " + sub[1] + " = __warren[" + quote(sub[2]) + "].default;"
		})
		if len(imports) > 0 {
			return imports[0]
		}
		text = exportDecl.ReplaceAllStringFunc(text, func(decl string) string {
			sub := exportDecl.FindStringSubmatch(decl)
			m.exports = append(m.exports, sub[2])
			return strings.TrimPrefix(decl, "export ")
		})
		if exportDef.MatchString(text) {
			text = exportDef.ReplaceAllString(text, "const __default = ")
			m.exports = append(m.exports, "default: __default")
		}
		m.body = text
		state[name] = 2
		order = append(order, m)
		return nil
	}
	if err := visit(path.Base(entry), entry); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("// The widget's modules in one file, each in a function of its own; the\n// build writes it (site/bundle.go) from the modules beside it.\nconst __warren = {};\n")
	for _, m := range order {
		fmt.Fprintf(&b, "\n// %s\n__warren[%s] = (() => {\n%s\nreturn { %s };\n})();\n", m.name, quote(m.name), strings.TrimRight(m.body, "\n"), strings.Join(m.exports, ", "))
	}
	last := order[len(order)-1]
	var named []string
	for _, e := range last.exports {
		if !strings.HasPrefix(e, "default:") {
			named = append(named, e)
		}
	}
	if len(named) > 0 {
		fmt.Fprintf(&b, "\nexport const { %s } = __warren[%s];\n", strings.Join(named, ", "), quote(last.name))
	}
	return []byte(b.String()), nil
}

// quote is s as a JavaScript string literal (s is a file name).
func quote(s string) string { return `"` + s + `"` }
