package store

import (
	"testing"

	"warren/engine/vfs"
)

// TestCreateVHostLikeOpenVHost: a vhost created fresh has the same files
// as one OpenVHost lays out on an empty disk, and stores the same way.
func TestCreateVHostLikeOpenVHost(t *testing.T) {
	a, b := vfs.NewMemFS(), vfs.NewMemFS()
	va, _, err := CreateVHost(a, "root", Profile310())
	if err != nil {
		t.Fatal(err)
	}
	vb, _, err := OpenVHost(b, "root", Profile310(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []*VHost{va, vb} {
		q, _, err := v.OpenQueue("q", QueueOptions{Durable: true, Version: 2})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 5; i++ {
			pm := PublishedMsg{ID: [16]byte{byte(i)}, Term: make([]byte, 5000), BodySize: 5000, Persistent: true, NeedsConfirm: true}
			res, err := q.Publish(uint64(i), pm)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := v.Deliver(res.Calls); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := v.SyncStores(); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := a.String(), b.String(); got != want {
		t.Fatalf("created vhost:\n%s\nopened vhost:\n%s", got, want)
	}
	if _, _, err := CreateVHost(a, "root", Profile310()); err == nil {
		t.Fatal("CreateVHost over an existing vhost succeeded")
	}
}
