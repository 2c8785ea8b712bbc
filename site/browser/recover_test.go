package browser_test

// A broker's folder recovered in the browser: the Files view's Recover
// starts the dropped folder as RabbitMQ 3.10.8 would on boot (inspect.wasm,
// engine/boot), lists the queues and messages that come back, and starts
// the simulated node from them.

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"warren/internal/fixtures"
)

// recoveredShown is what the Files view lists after Recover.
type recoveredShown struct {
	State   string `json:"state"`
	Summary string `json:"summary"`
	Queues  []struct {
		Name     string   `json:"name"`
		Messages []string `json:"messages"`
		Lost     []string `json:"lost"`
	} `json:"queues"`
	Gone []string `json:"gone"`
}

// recover fills the definitions (defs may be "") and presses Recover.
func (b *browser) recover(defs string) recoveredShown {
	b.t.Helper()
	return evalJS[recoveredShown](b, `(async () => {
		const f = document.querySelector("warren-scenario").shadowRoot.querySelector(".folder");
		f.querySelector("textarea.folder-defs").value = `+jsString(defs)+`;
		const out = f.querySelector(".folder-recovered");
		delete out.dataset.state;
		f.querySelector("button.folder-recover-btn").click();
		for (let i = 0; i < 300 && !out.dataset.state; i++) await new Promise((ok) => setTimeout(ok, 50));
		return {
			state: out.dataset.state || "",
			summary: out.textContent,
			queues: [...out.querySelectorAll("li.recovered-queue")].map((q) => ({
				name: q.dataset.queue,
				messages: [...q.querySelectorAll("li.recovered-message code")].map((c) => c.textContent.slice(0, 8)),
				lost: [...q.querySelectorAll(".recovered-lost")].map((p) => p.dataset.why + ": " + p.textContent),
			})),
			gone: [...out.querySelectorAll("li.recovered-gone")].map((g) => g.textContent),
		};
	})()`)
}

// TestRecoverFolder drops the v2-priority fixture (a durable priority
// queue with six persistent messages), presses Recover and finds the queue
// and its messages, highest priority first, as the node would recover
// them; with definitions that say the queue is not durable, nothing comes
// back and the directory is said to be deleted; then the simulated node
// starts from the recovered queue and a reader's basic.get takes its first
// message, redelivered.
func TestRecoverFolder(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-files.html")
	evalJS[bool](b, in("warren-scenario", "button.view-files")+".click(), true")
	dir := filepath.Join(fixtures.RabbitMQ(t), "v2-priority", "A")
	if got := b.dropTar("A.tar", tarOf(t, dir, nil)); got.State != "open" {
		t.Fatalf("the folder is %q: %s", got.State, got.Status)
	}

	got := b.recover("")
	want := []string{"prio-03-", "prio-02-", "prio-05-", "prio-01-", "prio-00-", "prio-04-"}
	if got.State != "done" || len(got.Queues) != 1 || got.Queues[0].Name != "fx.prio" || !slices.Equal(got.Queues[0].Messages, want) {
		t.Fatalf("recovered %+v, want fx.prio with %q", got, want)
	}
	if !strings.Contains(got.Summary, "1 queue comes back, named by the folder.") || !strings.Contains(got.Summary, "redelivered") {
		t.Errorf("the summary says %q", got.Summary)
	}

	notDurable := `{"queues":[{"name":"fx.prio","vhost":"/","durable":false,"auto_delete":false,"arguments":{"x-max-priority":3,"x-queue-version":2}}]}`
	got = b.recover(notDurable)
	if got.State != "done" || len(got.Queues) != 0 || len(got.Gone) != 4 || !strings.Contains(got.Gone[0], "not durable") {
		t.Errorf("with definitions of a queue that is not durable: %+v", got)
	}
	bad := b.recover(`{"queues":[{"name":"fx.prio",}]}`)
	if bad.State != "failed" || !strings.Contains(bad.Summary, "definitions: JSON at byte") {
		t.Errorf("broken definitions: %+v", bad)
	}

	got = b.recover("")
	evalJS[bool](b, in("warren-scenario", "button.folder-start-btn")+".click(), true")
	b.waitReady()
	b.console("warren-scenario", "basic.get queue=fx.prio no-ack")
	out := b.lastOutput("warren-scenario")
	if len(out) != 1 || !strings.Contains(out[0], " redelivered ") || !strings.Contains(out[0], "body=prio-03-") {
		t.Errorf("basic.get on the started node printed %q", out)
	}
	b.noErrors()
}
