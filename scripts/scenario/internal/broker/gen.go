package broker

import (
	"encoding/base64"
	"encoding/binary"
	"regexp"
	"strconv"
	"strings"

	"warren/engine/script"
)

// aliases maps names the broker makes up to the names the engine gives
// the same things, and back, so that a command can name them: in output,
// every match of pattern that name can place becomes its alias; in input,
// every argument value that is an alias becomes the real name again.
type aliases struct {
	prefix  string // every real name and alias starts with it
	pattern *regexp.Regexp
	// name gives a real name its alias, or false when it cannot yet
	name  func(real string) (string, bool)
	alias map[string]string // real name -> alias
	real  map[string]string // alias -> real name
}

func newAliases(prefix string, pattern *regexp.Regexp, name func(string) (string, bool)) *aliases {
	return &aliases{prefix: prefix, pattern: pattern, name: name, alias: map[string]string{}, real: map[string]string{}}
}

// learn notes every real name in s, giving a new one its alias; it returns
// the names seen for the first time.
func (g *aliases) learn(s string) []string {
	if !strings.Contains(s, g.prefix) {
		return nil
	}
	var fresh []string
	for _, name := range g.pattern.FindAllString(s, -1) {
		if _, ok := g.alias[name]; ok {
			continue
		}
		a, ok := g.name(name)
		if !ok {
			continue
		}
		g.alias[name], g.real[a] = a, name
		fresh = append(fresh, name)
	}
	return fresh
}

// out replaces every real name in a printed line by its alias.
func (g *aliases) out(s string) string {
	if !strings.Contains(s, g.prefix) {
		return s
	}
	return g.pattern.ReplaceAllStringFunc(s, func(name string) string {
		if a, ok := g.alias[name]; ok {
			return a
		}
		return name
	})
}

// in returns cmd with every argument value that is an alias replaced by
// the real name it stands for.
func (g *aliases) in(cmd script.Command) script.Command {
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

// genName is a name the broker generates for a server-named queue:
// amq.gen- and 22 characters of base64 (rabbit_guid).
var genName = regexp.MustCompile(`amq\.gen-[A-Za-z0-9_-]{22}`)

// newGenNames maps generated queue names to amq.gen-N, N counting them in
// the order the file first sees them, as the engine names them.
func newGenNames() *aliases {
	g := newAliases("amq.gen-", genName, nil)
	g.name = func(string) (string, bool) { return "amq.gen-" + strconv.Itoa(len(g.alias)+1), true }
	return g
}

// replyName is a reply consumer's name in direct reply-to: the prefix, the
// base64 of the channel's pid (rabbit_direct_reply_to v2), a dot and the
// base64 of a random key.
var replyName = regexp.MustCompile(`amq\.rabbitmq\.reply-to\.[A-Za-z0-9+/]+=*\.[A-Za-z0-9+/]+=*`)

// replyNames maps reply consumers' names to amq.rabbitmq.reply-to.N, N
// counting the file's reply consumers in the order they were made, as the
// engine names them. made lists, for each, the channel it is on; channel
// finds the channel (cN.M) a name's pid belongs to, by asking the broker.
type replyNames struct {
	*aliases
	made    []string
	channel func(pid string) (string, bool)
}

func newReplyNames(channel func(pid string) (string, bool)) *replyNames {
	r := &replyNames{channel: channel}
	r.aliases = newAliases("amq.rabbitmq.reply-to.", replyName, r.name)
	return r
}

// consumed notes a reply consumer made on channel cN.M.
func (r *replyNames) consumed(channel string) { r.made = append(r.made, channel) }

// name finds the reply consumer a real name belongs to: the latest one
// made on the channel whose pid the name carries.
func (r *replyNames) name(real string) (string, bool) {
	pid, ok := replyPid(real)
	if !ok {
		return "", false
	}
	ch, ok := r.channel(pid)
	if !ok {
		return "", false
	}
	for i := len(r.made) - 1; i >= 0; i-- {
		if r.made[i] == ch {
			return "amq.rabbitmq.reply-to." + strconv.Itoa(i+1), true
		}
	}
	return "", false
}

// replyPid reads the pid in a reply consumer's name as rabbitmqctl prints
// pids after the node name: ".CREATION.ID.SERIAL>". The name holds the
// pid's external term format (NEW_PID_EXT) with a made-up node name
// (pid_recomposition).
func replyPid(real string) (string, bool) {
	enc := strings.TrimPrefix(real, "amq.rabbitmq.reply-to.")
	enc, _, _ = strings.Cut(enc, ".")
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(b) < 5 || b[0] != 131 || b[1] != 88 || b[2] != 118 {
		return "", false
	}
	n := int(binary.BigEndian.Uint16(b[3:5]))
	rest := b[min(5+n, len(b)):]
	if len(rest) != 12 {
		return "", false
	}
	id, serial, creation := binary.BigEndian.Uint32(rest), binary.BigEndian.Uint32(rest[4:]), binary.BigEndian.Uint32(rest[8:])
	return "." + strconv.FormatUint(uint64(creation), 10) + "." + strconv.FormatUint(uint64(id), 10) + "." +
		strconv.FormatUint(uint64(serial), 10) + ">", true
}
