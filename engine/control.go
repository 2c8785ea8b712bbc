package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"warren/engine/node"
	"warren/engine/script"
	"warren/engine/trace"
)

// control runs the simulation-control commands: step, run, show, set, alarm.
func (s *Sim) control(cmd script.Command) ([]string, error) {
	var out []string
	switch cmd.Name {
	case "step":
		n := cmd.Int("n", 1)
		before := s.rt.Events()
		s.apply(op{kind: opSteps, n: n})
		ran := s.rt.Events() - before
		if s.opts.Record {
			for i := before + 1; i <= s.EventCount(); i++ {
				e := s.Event(i)
				out = append(out, s.Describe(&e))
			}
		} else {
			out = append(out, fmt.Sprintf("ran %d events", ran))
		}
		if ran < n {
			out = append(out, "idle: nothing left to run")
		}
	case "run":
		switch {
		case cmd.Has("ms"):
			s.apply(op{kind: opRunUntil, t: s.rt.Now() + cmd.Int("ms", 0)*1000})
		case cmd.Has("events"):
			s.apply(op{kind: opSteps, n: cmd.Int("events", 1)})
		default:
			s.apply(op{kind: opSettle, t: s.rt.Now()})
		}
		out = append(out, "t="+formatTime(s.rt.Now())+" events="+i64(s.rt.Events()))
	case "expect":
		return []string{s.expect(cmd).Line()}, nil
	case "show":
		views := cmd.Words()
		if len(views) == 0 {
			views = []string{"processes"}
		}
		for _, v := range views {
			out = append(out, s.show(v)...)
		}
		return out, nil
	case "set", "cluster", "connect":
		s.apply(op{kind: opControl, cmd: cmd})
	case "alarm", "restart":
		s.apply(op{kind: opControl, cmd: cmd})
		if err := s.restartErr; err != nil {
			s.restartErr = nil
			return nil, err
		}
		s.apply(op{kind: opSettle, t: s.rt.Now()})
	}
	return append(out, s.clientLines()...), nil
}

// controlChange applies set and alarm.
func (s *Sim) controlChange(cmd script.Command) {
	switch cmd.Name {
	case "set":
		if cmd.Has("version") {
			s.node.Config.Version = cmd.Str("version", "3.10")
		}
		if cmd.Has("file-size-limit") {
			s.node.Config.FileSizeLimit = cmd.Int("file-size-limit", 0)
		}
		if cmd.Has("version") || cmd.Has("file-size-limit") {
			s.node.ReopenDisk()
		}
		if cmd.Has("schedulers") {
			s.rt.SetSchedulers(int(cmd.Int("schedulers", 1)))
		}
		for _, m := range s.cluster.Members() {
			if cmd.Has("watermark") {
				m.Config.Watermark = cmd.Int("watermark", 0)
				m.StartMemoryMonitor()
			}
			if cmd.Has("memory-per-message") {
				m.Config.MemoryPerMessage = cmd.Int("memory-per-message", 0)
			}
		}
		if cmd.Has("trace") {
			s.summary = cmd.Str("trace", "full") == "summary"
		}
		if cmd.Has("queue-master-locator") {
			s.cluster.SetLocator(cmd.Str("queue-master-locator", "client-local"))
		}
	case "cluster":
		link := int64(node.DefaultLinkDelay)
		if cmd.Has("link-us") {
			link = cmd.Int("link-us", 0)
		}
		if err := s.cluster.AddNodes(int(cmd.Int("nodes", 2))-1, int(cmd.Int("ram", 0)), link); err != nil {
			s.restartErr = err
		}
	case "connect":
		if m, err := s.cluster.Member(cmd.Str("node", "")); err == nil {
			s.cluster.ConnectTo(cmd.On().Conn, m)
		}
	case "restart":
		if err := s.node.Restart(cmd.Str("kind", "clean")); err != nil {
			s.restartErr = err
		}
	case "alarm":
		if r := cmd.Str("set", ""); r != "" {
			s.cluster.SetAlarm(r, true)
		}
		if r := cmd.Str("clear", ""); r != "" {
			s.cluster.SetAlarm(r, false)
		}
	}
}

func (s *Sim) clientLines() []string { return s.lines() }

