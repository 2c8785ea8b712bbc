package engine

// show process-memory: what the node's processes take at the least. On
// OTP 25 erlang:process_info(P, memory) says 2640 bytes, 330 words of 8
// bytes, for a freshly spawned process that waits in receive: its initial
// heap of 233 words, its stack and its process control block (measured on
// OTP 25.2.3; the efficiency guide's 309 words was measured on an old
// non-SMP emulator). A RabbitMQ process holds more once its state grows;
// warren does not model how much, so each line says the floor.

import "strconv"

// freshProcessWords is the memory of a fresh idle process on OTP 25, in
// words.
const freshProcessWords = 330

// wordBytes is the size of a word on a 64-bit emulator.
const wordBytes = 8

// processMemory prints one line per live process, `NAME pid=N words>=330
// bytes>=2640`, then their total: `process-memory processes=N words>=W
// bytes>=B`.
func (s *Sim) processMemory() []string {
	var out []string
	n := 0
	floor := " words>=" + strconv.Itoa(freshProcessWords) + " bytes>=" + strconv.Itoa(freshProcessWords*wordBytes)
	for _, p := range s.rt.Processes() {
		if p.State().String() == "exited" {
			continue
		}
		n++
		out = append(out, p.Name+" pid="+i64(int64(p.PID))+floor)
	}
	return append(out, "process-memory processes="+strconv.Itoa(n)+
		" words>="+strconv.Itoa(n*freshProcessWords)+" bytes>="+strconv.Itoa(n*freshProcessWords*wordBytes))
}
