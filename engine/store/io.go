package store

import (
	"fmt"
	"strings"
)

// IO counts the file operations (file I/O) one store call did, so that the
// simulation can charge virtual time for them.
type IO struct {
	Creates      int   // files created (or truncated by create)
	Mkdirs       int   // MkdirAll calls
	Removes      int   // files and directories removed
	Renames      int   // renames
	Writes       int   // write calls (one per contiguous range)
	BytesWritten int64 // bytes written
	Reads        int   // read calls
	BytesRead    int64 // bytes read
	Truncates    int   // truncate calls
	Syncs        int   // fsync of a file
	DirSyncs     int   // fsync of a directory
}

// Add adds o2 to o.
func (o *IO) Add(o2 IO) {
	o.Creates += o2.Creates
	o.Mkdirs += o2.Mkdirs
	o.Removes += o2.Removes
	o.Renames += o2.Renames
	o.Writes += o2.Writes
	o.BytesWritten += o2.BytesWritten
	o.Reads += o2.Reads
	o.BytesRead += o2.BytesRead
	o.Truncates += o2.Truncates
	o.Syncs += o2.Syncs
	o.DirSyncs += o2.DirSyncs
}

// sub returns o minus base.
func (o IO) sub(base IO) IO {
	return IO{
		Creates:      o.Creates - base.Creates,
		Mkdirs:       o.Mkdirs - base.Mkdirs,
		Removes:      o.Removes - base.Removes,
		Renames:      o.Renames - base.Renames,
		Writes:       o.Writes - base.Writes,
		BytesWritten: o.BytesWritten - base.BytesWritten,
		Reads:        o.Reads - base.Reads,
		BytesRead:    o.BytesRead - base.BytesRead,
		Truncates:    o.Truncates - base.Truncates,
		Syncs:        o.Syncs - base.Syncs,
		DirSyncs:     o.DirSyncs - base.DirSyncs,
	}
}

// IsZero reports whether no file operation was done.
func (o IO) IsZero() bool { return o == IO{} }

// String lists the non-zero counters: "2 writes (340 B), 1 sync".
func (o IO) String() string {
	var parts []string
	add := func(n int, what string) {
		if n == 1 {
			parts = append(parts, "1 "+what)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %ss", n, what))
		}
	}
	add(o.Creates, "create")
	add(o.Mkdirs, "mkdir")
	add(o.Removes, "remove")
	add(o.Renames, "rename")
	if o.Writes > 0 {
		add(o.Writes, "write")
		parts[len(parts)-1] += fmt.Sprintf(" (%d B)", o.BytesWritten)
	}
	if o.Reads > 0 {
		add(o.Reads, "read")
		parts[len(parts)-1] += fmt.Sprintf(" (%d B)", o.BytesRead)
	}
	add(o.Truncates, "truncate")
	add(o.Syncs, "sync")
	add(o.DirSyncs, "dir sync")
	if len(parts) == 0 {
		return "no file operations"
	}
	return strings.Join(parts, ", ")
}
