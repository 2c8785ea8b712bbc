package engine

import "warren/engine/script"

// trialStateBytes is the largest state tryFirst copies: a larger one (a
// simulation holding hundreds of megabytes of messages) acts as it did
// before the trial existed.
const trialStateBytes = 64 << 20

// tryFirst applies an operator or control command to a copy of the
// simulation first, when a fault is set on a disk: such a command can
// fail while it acts (stop_app or restart whose queue cannot sync its
// index as it stops), after it has closed connections and moved the
// clock. Tried on the copy, the failure is a refusal that changes nothing:
// the error is returned and the simulation is not touched. Without a
// fault, or when the state cannot be copied (a closure in flight, or one
// past trialStateBytes), it returns nil and the command acts as always.
func (s *Sim) tryFirst(h handler, cmd script.Command) error {
	if h.apply == nil || (h.family != familyOperator && h.family != familyControl) || !s.faultsSet() {
		return nil
	}
	st, _, err := s.copyState(trialStateBytes)
	if err != nil {
		return nil
	}
	trial := &Sim{state: *st, history: history{transcript: &lineLog{}}, settings: s.settings}
	trial.opts.Record, trial.opts.DiscardTrace = false, true
	trial.link()
	_, err = trial.applyCommand(cmd)
	return err
}

// faultsSet says whether a fault is set on any node's disk.
func (s *Sim) faultsSet() bool {
	for _, m := range s.cluster.Members() {
		if m.Disk != nil && len(m.Disk.Faults()) > 0 {
			return true
		}
	}
	return false
}
