package chash

// jump reproduces the plugin's jump_consistent_hash/2 for an integer key
// (an erlang:phash2 value) and n >= 1 buckets:
//
//	jump_consistent_hash(_Key, 1) -> 0;
//	SeedState = rand:seed_s(exs1024, {Key, Key, Key}),
//	loop: B = J, {R, S} = rand:uniform_s(S0), J = trunc((B + 1) / R)
//	until J >= NumberOfBuckets, returning B.
func jump(key uint32, n int) int {
	if n == 1 {
		return 0
	}
	k := uint64(key)
	st := seedExs1024(k, k, k)
	limit := float64(n)
	b, j := -1, 0
	for j < n {
		b = j
		r := st.uniform()
		// Erlang evaluates (B + 1) / R in double precision. For a positive
		// quotient, trunc(q) >= n exactly when q >= n, so the comparison is
		// made on the float to avoid converting huge quotients. R = 0.0 would
		// make Erlang raise badarith (a probability of 2^-64 per draw); here
		// the quotient is +Inf and the loop ends.
		q := float64(b+1) / r
		if q >= limit {
			break
		}
		j = int(q)
	}
	return b
}

// Bucket returns the 0-based bucket in [0, totalWeight) that the
// consistent-hash exchange selects for a message whose routing key is key,
// for a ring of totalWeight buckets (the sum of the binding weights). It
// returns -1 when totalWeight < 1, where the exchange routes nowhere.
func Bucket(key []byte, totalWeight int) int {
	if totalWeight < 1 {
		return -1
	}
	return jump(Phash2Binary(key), totalWeight)
}

// Pick returns the index of the binding that receives key, given the binding
// weights in binding order: binding i owns weights[i] consecutive buckets
// following those of the bindings before it. Non-positive weights own no
// buckets. Pick returns -1 when the weights sum to less than 1. The caller
// is responsible for the plugin's rule that a second binding to the same
// destination adds no buckets.
func Pick(key []byte, weights []int) int {
	return PickHash(Phash2Binary(key), weights)
}

// PickHash is Pick for a hash already computed (for example
// Phash2Undefined, for a message that lacks the hash header).
func PickHash(hash uint32, weights []int) int {
	total := 0
	for _, w := range weights {
		if w > 0 {
			total += w
		}
	}
	if total < 1 {
		return -1
	}
	bucket := jump(hash, total)
	for i, w := range weights {
		if w <= 0 {
			continue
		}
		if bucket < w {
			return i
		}
		bucket -= w
	}
	return -1
}
