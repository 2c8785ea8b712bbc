package format

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"
)

// The expected bytes are term_to_binary/1 on OTP 25.
func TestEncodeTermKnownBytes(t *testing.T) {
	tests := []struct {
		term Term
		want []byte
	}{
		{int64(1), []byte{131, 97, 1}},
		{int64(255), []byte{131, 97, 255}},
		{int64(256), []byte{131, 98, 0, 0, 1, 0}},
		{int64(-1), []byte{131, 98, 255, 255, 255, 255}},
		{int64(1) << 40, []byte{131, 110, 6, 0, 0, 0, 0, 0, 0, 1}},
		{int64(-(1 << 40)), []byte{131, 110, 6, 1, 0, 0, 0, 0, 0, 1}},
		{1.5, []byte{131, 70, 63, 248, 0, 0, 0, 0, 0, 0}},
		{Atom("true"), []byte{131, 100, 0, 4, 't', 'r', 'u', 'e'}},
		{false, []byte{131, 100, 0, 5, 'f', 'a', 'l', 's', 'e'}},
		{Atom("é"), []byte{131, 100, 0, 1, 0xe9}},
		{Binary{1, 2}, []byte{131, 109, 0, 0, 0, 2, 1, 2}},
		{List{}, []byte{131, 106}},
		{List{int64(1), int64(2), int64(3)}, []byte{131, 107, 0, 3, 1, 2, 3}},
		{List{int64(1), int64(300)}, []byte{131, 108, 0, 0, 0, 2, 97, 1, 98, 0, 0, 1, 44, 106}},
		{List{Binary("a")}, []byte{131, 108, 0, 0, 0, 1, 109, 0, 0, 0, 1, 'a', 106}},
		{Tuple{Atom("a")}, []byte{131, 104, 1, 100, 0, 1, 'a'}},
	}
	for _, tc := range tests {
		got, err := EncodeTerm(tc.term)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("EncodeTerm(%#v) = %v, %v; want %v", tc.term, got, err, tc.want)
			continue
		}
		back, err := DecodeTerm("t", 0, got)
		if err != nil {
			t.Errorf("DecodeTerm(%v): %v", got, err)
			continue
		}
		want := tc.term
		if b, ok := want.(bool); ok {
			want = Atom("false")
			if b {
				want = Atom("true")
			}
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("DecodeTerm(%v) = %#v, want %#v", got, back, want)
		}
	}
}

func TestDecodeTermOtherForms(t *testing.T) {
	tests := []struct {
		in   []byte
		want Term
	}{
		{[]byte{131, 115, 1, 'a'}, Atom("a")},
		{[]byte{131, 118, 0, 2, 0xc4, 0x81}, Atom("ā")},
		{[]byte{131, 119, 2, 0xc4, 0x81}, Atom("ā")},
		{[]byte{131, 105, 0, 0, 0, 1, 97, 7}, Tuple{int64(7)}},
		{[]byte{131, 111, 0, 0, 0, 1, 1, 5}, int64(-5)},
		{[]byte{131, 110, 8, 1, 0, 0, 0, 0, 0, 0, 0, 0x80}, int64(math.MinInt64)},
	}
	for _, tc := range tests {
		got, err := DecodeTerm("t", 0, tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeTerm(%v) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

func TestDecodeTermErrors(t *testing.T) {
	deep := []byte{131}
	for i := 0; i < 200; i++ {
		deep = append(deep, 104, 1)
	}
	deep = append(deep, 106)
	tests := []struct {
		name string
		in   []byte
		kind error
		off  int64
	}{
		{"empty", nil, ErrTruncated, 0},
		{"version", []byte{130, 97, 1}, ErrMalformed, 0},
		{"trailing", []byte{131, 97, 1, 0}, ErrMalformed, 3},
		{"short binary", []byte{131, 109, 0, 0, 0, 9, 1}, ErrTruncated, 6},
		{"huge list", []byte{131, 108, 255, 255, 255, 255, 106}, ErrTruncated, 6},
		{"improper", []byte{131, 108, 0, 0, 0, 1, 97, 1, 97, 2}, ErrMalformed, 8},
		{"map", []byte{131, 116, 0, 0, 0, 0}, ErrMalformed, 1},
		{"big", []byte{131, 110, 9, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}, ErrMalformed, 1},
		{"deep", deep, ErrMalformed, 203},
		{"latin1 missing", []byte{131, 100, 0, 3, 'a'}, ErrTruncated, 4},
	}
	for _, tc := range tests {
		_, err := DecodeTerm("f.qs", 100, tc.in)
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, tc.kind) || de.Offset != 100+tc.off || de.File != "f.qs" {
			t.Errorf("%s: %v (offset %v), want kind %v at %d", tc.name, err, de, tc.kind, 100+tc.off)
		}
	}
}
