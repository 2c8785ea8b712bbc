package broker

import (
	"regexp"
	"strconv"
	"strings"

	"warren/engine/script"
)

// genNames maps the names the broker generates for server-named queues
// (amq.gen- and 22 characters of base64, rabbit_guid) to amq.gen-N, N
// counting them in the order the file first sees them, as the engine names
// them; and back, so that a command can name such a queue.
type genNames struct {
	alias map[string]string // real name -> amq.gen-N
	real  map[string]string // amq.gen-N -> real name
}

var genName = regexp.MustCompile(`amq\.gen-[A-Za-z0-9_-]{22}`)

func newGenNames() *genNames {
	return &genNames{alias: map[string]string{}, real: map[string]string{}}
}

// learn notes every generated name in s, giving a new one the next alias;
// it returns the names seen for the first time.
func (g *genNames) learn(s string) []string {
	var fresh []string
	for _, name := range genName.FindAllString(s, -1) {
		if _, ok := g.alias[name]; ok {
			continue
		}
		a := "amq.gen-" + strconv.Itoa(len(g.alias)+1)
		g.alias[name], g.real[a] = a, name
		fresh = append(fresh, name)
	}
	return fresh
}

// out replaces every generated name in a printed line by its alias.
func (g *genNames) out(s string) string {
	if !strings.Contains(s, "amq.gen-") {
		return s
	}
	return genName.ReplaceAllStringFunc(s, func(name string) string {
		if a, ok := g.alias[name]; ok {
			return a
		}
		return name
	})
}

// in returns cmd with every argument value that is an alias replaced by
// the real name it stands for.
func (g *genNames) in(cmd script.Command) script.Command {
	if len(g.real) == 0 {
		return cmd
	}
	var args []script.Arg
	for i, a := range cmd.Args {
		r, ok := g.real[a.Val]
		if !ok || !a.HasVal {
			continue
		}
		if args == nil {
			args = append([]script.Arg(nil), cmd.Args...)
		}
		args[i].Val = r
	}
	if args != nil {
		cmd.Args = args
	}
	return cmd
}
