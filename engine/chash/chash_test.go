package chash

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"warren/internal/fixtures"
)

type observation struct {
	key    string
	bucket int
}

func loadReference(t *testing.T) []observation {
	t.Helper()
	// the routing observed on a real RabbitMQ 3.10.8 broker: keys
	// k0..k9999 over four weight-1 bindings chq.0..chq.3, bound in order
	referencePath := fixtures.ChashTable(t)
	f, err := os.Open(referencePath)
	if err != nil {
		t.Fatalf("reference data is required: %v", err)
	}
	defer f.Close()
	var obs []observation
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" {
			continue
		}
		key, queue, ok := strings.Cut(text, "\t")
		if !ok {
			t.Fatalf("%s:%d: no tab in %q", referencePath, line, text)
		}
		idx, ok := strings.CutPrefix(queue, "oracle.chq.")
		if !ok {
			t.Fatalf("%s:%d: unexpected queue %q", referencePath, line, queue)
		}
		j, err := strconv.Atoi(idx)
		if err != nil {
			t.Fatalf("%s:%d: bad queue index %q", referencePath, line, idx)
		}
		obs = append(obs, observation{key, j})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", referencePath, err)
	}
	return obs
}

func TestBrokerReference4x1(t *testing.T) {
	obs := loadReference(t)
	if len(obs) != 10000 {
		t.Fatalf("reference has %d lines, want 10000", len(obs))
	}
	weights := []int{1, 1, 1, 1}
	var counts [4]int
	mismatches := 0
	for _, o := range obs {
		b := Bucket([]byte(o.key), 4)
		p := Pick([]byte(o.key), weights)
		if b != o.bucket || p != o.bucket {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("key %q: Bucket=%d Pick=%d, broker chose %d", o.key, b, p, o.bucket)
			}
		}
		if p >= 0 {
			counts[p]++
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d of %d keys differ from the broker", mismatches, len(obs))
	}
	if want := [4]int{2499, 2485, 2442, 2574}; counts != want {
		t.Errorf("counts = %v, want %v", counts, want)
	}
}

func TestWeights1234Counts(t *testing.T) {
	weights := []int{1, 2, 3, 4}
	var counts [4]int
	for i := 0; i < 10000; i++ {
		counts[Pick([]byte("k"+strconv.Itoa(i)), weights)]++
	}
	if want := [4]int{1016, 1958, 2939, 4087}; counts != want {
		t.Errorf("counts = %v, want %v", counts, want)
	}
}

func TestPhash2Binary(t *testing.T) {
	for _, v := range phash2Vectors {
		b, err := hex.DecodeString(v.hex)
		if err != nil {
			t.Fatal(err)
		}
		if got := Phash2Binary(b); got != v.want {
			t.Errorf("phash2(<<16#%s>>) = %d, want %d", v.hex, got, v.want)
		}
	}
	known := map[string]uint32{
		"k0":                        92414295,
		"hello world, this is long": 86224811,
	}
	for k, want := range known {
		if got := Phash2Binary([]byte(k)); got != want {
			t.Errorf("phash2(<<%q>>) = %d, want %d", k, got, want)
		}
	}
}

func TestPhash2Undefined(t *testing.T) {
	if got, want := Phash2Undefined(), uint32(45914356); got != want {
		t.Errorf("phash2(undefined) = %d, want %d", got, want)
	}
}

func TestExs1024Uniform(t *testing.T) {
	for _, v := range uniformVectors {
		st := seedExs1024(uint64(v.seed), uint64(v.seed), uint64(v.seed))
		for i, want := range v.bits {
			got := st.uniform()
			if math.Float64bits(got) != want {
				t.Errorf("seed %d draw %d: %v, want %v", v.seed, i, got, math.Float64frombits(want))
			}
		}
	}
}

func TestJumpVectors(t *testing.T) {
	for _, v := range jumpVectors {
		k, err := hex.DecodeString(v.hex)
		if err != nil {
			t.Fatal(err)
		}
		if got := Bucket(k, v.n); got != v.bucket {
			t.Errorf("Bucket(%q, %d) = %d, want %d", k, v.n, got, v.bucket)
		}
	}
}

func TestEdgeCases(t *testing.T) {
	if got := Bucket([]byte("x"), 1); got != 0 {
		t.Errorf("Bucket with one bucket = %d", got)
	}
	if got := Bucket([]byte("x"), 0); got != -1 {
		t.Errorf("Bucket with no buckets = %d", got)
	}
	if got := Pick([]byte("x"), nil); got != -1 {
		t.Errorf("Pick with no bindings = %d", got)
	}
	if got := Pick([]byte("x"), []int{0, 3, 0}); got != 1 {
		t.Errorf("Pick with one weighted binding = %d", got)
	}
	for i := 0; i < 1000; i++ {
		key := []byte(fmt.Sprintf("edge-%d", i))
		for _, n := range []int{2, 3, 17, 1 << 20} {
			if b := Bucket(key, n); b < 0 || b >= n {
				t.Fatalf("Bucket(%q, %d) = %d out of range", key, n, b)
			}
		}
	}
}

func BenchmarkPick(b *testing.B) {
	keys := make([][]byte, 1024)
	for i := range keys {
		keys[i] = []byte("k" + strconv.Itoa(i))
	}
	weights := []int{1, 2, 3, 4}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Pick(keys[i&1023], weights)
	}
}
