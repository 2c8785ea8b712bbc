package vfs

// CrashProcess simulates the crash of the process using the filesystem: every
// write that reached the page cache survives, synced or not. Handles opened
// before the crash stop working.
func (m *MemFS) CrashProcess() {
	m.gen++
	m.record("crash: process", nil)
}

// PowerLoss simulates losing power: each file keeps only its content as of its
// last Sync, and each directory only its entries as of its last SyncDir (a file
// whose directory was never synced disappears; a removal that was not synced
// comes back). Handles opened before the power loss stop working.
func (m *MemFS) PowerLoss() {
	m.gen++
	seen := map[*memNode]bool{}
	var reset func(n *memNode)
	reset = func(n *memNode) {
		if seen[n] {
			return
		}
		seen[n] = true
		if !n.dir {
			n.data.copyOf(&n.syncedData, 0)
			n.clean = n.data.size()
			return
		}
		n.children = make(map[string]*memNode, len(n.synced))
		for k, v := range n.synced {
			n.children[k] = v
		}
		for _, c := range n.children {
			reset(c)
		}
	}
	reset(m.root)
	m.record("crash: power-loss", nil)
}

// Clone returns a deep copy of the filesystem (current and durable state,
// faults and trace), for checkpoints. Handles are not carried over.
func (m *MemFS) Clone() *MemFS {
	copies := map[*memNode]*memNode{}
	var clone func(n *memNode) *memNode
	clone = func(n *memNode) *memNode {
		if c, ok := copies[n]; ok {
			return c
		}
		c := &memNode{dir: n.dir}
		copies[n] = c
		if !n.dir {
			c.data.copyOf(&n.data, 0)
			c.syncedData.copyOf(&n.syncedData, 0)
			c.clean = n.clean
			return c
		}
		c.children = make(map[string]*memNode, len(n.children))
		c.synced = make(map[string]*memNode, len(n.synced))
		for k, v := range n.children {
			c.children[k] = clone(v)
		}
		for k, v := range n.synced {
			c.synced[k] = clone(v)
		}
		return c
	}
	return &MemFS{
		root:   clone(m.root),
		faults: faultSet{faults: append([]Fault(nil), m.faults.faults...)},
		trace:  append([]string(nil), m.trace...),
		quiet:  m.quiet,
	}
}
