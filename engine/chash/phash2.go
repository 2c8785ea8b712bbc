package chash

// Constants from the Erlang runtime's make_hash2: the golden-ratio seed of
// Bob Jenkins' lookup2 mixer and the per-type salts derived from it.
const (
	hconst   uint32 = 0x9e3779b9
	hconst13 uint32 = 0x08d12e65 // binaries

	// phash2Mask is the range reduction erlang:phash2/1 applies to the
	// 32-bit make_hash2 value: the result is in 0..2^27-1.
	phash2Mask uint32 = (1 << 27) - 1
)

// mix is the lookup2 mixing step (the MIX macro of the Erlang runtime).
func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= b
	a -= c
	a ^= c >> 13
	b -= c
	b -= a
	b ^= a << 8
	c -= a
	c -= b
	c ^= b >> 13
	a -= b
	a -= c
	a ^= c >> 12
	b -= c
	b -= a
	b ^= a << 16
	c -= a
	c -= b
	c ^= b >> 5
	a -= b
	a -= c
	a ^= c >> 3
	b -= c
	b -= a
	b ^= a << 10
	c -= a
	c -= b
	c ^= b >> 15
	return a, b, c
}

// le32 reads four bytes as a little-endian word.
func le32(k []byte) uint32 {
	return uint32(k[0]) | uint32(k[1])<<8 | uint32(k[2])<<16 | uint32(k[3])<<24
}

// blockHash is the runtime's block_hash: lookup2 over a byte string with the
// given initial value, whole 12-byte blocks first, then the tail, with the
// total length added into c.
func blockHash(k []byte, initval uint32) uint32 {
	a, b, c := hconst, hconst, initval
	n := len(k)
	for len(k) >= 12 {
		a += le32(k[0:4])
		b += le32(k[4:8])
		c += le32(k[8:12])
		a, b, c = mix(a, b, c)
		k = k[12:]
	}
	// The length is truncated to 32 bits, as in the runtime.
	c += uint32(n)
	// Tail bytes; the low byte of c is reserved for the length.
	switch len(k) {
	case 11:
		c += uint32(k[10]) << 24
		fallthrough
	case 10:
		c += uint32(k[9]) << 16
		fallthrough
	case 9:
		c += uint32(k[8]) << 8
		fallthrough
	case 8:
		b += uint32(k[7]) << 24
		fallthrough
	case 7:
		b += uint32(k[6]) << 16
		fallthrough
	case 6:
		b += uint32(k[5]) << 8
		fallthrough
	case 5:
		b += uint32(k[4])
		fallthrough
	case 4:
		a += uint32(k[3]) << 24
		fallthrough
	case 3:
		a += uint32(k[2]) << 16
		fallthrough
	case 2:
		a += uint32(k[1]) << 8
		fallthrough
	case 1:
		a += uint32(k[0])
	}
	_, _, c = mix(a, b, c)
	return c
}

// makeHash2Binary is make_hash2 of a byte-aligned binary at the top level of
// the term (the running hash is still 0, so the salt is HCONST_13 alone).
func makeHash2Binary(b []byte) uint32 {
	con := hconst13
	if len(b) == 0 {
		return con
	}
	return blockHash(b, con)
}

// Phash2Binary returns erlang:phash2(<<b>>) for a binary made of the bytes
// of b: a value in 0..2^27-1.
func Phash2Binary(b []byte) uint32 {
	return makeHash2Binary(b) & phash2Mask
}

// atomHash is the runtime's atom_hash: hashpjw over the UTF-8 text of the
// atom's name, with the "latin1 clutch" that folds a two-byte UTF-8 sequence
// for a code point below 256 back into one byte. make_hash2 returns this
// value unmixed for an atom at the top level of a term.
func atomHash(name string) uint32 {
	var h uint32
	for i := 0; i < len(name); i++ {
		v := name[i]
		if i+1 < len(name) && v&0xFE == 0xC2 && name[i+1]&0xC0 == 0x80 {
			v = v<<6 | name[i+1]&0x3F
			i++
		}
		h = h<<4 + uint32(v)
		if g := h & 0xf0000000; g != 0 {
			h ^= g >> 24
			h ^= g
		}
	}
	return h
}

// Phash2Undefined returns erlang:phash2(undefined), the key the exchange
// hashes when the configured hash header or property is absent.
func Phash2Undefined() uint32 {
	return atomHash("undefined") & phash2Mask
}
