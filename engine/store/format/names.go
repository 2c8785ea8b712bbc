package format

import (
	"fmt"
	"strconv"
	"strings"
)

// Models rabbit_vhost:dir/1 and rabbit_classic_queue_index_v2:queue_name_to_dir_name/1.

// VHostDirName returns the directory name of a vhost under
// msg_stores/vhosts/: base 36 of md5(vhost), upper case.
// VHostDirName("/") is "628WB79CIFDYO9LJI6DKMI09L".
func VHostDirName(vhost string) string {
	return md5Base36([]byte(vhost))
}

// QueueDirName returns the directory name of a queue under queues/: base 36
// of md5("queue" ++ vhost ++ name), upper case. Both index versions use it.
func QueueDirName(vhost, name string) string {
	return md5Base36([]byte("queue" + vhost + name))
}

// PriorityQueueName returns the name under which a priority queue stores the
// sub-queue of one priority level: name ++ <<0, priority>>.
func PriorityQueueName(name string, priority uint8) string {
	return name + string([]byte{0, priority})
}

// md5Base36 writes the 128-bit md5 of data as an integer in base 36, upper
// case, without padding (Erlang's "~.36B").
func md5Base36(data []byte) string {
	sum := md5Sum(data)
	// Repeated division of the 16-byte big-endian number by 36.
	num := sum[:]
	var digits []byte
	for !allZero(num) {
		rem := 0
		for i, b := range num {
			cur := rem<<8 | int(b)
			num[i] = byte(cur / 36)
			rem = cur % 36
		}
		digits = append(digits, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[rem])
	}
	if len(digits) == 0 {
		return "0"
	}
	for i, j := 0, len(digits)-1; i < j; i, j = i+1, j-1 {
		digits[i], digits[j] = digits[j], digits[i]
	}
	return string(digits)
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// File name extensions of the classic queue files.
const (
	ExtIndexV2    = ".qi"  // v2 index segment
	ExtQueueStore = ".qs"  // v2 per-queue message store segment
	ExtIndexV1    = ".idx" // v1 index segment
	ExtMsgStore   = ".rdq" // shared message store file
	JournalName   = "journal.jif"
	QueueNameFile = ".queue_name"
	VHostFile     = ".vhost"
	VHostConfig   = ".config"
)

// SegmentFileName returns the file name of segment n with the extension ext
// ("0.qi", "3.qs", "12.rdq").
func SegmentFileName(n uint64, ext string) string {
	return strconv.FormatUint(n, 10) + ext
}

// ParseSegmentFileName returns the number of a file named "<n><ext>".
func ParseSegmentFileName(name, ext string) (uint64, error) {
	num, ok := strings.CutSuffix(name, ext)
	if !ok || num == "" {
		return 0, fmt.Errorf("%q is not a %s file name", name, ext)
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || strconv.FormatUint(n, 10) != num {
		return 0, fmt.Errorf("%q is not a %s file name", name, ext)
	}
	return n, nil
}
