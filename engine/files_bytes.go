package engine

import "warren/engine/node"

// FileBytes is one file of the node's disk read field by field: every
// byte named in its layout, its entries and their states (the Files view
// draws it as annotated bytes).
type FileBytes = node.FileBytes

// FileBytes reads the file the snapshot's Files name path, as it is at
// the moment shown.
func (s *Sim) FileBytes(path string) (FileBytes, error) { return s.node.FileBytes(path) }
