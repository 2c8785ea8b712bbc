package format

import (
	"crypto/md5"
	"testing"
)

func TestMD5MatchesCrypto(t *testing.T) {
	for n := 0; n < 300; n++ {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + n)
		}
		if got, want := md5Sum(data), md5.Sum(data); got != want {
			t.Fatalf("md5 of %d bytes: %x, want %x", n, got, want)
		}
	}
}
