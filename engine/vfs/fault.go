package vfs

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Fault kinds a scenario can inject by name: the words of the language's
// fault command (sync-fail, write-fail, enospc), and sync-lost, which the
// engine sets itself.
const (
	// FaultSyncFail makes Sync of a matching file, or SyncDir of a matching
	// directory, fail; nothing becomes durable.
	FaultSyncFail = "sync-fail"
	// FaultWriteFail makes Write, WriteAt and Truncate of a matching file fail
	// without changing it.
	FaultWriteFail = "write-fail"
	// FaultENOSPC makes any write or truncate that would grow a matching
	// file fail without changing it, as a full disk does (POSIX ENOSPC);
	// writes inside the current size succeed.
	FaultENOSPC = "enospc"
	// FaultSyncLost makes Sync of a matching file, or SyncDir of a matching
	// directory, succeed without making anything durable: a disk whose
	// write cache acknowledges a flush it loses on a power cut, or a store
	// whose fsync calls were taken out. A process crash loses nothing by
	// it; a power loss loses every write since the file was created.
	FaultSyncLost = "sync-lost"
)

// faultKinds lists the valid fault kinds, sorted.
var faultKinds = []string{FaultENOSPC, FaultSyncFail, FaultSyncLost, FaultWriteFail}

// Fault is one injected fault: a kind and the glob pattern of the paths it
// applies to.
type Fault struct {
	Kind    string
	Pattern string
}

// String returns the fault as a scenario would write it.
func (f Fault) String() string { return f.Kind + " path=" + f.Pattern }

// FaultError is the error a faulted operation returns.
type FaultError struct {
	Call  string // the file call: "sync", "write", "truncate", "sync-dir"
	Path  string // the file or directory operated on
	Fault Fault
}

// Error names the operation, the file and the fault.
func (e *FaultError) Error() string {
	return fmt.Sprintf("%s %s: injected fault %s (pattern %s)", e.Call, e.Path, e.Fault.Kind, e.Fault.Pattern)
}

// faultSet is the set of active faults, kept in the order they were set.
type faultSet struct {
	faults []Fault
}

// set adds a fault after checking its kind and pattern.
func (s *faultSet) set(kind, pattern string) error {
	if !validFaultKind(kind) {
		return fmt.Errorf("unknown fault kind %q (valid: %s)", kind, strings.Join(faultKinds, ", "))
	}
	if pattern == "" {
		return fmt.Errorf("fault %s: empty path pattern", kind)
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return fmt.Errorf("fault %s: bad path pattern %q: %v", kind, pattern, err)
	}
	f := Fault{Kind: kind, Pattern: pattern}
	for _, have := range s.faults {
		if have == f {
			return nil
		}
	}
	s.faults = append(s.faults, f)
	return nil
}

// match returns the first active fault of kind that applies to name.
func (s *faultSet) match(kind, name string) (Fault, bool) {
	for _, f := range s.faults {
		if f.Kind != kind {
			continue
		}
		if ok, _ := path.Match(f.Pattern, name); ok {
			return f, true
		}
		if ok, _ := path.Match(f.Pattern, path.Base(name)); ok {
			return f, true
		}
	}
	return Fault{}, false
}

// check returns a FaultError when a fault of kind applies to name.
func (s *faultSet) check(kind, op, name string) error {
	if f, ok := s.match(kind, name); ok {
		return &FaultError{Call: op, Path: name, Fault: f}
	}
	return nil
}

// list returns the active faults sorted by kind then pattern.
func (s *faultSet) list() []Fault {
	out := append([]Fault(nil), s.faults...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Pattern < out[j].Pattern
	})
	return out
}

func validFaultKind(kind string) bool {
	for _, k := range faultKinds {
		if k == kind {
			return true
		}
	}
	return false
}
