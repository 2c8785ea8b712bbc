package chash

// exs1024 is the state of Erlang's rand algorithm exs1024 (xorshift1024*).
// rand.erl keeps the sixteen words as a pair of lists; that layout is
// equivalent to a ring of sixteen words with a cursor p at the head of the
// first list.
type exs1024 struct {
	s [16]uint64
	p int
}

// exs64Next is rand.erl's exs64_next (xorshift64*): it returns the output
// word and the new state.
func exs64Next(r uint64) (uint64, uint64) {
	r ^= r >> 12
	r ^= r << 25
	r ^= r >> 27
	return r * 2685821657736338717, r
}

// seedExs1024 reproduces rand:seed_s(exs1024, {a1, a2, a3}) for
// non-negative seed integers: the three integers are folded into one odd
// 64-bit word, from which sixteen xorshift64* outputs fill the state. The
// outputs are consed onto a list, so the last one generated is the head.
func seedExs1024(a1, a2, a3 uint64) exs1024 {
	const m21 = 1<<21 - 1
	b1 := ((a1&m21 + 1) * 2097131) & m21
	b2 := ((a2&m21 + 1) * 2097133) & m21
	b3 := ((a3&m21 + 1) * 2097143) & m21
	r := b1<<43 | b2<<22 | b3<<1 | 1
	var st exs1024
	for i := 15; i >= 0; i-- {
		st.s[i], r = exs64Next(r)
	}
	return st
}

// next is rand.erl's exs1024_next: one xorshift1024* step.
func (st *exs1024) next() uint64 {
	s0 := st.s[st.p]
	st.p = (st.p + 1) & 15
	s1 := st.s[st.p]
	s1 ^= s1 << 31
	s1 ^= s1 >> 11
	s0 ^= s0 >> 30
	ns1 := s0 ^ s1
	st.s[st.p] = ns1
	return ns1 * 1181783497276652981
}

// two64 is 2^64 as a float64, the divisor rand:uniform_s/1 uses for
// algorithms described by max = 2^64-1.
const two64 = 18446744073709551616.0

// uniform is rand:uniform_s/1 for exs1024. exs1024's handler has 'max' and
// neither 'uniform' nor 'bits', so the float is V / (Max + 1): V converted
// to the nearest double, then divided by 2^64 (exact). The result lies in
// [0.0, 1.0).
func (st *exs1024) uniform() float64 {
	return float64(st.next()) / two64
}
