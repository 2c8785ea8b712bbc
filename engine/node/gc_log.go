package node

import (
	"path"
	"strconv"

	"warren/engine/say"
	"warren/engine/store"
	"warren/engine/store/format"
)

// The GC log that show gc prints and the widget reads: each step of a
// message store GC job (rabbit_msg_store_gc: 3.10's merge of a file into
// its left neighbour, 3.13's compaction of a file in place, the deletion
// of a file with nothing live), framed by a line when the job starts, with
// its files' live and dead bytes, and one when it ends; each entry the job
// moved has its own line.

// maxGCLog bounds the lines kept.
const maxGCLog = 200

// gcJobLog is what the log keeps of a job under way.
type gcJobLog struct {
	start int64 // virtual µs
	moved map[format.MsgID]bool
	files []uint64 // the job's files
	step  say.Text // the line of its latest step
}

// addGCLine appends one line to the log, dropping the oldest past maxGCLog.
func (n *Node) addGCLine(line say.Text) {
	n.GCLog = append(n.GCLog, line.String())
	n.GCSaid = append(n.GCSaid, line)
	if len(n.GCLog) > maxGCLog {
		n.GCLog = n.GCLog[len(n.GCLog)-maxGCLog:]
		n.GCSaid = n.GCSaid[len(n.GCSaid)-maxGCLog:]
	}
}

// logJob logs one step: before the first step of a job a start line with
// the job's files as they were (before), the step itself, a line for each
// entry it wrote at a new place, and after the last step an end line with
// how long the job took, how many entries it moved and its files now.
func (g *msgStoreGC) logJob(rep store.GCReport, before []store.FileInfo) {
	n := g.n
	now := n.cluster.RT.Now()
	if g.jobs == nil {
		g.jobs = map[string]gcJobLog{}
	}
	j, ok := g.jobs[rep.Job]
	if rep.Start || !ok {
		j = gcJobLog{start: now, moved: map[format.MsgID]bool{}}
	}
	if rep.Start {
		n.addGCLine(say.T("con.gc.start", rep.JobSaid, msText(now), path.Base(g.st.Dir()), filesWords(before, rep.Files)))
	}
	j.files, j.step = rep.Files, n.logGC(rep)
	for _, m := range rep.Moved {
		j.moved[m.ID] = true
		n.addGCLine(say.T("con.gc.moved", rep.JobSaid, m.ID.String(), strconv.FormatUint(m.FromFile, 10)+".rdq@"+strconv.FormatInt(m.FromOffset, 10),
			path.Base(rep.File)+"@"+strconv.FormatInt(m.ToOffset, 10), strconv.FormatInt(m.Size, 10)))
	}
	if !rep.Done {
		g.jobs[rep.Job] = j
		return
	}
	delete(g.jobs, rep.Job)
	n.addGCLine(say.T("con.gc.end", rep.JobSaid, msText(now), msText(now-j.start), strconv.Itoa(len(j.moved)), filesWords(g.st.Files(), rep.Files)))
}

// filesWords says, for each of nums, the file's size and its live and
// dead bytes, or that it is gone.
func filesWords(files []store.FileInfo, nums []uint64) say.Text {
	var out say.Text
	for i, num := range nums {
		w := say.S("con.gc.fileGone", strconv.FormatUint(num, 10)+".rdq")
		for _, f := range files {
			if f.Num == num {
				w = say.Words(strconv.FormatUint(num, 10) + ".rdq size=" + strconv.FormatInt(f.Size, 10) + " live=" + strconv.FormatInt(f.Valid, 10) +
					" dead=" + strconv.FormatInt(f.Size-f.Valid, 10))
			}
		}
		if i == 0 {
			out = w
		} else {
			out = say.T("con.gc.files", out, w)
		}
	}
	return out
}

// msText writes virtual µs as milliseconds, as the trace does.
func msText(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', 3, 64) + "ms" }

// GCStatus is show gc's line per message store, as a sentence: its
// files, their live and dead bytes, and the rule by which the collector
// starts.
func (n *Node) GCStatus() []say.Text {
	if n.vhost == nil {
		return nil
	}
	var out []say.Text
	for _, persistent := range []bool{true, false} {
		st := n.vhost.Store(persistent)
		if st == nil {
			continue
		}
		valid, size := st.Totals()
		if !persistent && size == 0 {
			continue // the transient store, with nothing in it
		}
		share := "0.0%"
		if size > 0 {
			share = strconv.FormatFloat(float64(size-valid)*100/float64(size), 'f', 1, 64) + "%"
		}
		fields := "gc store " + path.Base(st.Dir()) + " files=" + strconv.Itoa(len(st.Files())) + " size=" + strconv.FormatInt(size, 10) +
			" live=" + strconv.FormatInt(valid, 10) + " dead=" + strconv.FormatInt(size-valid, 10)
		if st.CompactsInPlace() {
			out = append(out, say.S("con.show.gcCompact", fields, share))
		} else {
			out = append(out, say.S("con.show.gcCombine", fields, share, strconv.FormatInt(2*st.FileSizeLimit(), 10)))
		}
	}
	return out
}

// gcWork maps each message store file a GC job is working on
// ("msg_store_persistent/1.rdq") to the job's latest step.
func (n *Node) gcWork() map[string]say.Text {
	out := map[string]say.Text{}
	for _, pid := range n.stores {
		p := n.cluster.RT.Process(pid)
		if p == nil {
			continue
		}
		h, ok := p.Handler.(*msgStoreProc)
		if !ok {
			continue
		}
		gp := n.cluster.RT.Process(h.gc)
		if gp == nil {
			continue
		}
		g, ok := gp.Handler.(*msgStoreGC)
		if !ok {
			continue
		}
		for _, j := range g.jobs {
			for _, f := range j.files {
				out[path.Base(h.st.Dir())+"/"+strconv.FormatUint(f, 10)+".rdq"] = j.step
			}
		}
	}
	return out
}
