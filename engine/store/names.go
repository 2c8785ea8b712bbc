package store

import (
	"path"

	"warren/engine/internal/order"
	"warren/engine/store/format"
)

// Names of the directories and files of a vhost, as rabbit_vhost,
// rabbit_msg_store and the queue indexes name them.
const (
	msgStoresDir       = "msg_stores"
	vhostsDir          = "vhosts"
	queuesDir          = "queues"
	persistentStoreDir = "msg_store_persistent"
	transientStoreDir  = "msg_store_transient"
	tmpExt             = ".rdt" // a compaction's temporary copy of a .rdq
	cleanFile          = "clean.dot"
	fileSummaryFile    = "file_summary.ets"
	indexFile          = "msg_store_index.ets"
	termTmpExt         = ".tmp" // rabbit_file:write_file writes via Path.tmp
)

// VHostDir returns the vhost directory under a node's data directory root:
// root/msg_stores/vhosts/<VHostDirName(vhost)>.
func VHostDir(root, vhost string) string {
	return path.Join(root, msgStoresDir, vhostsDir, format.VHostDirName(vhost))
}

// segmentName returns "<n><ext>".
func segmentName(n uint64, ext string) string { return format.SegmentFileName(n, ext) }

// parseSegmentName returns n for a file named "<n><ext>".
func parseSegmentName(name, ext string) (uint64, error) {
	return format.ParseSegmentFileName(name, ext)
}

func sortStrings(s []string) { order.Strings(s) }
