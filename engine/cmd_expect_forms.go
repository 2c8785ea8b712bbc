package engine

// Goals that look past queues and trace lines: a process's state, the
// credit one process holds toward another (credit_flow), a file of the
// store (entries, live and dead), an alarm (rabbit_alarm), something that
// never happened so far, a file that is gone, a trace line that came
// after a restart of a given kind (rabbit's recovery after a power loss is
// not its recovery after a crash), and a limit on virtual time.
//
//	expect process="queue jobs" state=waiting mailbox=0
//	expect credit="reader c1 -> channel c1.1" left=0
//	expect file=0.rdq entries=3 live=1 dead=2
//	expect file=1.rdq gone
//	expect alarm=memory
//	expect never=blocked on=c1 within-ms=500
//	expect on=c1.1 saw=get-ok redelivered body=keep-me after=power-loss

import (
	"strconv"
	"strings"

	"warren/engine/say"
	"warren/engine/script"
)

// expectMore checks the goals of the newer forms; ok is false for a
// queue= or saw= goal.
func (s *Sim) expectMore(cmd script.Command) (g Goal, ok bool) {
	switch moreForm(cmd) {
	case "process":
		g = s.expectProcess(cmd)
	case "credit":
		g = s.expectCredit(cmd)
	case "file":
		if cmd.Has("gone") {
			g = s.expectGone(cmd)
		} else {
			g = s.expectFile(cmd)
		}
	case "alarm":
		g = s.expectAlarm(cmd)
	case "never":
		g = s.expectNever(cmd)
	case "after":
		g = s.expectSawAfter(cmd)
	default:
		return Goal{}, false
	}
	return g, true
}

// moreForm is the argument that makes a goal one of expectMore's forms,
// the first of moreForms it has, or "" for a queue= or saw= goal.
func moreForm(cmd script.Command) string {
	for _, k := range moreForms {
		if cmd.Has(k) {
			return k
		}
	}
	return ""
}

// moreForms are the arguments that make a goal one of expectMore's forms,
// in the order they are told apart.
var moreForms = []string{"process", "credit", "file", "alarm", "never", "after"}

// within adds the virtual-time limit of within-ms= to a goal.
func (s *Sim) within(cmd script.Command, g Goal) Goal {
	if !cmd.Has("within-ms") {
		return g
	}
	limit := cmd.Int("within-ms", 0)
	ms := strconv.FormatInt(limit, 10)
	if now := s.rt.Now(); g.Met && now > limit*1000 {
		return Goal{Say: say.T("engine.g.withinNow", g.Say, ms, formatTime(now)), Checks: g.Checks}
	}
	g.Say = say.T("engine.g.within", g.Say, ms)
	return g
}

// compare checks wanted fields against what was found; what names the
// thing.
func compare(cmd script.Command, what string, found map[string]string) Goal {
	var want []string
	var off []say.Text
	var checks []Check
	for _, a := range cmd.Args {
		if !cmd.Spec.IsTableKey(a.Key) {
			continue
		}
		want = append(want, a.Key+"="+a.Val)
		got := found[a.Key]
		checks = append(checks, Check{Name: a.Key, Want: a.Val, Found: got})
		if got != a.Val {
			off = append(off, say.S("engine.g.want", a.Key+"="+got, a.Val))
		}
	}
	if len(off) > 0 {
		return Goal{Say: say.T("engine.g.has", what, say.List(off...)), Checks: checks}
	}
	return Goal{Met: true, Say: say.Words(what + " " + strings.Join(want, " ")), Checks: checks}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *Sim) expectProcess(cmd script.Command) Goal {
	name := cmd.Str("process", "")
	for _, p := range s.Snapshot().Processes {
		if p.Name == name {
			return compare(cmd, name, map[string]string{"state": p.State, "mailbox": strconv.Itoa(p.Mailbox), "blocked": yesNo(p.Blocked)})
		}
	}
	return Goal{Say: say.S("engine.g.noProcess", name)}
}

func (s *Sim) expectCredit(cmd script.Command) Goal {
	link := cmd.Str("credit", "")
	from, to, ok := strings.Cut(link, "->")
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	if !ok {
		return Goal{Say: say.S("engine.g.badLink", link)}
	}
	for _, l := range s.cluster.CreditLinks() {
		if s.procName(l.From) == from && s.procName(l.To) == to {
			g := compare(cmd, "credit "+from+" -> "+to, map[string]string{"left": strconv.Itoa(l.Credit), "blocked": yesNo(l.Blocked)})
			for i := range g.Checks {
				if g.Checks[i].Name == "left" {
					g.Checks[i].Of = l.Initial
				}
			}
			return g
		}
	}
	return Goal{Say: say.S("engine.g.noLink", from+" -> "+to)}
}