// lines prints the client events observed since the last call.
func (s *Sim) lines() []string {
	ev := s.client.take()
	if len(ev) == 0 {
		return nil
	}
	defer s.client.recycle(ev)
	if s.summary {
		return trace.Summary(ev)
	}
	return trace.Lines(ev)
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func percent(part, whole int64) string {
	if whole <= 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", float64(part)*100/float64(whole))
}

// show prints one view of the node as text.
func (s *Sim) show(view string) []string {
	var out []string
	switch view {
	case "files":
		out = append(out, s.node.ShowFiles()...)
	case "gc":
		for _, l := range s.node.GCLog {
			out = append(out, "gc "+l)
		}
	case "throughput":
		// what the last command that ran events moved, over its span
		span := s.rt.LastEnd() - s.mark.time
		st, m := s.cluster.Stats, s.mark.stats
		rate := func(n int64) string {
			if span <= 0 {
				return "0"
			}
			return strconv.FormatFloat(float64(n)*1e6/float64(span), 'f', 0, 64)
		}
		count := func(name string, n int64) string { return " " + name + "=" + i64(n) + " (" + rate(n) + "/s)" }
		out = append(out, "throughput over "+formatTime(max(span, 0))+":"+count("published", st.Published-m.Published)+
			count("delivered", st.Delivered-m.Delivered)+count("acked", st.Acked-m.Acked))
	case "rates":
		out = append(out, s.rates(60)...)
	case "schedulers":
		// over the span of the last command that ran events
		span := s.rt.LastEnd() - s.mark.time
		members := s.cluster.Members()
		total := make([]int64, len(members))
		count := make([]int64, len(members))
		for i, sc := range s.rt.Schedulers() {
			busy := sc.Busy
			if i < len(s.mark.busy) {
				busy -= s.mark.busy[i]
			}
			total[sc.Group] += busy
			count[sc.Group]++
			where := ""
			if len(members) > 1 {
				where = " node=" + members[sc.Group].Name
			}
			out = append(out, "scheduler "+strconv.Itoa(i+1)+where+" busy="+formatTime(busy)+" utilisation="+percent(busy, span))
		}
		for g, m := range members {
			line := "node cpu="
			if len(members) > 1 {
				line = "node " + m.Name + " cpu="
			}
			out = append(out, line+percent(total[g], span*count[g])+" of "+i64(count[g])+" schedulers over "+formatTime(max(span, 0)))
		}
	case "cpu":
		out = append(out, s.cpuLines()...)
	case "clock":
		out = append(out, "t="+formatTime(s.rt.Now())+" events="+i64(s.rt.Events()))
	case "processes":
		for _, p := range s.rt.Processes() {
			if p.State().String() == "exited" {
				continue
			}
			line := p.Name + " pid=" + i64(int64(p.PID)) + " state=" + p.State().String() + " mailbox=" + strconv.Itoa(p.MailboxLen()) +
				" socket=" + strconv.Itoa(p.InputLen()) + " reductions=" + i64(p.Reductions)
			if p.Kind == "reader" && !p.InputOpen {
				line += " not-reading-socket"
			}
			out = append(out, line)
		}
	case "supervisors":
		for _, t := range s.cluster.Supervision() {
			out = append(out, t.Lines()...)
		}
	case "cluster":
		out = append(out, s.cluster.ClusterLines()...)
	case "queues":
		for _, q := range s.cluster.ListQueues() {
			out = append(out, "queue "+q.Name+" ready="+strconv.Itoa(q.Ready)+" unacked="+strconv.Itoa(q.Unack)+
				" consumers="+strconv.Itoa(q.Consumers)+" bytes="+i64(q.Bytes))
		}
	case "exchanges":
		for _, name := range s.cluster.ExchangeNames() {
			x, _ := s.cluster.Exchange(name)
			label := name
			if label == "" {
				label = "(default)"
			}
			out = append(out, "exchange "+label+" type="+x.Type+" bindings="+strconv.Itoa(len(x.Bindings)))
		}
	case "bindings":
		for _, name := range s.cluster.ExchangeNames() {
			x, _ := s.cluster.Exchange(name)
			for _, b := range x.Bindings {
				out = append(out, "binding exchange="+name+" queue="+b.Queue+" key="+b.Key)
			}
		}
	case "credit":
		links := s.cluster.CreditLinks()
		sort.SliceStable(links, func(i, j int) bool { return links[i].From < links[j].From })
		for _, l := range links {
			state := ""
			if l.Blocked {
				state = " blocked"
			}
			out = append(out, "credit "+s.rt.Process(l.From).Name+" -> "+s.rt.Process(l.To).Name+" "+
				strconv.Itoa(l.Credit)+"/"+strconv.Itoa(l.Initial)+state)
		}
	case "memory":
		m := s.node.Memory()
		alarm := "off"
		if len(s.cluster.Alarms()) > 0 {
			alarm = strings.Join(s.cluster.Alarms(), ",")
		}
		out = append(out, "memory used="+i64(m)+" watermark="+i64(s.node.Config.Watermark)+" alarm="+alarm)
	case "consumers":
		out = append(out, s.cluster.ConsumerLines()...)
	}
	return out
}
