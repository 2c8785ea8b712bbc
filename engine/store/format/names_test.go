package format

import (
	"crypto/md5"
	"math/big"
	"strings"
	"testing"
)

func TestDirNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{VHostDirName("/"), "628WB79CIFDYO9LJI6DKMI09L"},
		{QueueDirName("/", "fx.v2"), "4OY5891YZFXPTW9JTXY2VNWGS"},
		{QueueDirName("/", "fx.v1"), "BTU471MODCIPU4OZDHM6TC34I"},
		{QueueDirName("/", "fx.prio"), "DTP8DFCDO3M63I6VJZUMVJ2TL"},
		{QueueDirName("/", PriorityQueueName("fx.prio", 0)), "AQEJL9AAESOJO48YW9K8ZNPFE"},
		{QueueDirName("/", PriorityQueueName("fx.prio", 3)), "6AJGRJGGVH3TSKUF7UVMCQNYD"},
		{QueueDirName("/", "oracle.store.v2"), "4JY16N9M2WFAX132V4UBM0911"},
		{QueueDirName("/", "fx.transient"), "C9XJ1YIPJNGQLAVZGBHM81HDV"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

// md5Base36 agrees with math/big on many inputs, including short results.
func TestMD5Base36(t *testing.T) {
	for i := 0; i < 2000; i++ {
		in := []byte(strings.Repeat("q", i%37) + string(rune('a'+i%26)) + big.NewInt(int64(i)).String())
		sum := md5.Sum(in)
		want := strings.ToUpper(new(big.Int).SetBytes(sum[:]).Text(36))
		if got := md5Base36(in); got != want {
			t.Fatalf("md5Base36(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSegmentFileNames(t *testing.T) {
	if SegmentFileName(12, ExtMsgStore) != "12.rdq" {
		t.Fatal(SegmentFileName(12, ExtMsgStore))
	}
	for name, want := range map[string]uint64{"0.qi": 0, "4096.qi": 4096} {
		if n, err := ParseSegmentFileName(name, ExtIndexV2); err != nil || n != want {
			t.Errorf("%s: %d %v", name, n, err)
		}
	}
	for _, bad := range []string{".qi", "01.qi", "a.qi", "0.qs", "-1.qi", "0.qi.bak"} {
		if _, err := ParseSegmentFileName(bad, ExtIndexV2); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestQueueNameFile(t *testing.T) {
	for _, q := range []QueueName{
		{VHost: "/", Queue: "fx.v1"},
		{VHost: "/", Queue: "fx.prio\x00\x02", IndexV2: true},
		{VHost: "/", Queue: "odd\nname", IndexV2: true},
	} {
		back, err := DecodeQueueName("q", q.Encode())
		if err != nil || back != q {
			t.Errorf("%+v: %+v %v", q, back, err)
		}
	}
	if got := string(QueueName{VHost: "/", Queue: "fx.v2", IndexV2: true}.Encode()); got != "VHOST: /\nQUEUE: fx.v2\nINDEX: v2\n" {
		t.Errorf("Encode = %q", got)
	}
	for _, bad := range []string{"", "VHOST: /", "VHOST: /\nQ", "VHOST: /\nQUEUE: x"} {
		if _, err := DecodeQueueName("q/.queue_name", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "q/.queue_name: offset ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestVHostConfig(t *testing.T) {
	b := EncodeVHostConfig(2048)
	if len(b) != 83 {
		t.Fatalf("%d bytes: %q", len(b), b)
	}
	for in, want := range map[string]int{string(b): 2048, "{segment_entry_count,16384}.": 16384} {
		if n, err := DecodeVHostConfig("c", []byte(in)); err != nil || n != want {
			t.Errorf("%q: %d %v", in, n, err)
		}
	}
	for _, bad := range []string{"", "{segment_entry_count, x}.", "{segment_entry_count, 0}.", "{segment_entry_count, 99999999}.", "{segment_entry_count 5}"} {
		if _, err := DecodeVHostConfig(".config", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), ".config: offset ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
