package node

// Faults injected into a node's disk, and where RabbitMQ 3.10.8 meets
// them. A classic queue's index and store files are written by the queue
// process itself (rabbit_classic_queue_index_v2 and
// rabbit_classic_queue_store_v2 call file:pwrite, file:write and
// file:sync as `ok = ...`; the v1 index goes through file_handle_cache
// the same way): a failed write or fsync is a badmatch, and the queue
// process crashes. Its supervisor restarts it (see crash.go), and the new
// process recovers from its files as after any crash, meeting the fault
// again at its next write, until the supervisor gives up.
//
// The message store's files are not faulted: when rabbit_msg_store meets
// a failed write or fsync it crashes, and rabbit_vhost_sup (one_for_all,
// no restarts) takes every queue of the vhost down with it, which the
// simulation does not model.

import (
	"errors"
	"path"
	"strconv"
	"strings"

	"warren/engine/say"
	"warren/engine/script"
	"warren/engine/vfs"
)

// storeFiles are names the message store writes, for refusing a fault on them.
var storeFiles = []string{"msg_store_persistent/0.rdq", "0.rdq", "msg_store_transient/12.rdq", "12.rdq", "file_summary.ets",
	"msg_store_index.ets", "clean.dot", "msg_store_persistent", "msg_store_transient"}

// injectable says whether a word of the fault command names a fault the
// disk can take (the vfs kinds are the language's words).
func injectable(kind string) bool {
	switch kind {
	case vfs.FaultSyncFail, vfs.FaultWriteFail, vfs.FaultENOSPC:
		return true
	}
	return false
}

// CheckFault says whether a fault can be set on the node's disk, without
// setting it.
func (n *Node) CheckFault(kind, pattern string) error {
	if kind == "clear" {
		return nil
	}
	if !injectable(kind) {
		return say.E("con.faultUnknown", strconv.Quote(kind), strings.Join(script.FaultWords, ", "))
	}
	if pattern == "" {
		return say.E("con.faultNoPath", kind)
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return say.Wrap("con.faultBadPath", err, kind, strconv.Quote(pattern))
	}
	for _, f := range storeFiles {
		if ok, _ := path.Match(pattern, f); ok {
			return say.E("con.faultMsgStore", kind, pattern, f)
		}
	}
	return nil
}

// SetFault injects a fault into the node's disk: sync-fail, write-fail or
// enospc on every file whose name or base name matches pattern; clear
// removes every fault.
func (n *Node) SetFault(kind, pattern string) error {
	if err := n.CheckFault(kind, pattern); err != nil {
		return err
	}
	if kind == "clear" {
		n.Disk.ClearFaults()
		return nil
	}
	return n.Disk.SetFault(kind, pattern)
}

// DiskLines is show disk: each node's faults,, then the last file operations,
// oldest first, their paths relative to the vhost's directory.
func (c *Cluster) DiskLines() []string {
	var out []string
	for _, m := range c.members {
		prefix := ""
		if len(c.members) > 1 {
			prefix = m.Name + " "
		}
		for _, f := range m.Disk.Faults() {
			out = append(out, "fault "+prefix+f.Kind+" path="+f.Pattern)
		}
		for _, change := range m.Disk.Recent() {
			out = append(out, prefix+change.Format(relPath(change.Path), relPath(change.To)))
		}
	}
	return out
}

// relPath is a path on the node's disk as show disk prints it: inside the
// vhost's directory (msg_stores/vhosts/HASH/).
func relPath(p string) string {
	const vhosts = "msg_stores/vhosts/"
	i := strings.Index(p, vhosts)
	if i < 0 {
		return p
	}
	rest := p[i+len(vhosts):]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return rest[j+1:]
	}
	return "."
}

// fault records a failed file operation of the queue's own files. An
// injected fault (a failed write or fsync) crashes the queue process once
// the event is over (see crashOnFault); another error is only recorded.
func (q *queue) fault(err error) {
	if err == nil {
		return
	}
	q.n.storageFault(err)
	var fe *vfs.FaultError
	if errors.As(err, &fe) && q.failed == nil {
		q.failed = err
	}
}

// crashOnFault ends the event of a queue process that met a fault: the
// `ok = file:...` badmatch crashes it, and its supervisor acts as for
// crash queue=Q.
func (q *queue) crashOnFault() {
	if q.failed == nil || q.deleted {
		return
	}
	q.failed = nil
	if err := q.n.cluster.CrashQueue(q.rec.Name); err != nil {
		q.n.storageFault(err)
	}
}
