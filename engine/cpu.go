package engine

import (
	"sort"

	"warren/engine/beam"
	"warren/engine/say"
)

// cpuLines is the `show cpu` view: the processes that ran during the last
// command that ran events, busiest first, each with the share of one
// scheduler it used and its share of the whole node. A process runs on
// one scheduler at a time, so no process can pass 100% of one scheduler,
// and on a node with N schedulers none can pass 1/N of the node.
func (s *Sim) cpuLines() []string {
	span := s.rt.LastEnd() - s.baseline.time
	members := s.cluster.Members()
	per := make([]int64, len(members)) // schedulers per node
	for _, sc := range s.rt.Schedulers() {
		per[sc.Group]++
	}
	type used struct {
		p    *beam.Process
		busy int64
	}
	var list []used
	for _, p := range s.rt.Processes() {
		if b := p.Busy - s.baseline.procBusy[p.PID]; b > 0 {
			list = append(list, used{p, b})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].busy > list[j].busy })
	out := make([]string, 0, len(list))
	for _, u := range list {
		name := u.p.Name
		if len(members) > 1 {
			name += " on " + members[u.p.Group].Name
		}
		out = append(out, name+" busy="+formatTime(u.busy)+" one-scheduler="+percent(u.busy, span)+
			" node="+percent(u.busy, span*per[u.p.Group]))
	}
	if len(out) == 0 {
		out = append(out, s.sayLine(say.T("con.show.noProcess")))
	}
	return out
}