func (s *Sim) expectFile(cmd script.Command) Goal {
	name := cmd.Str("file", "")
	for _, f := range s.cluster.First().FileViews() {
		if f.Path == name || strings.HasSuffix(f.Path, "/"+name) {
			return compare(cmd, "file "+name, map[string]string{"entries": strconv.Itoa(f.Entries), "live": strconv.Itoa(f.Live),
				"dead": strconv.Itoa(f.Entries - f.Live), "size": strconv.FormatInt(f.Size, 10), "synced": strconv.FormatInt(f.Synced, 10)})
		}
	}
	return Goal{Say: say.S("engine.g.noFile", name)}
}

func (s *Sim) expectAlarm(cmd script.Command) Goal {
	want := cmd.Str("alarm", "")
	alarms := s.cluster.Alarms()
	has := say.T("engine.g.none")
	if len(alarms) > 0 {
		names := make([]say.Text, len(alarms))
		for i, a := range alarms {
			names[i] = resource(a)
		}
		has = say.List(names...)
	}
	if want == "none" {
		return Goal{Met: len(alarms) == 0, Say: say.T("engine.g.noAlarm", has)}
	}
	for _, a := range alarms {
		if a == want {
			return Goal{Met: true, Say: say.T("engine.g.alarmRaised", resource(want))}
		}
	}
	return Goal{Say: say.T("engine.g.alarmWanted", resource(want), has)}
}

// expectNever looks through everything that happened up to now.
func (s *Sim) expectNever(cmd script.Command) Goal {
	on := cmd.On()
	now := s.rt.Events()
	switch cmd.Str("never", "") {
	case "blocked":
		reader := "reader c" + strconv.Itoa(on.Conn)
		for _, m := range s.marks.list {
			if m.Event <= now && m.Kind == "blocked" && m.Say.Args[0] == reader {
				return Goal{Say: say.S("engine.g.wasBlocked", reader, strconv.FormatInt(m.Event, 10))}
			}
		}
		return Goal{Met: true, Say: say.S("engine.g.neverBlocked", reader)}
	default: // dropped
		ch := on.String()
		var dropped []string
		s.eachLine(func(l TraceLine) bool {
			w := strings.Fields(l.Text)
			if len(w) >= 2 && w[0] == ch && (w[1] == "confirm-nack" || w[1] == "return") {
				dropped = w
			}
			return dropped != nil
		})
		if w := dropped; w != nil {
			return Goal{Say: say.S("engine.g.dropped", ch, strings.Join(w[1:min(len(w), 3)], " "))}
		}
		return Goal{Met: true, Say: say.S("engine.g.neverDropped", ch)}
	}
}

// expectGone is met while no file of the node has the name; a goal that
// names a file and also asks for its entries or size is a contradiction.
func (s *Sim) expectGone(cmd script.Command) Goal {
	name := cmd.Str("file", "")
	for _, a := range cmd.Args {
		if cmd.Spec.IsTableKey(a.Key) {
			return Goal{Say: say.S("engine.g.goneAndAsk", name, a.Key)}
		}
	}
	for _, f := range s.cluster.First().FileViews() {
		if f.Path == name || strings.HasSuffix(f.Path, "/"+name) {
			return Goal{Say: say.S("engine.g.notGone", name, strconv.FormatInt(f.Size, 10))}
		}
	}
	return Goal{Met: true, Say: say.S("engine.g.gone", name)}
}

// expectSawAfter is a saw= goal met only by a line that came after the
// node's last restart of the kind named: a line from before it, or from
// after a restart of another kind only, does not count.
func (s *Sim) expectSawAfter(cmd script.Command) Goal {
	kind := cmd.Str("after", "")
	on, saw := cmd.On().String(), cmd.Str("saw", "")
	fields := sawFields(cmd)
	what := say.T("engine.g.sawAfter", on, strings.Join(append([]string{saw}, fields...), " "), restartKind(kind))
	last := int64(-1)
	for _, r := range s.cluster.First().Restarts {
		if r.Kind == kind {
			last = r.Event
		}
	}
	if last < 0 {
		return Goal{Say: say.T("engine.g.noRestart", what, restartKind(kind))}
	}
	before, met := false, false
	s.eachLine(func(l TraceLine) bool {
		if sawLine(l.Text, on, saw, fields) {
			met = l.Event > last
			before = !met
		}
		return met
	})
	if met {
		return Goal{Met: true, Say: what}
	}
	if before {
		return Goal{Say: say.T("engine.g.before", what, strconv.FormatInt(last, 10))}
	}
	return Goal{Say: say.T("engine.g.noLine", what)}
}

// resource says an alarm's resource, memory or disk.
func resource(name string) say.Text {
	key := "engine.res.disk"
	if name == "memory" {
		key = "engine.res.memory"
	}
	return say.T(key)
}

// restartKind says a kind of restart: clean, crash or power-loss.
func restartKind(kind string) say.Text {
	key := "engine.g.powerLoss"
	switch kind {
	case "clean":
		key = "engine.g.clean"
	case "crash":
		key = "engine.g.crash"
	}
	return say.T(key)
}
