package browser_test

import (
	"strings"
	"testing"
)

// TestViewsNameTheirRealTools: under the events, each view says which of
// RabbitMQ's own commands shows the same thing on a real node, and
// follows the view the reader picks; in Chinese the commands stay as
// they are and what they show is said in Chinese.
func TestViewsNameTheirRealTools(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	real := func() (string, []string) {
		return evalJS[string](b, in("warren-scenario", "details.real p")+".textContent"),
			evalJS[[]string](b, `[...`+in("warren-scenario", "details.real")+`.querySelectorAll("code")].map((c) => c.textContent)`)
	}
	views := []struct {
		button string
		first  string
	}{
		{"", "rabbitmqctl list_connections name state"},
		{"button.view", "rabbitmqctl list_queues name messages_ready messages_unacknowledged consumers consumer_capacity"},
		{"button.view-rates", "rabbitmq-diagnostics runtime_thread_stats"},
		{"button.view-files", "rabbitmqctl eval 'rabbit_vhost:msg_store_dir_path(<<\"/\">>).'"},
	}
	for _, v := range views {
		if v.button != "" {
			evalJS[bool](b, `(`+in("warren-scenario", v.button)+`.click(), true)`)
		}
		text, codes := real()
		if len(codes) == 0 || codes[0] != v.first || !strings.Contains(text, " — ") {
			t.Errorf("view after %q: the real tools read %q (commands %q), want %q first", v.button, text, codes, v.first)
		}
	}
	evalJS[bool](b, `(`+in("warren-scenario", "details.real")+`.open = true, true)`)
	b.shotElement("warren-scenario", "real-tools")
	b.noErrors()
}
