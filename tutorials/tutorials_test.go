package tutorials

import (
	"strings"
	"testing"
)

func TestAll(t *testing.T) {
	all := All()
	if len(all) != 6 {
		t.Fatalf("%d tutorials, want 6", len(all))
	}
	for _, tu := range all {
		if tu.Title == "" {
			t.Errorf("%s has no title", tu.Slug)
		}
		s := tu.Script()
		if strings.Contains(s, "----") || strings.Contains(s, "\nc1.1 ") || strings.Contains(s, "\nc2.1 ") {
			t.Errorf("%s: the script keeps recorded output:\n%s", tu.Slug, s)
		}
		if !strings.Contains(s, "queue.declare") {
			t.Errorf("%s: the script lost its commands", tu.Slug)
		}
	}
}
