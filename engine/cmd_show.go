package engine

// The show command: views of the simulation as text, one line per thing
// shown. A view changes nothing.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"warren/engine/say"
	"warren/engine/script"
)

// showCommands are the views.
var showCommands = []command{
	{"show", handler{family: familyShow, run: func(s *Sim, cmd script.Command, _ bool) ([]string, error) {
		views := cmd.Words()
		if len(views) == 0 {
			views = []string{"processes"}
		}
		var out []string
		for _, v := range views {
			out = append(out, s.show(v)...)
		}
		return out, nil
	}}},
}

// show prints one view of the node as text.
func (s *Sim) show(view string) []string {
	var out []string
	switch view {
	case "files":
		out = append(out, s.node.ShowFiles()...)
	case "disk":
		out = append(out, s.cluster.DiskLines()...)
	case "reads":
		out = append(out, s.node.ReadLines()...)
	case "process-memory":
		out = append(out, s.processMemory()...)
	case "gc":
		// the steps of every job so far, then where each store stands
		for _, l := range s.node.GCSaid {
			out = append(out, s.sayLine(say.T("con.gc.line", l)))
		}
		out = append(out, s.sayLines(s.node.GCStatus())...)
	case "throughput":
		// what the last command that ran events moved, over its span
		span := s.rt.LastEnd() - s.baseline.time
		st, m := s.cluster.Stats, s.baseline.stats
		rate := func(n int64) string {
			if span <= 0 {
				return "0"
			}
			return strconv.FormatFloat(float64(n)*1e6/float64(span), 'f', 0, 64)
		}
		count := func(name string, n int64) string { return " " + name + "=" + i64(n) + " (" + rate(n) + "/s)" }
		counts := count("published", st.Published-m.Published) + count("delivered", st.Delivered-m.Delivered) + count("acked", st.Acked-m.Acked)
		out = append(out, s.sayLine(say.S("con.show.throughput", formatTime(max(span, 0)), counts[1:])))
	case "rates":
		out = append(out, s.rates(60)...)
	case "schedulers":
		// over the span of the last command that ran events
		span := s.rt.LastEnd() - s.baseline.time
		members := s.cluster.Members()
		total := make([]int64, len(members))
		count := make([]int64, len(members))
		for i, sc := range s.rt.Schedulers() {
			busy := sc.Busy
			if i < len(s.baseline.busy) {
				busy -= s.baseline.busy[i]
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
			out = append(out, s.sayLine(say.S("con.show.nodeCpu", line+percent(total[g], span*count[g]), i64(count[g]), formatTime(max(span, 0)))))
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
			out = append(out, s.sayLines(t.Lines())...)
		}
	case "cluster":
		out = append(out, s.sayLines(s.cluster.ClusterLines())...)
	case "queues":
		for _, q := range s.cluster.ListQueues() {
			out = append(out, "queue "+q.Name+" ready="+strconv.Itoa(q.Ready)+" unacked="+strconv.Itoa(q.Unack)+
				" consumers="+strconv.Itoa(q.Consumers)+" bytes="+i64(q.ReadyBytes))
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

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func percent(part, whole int64) string {
	if whole <= 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", float64(part)*100/float64(whole))
}
