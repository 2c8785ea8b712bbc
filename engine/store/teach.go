package store

// CurrentFile is the number of the file the store writes to now: N of
// N.rdq (rabbit_msg_store's current_file).
func (s *MsgStore) CurrentFile() uint64 { return s.current }
