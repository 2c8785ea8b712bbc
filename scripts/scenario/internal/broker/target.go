package broker

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/scenario"
	"warren/engine/script"
)

// Config says which broker to use and how long to wait for it.
type Config struct {
	URL   string        // amqp://guest:guest@127.0.0.1:5672/
	Node  string        // the node rabbitmqctl talks to: rabbit@localhost
	Ctl   string        // the rabbitmqctl program
	Quiet time.Duration // a command is over once nothing arrived for this long
	Limit time.Duration // stop waiting for quiet after this long
}

// DefaultConfig is the local broker scripts/broker.sh starts.
var DefaultConfig = Config{
	URL:   "amqp://guest:guest@127.0.0.1:5672/",
	Node:  "rabbit@localhost",
	Ctl:   "rabbitmqctl",
	Quiet: 150 * time.Millisecond,
	Limit: 10 * time.Second,
}

// Target runs one file's commands on a real broker.
type Target struct {
	cfg   Config
	names names
	rec   *recorder
	conns map[int]*conn
	ctags int // consumes without tag= so far, for amq.ctag-N
	gen   *aliases
	reply *replyNames
	// timeoutSet: the file set consumer_timeout, which Close restores
	timeoutSet bool
	// connNode places connections on the cluster's nodes (0-based; the
	// first node by default)
	connNode map[int]int
}

// NB: scenario.RunFile closes a target that is an io.Closer, which is how
// the broker is cleaned up after each file.
var _ io.Closer = (*Target)(nil)

// Opener returns a scenario.Opener for the broker cfg names.
func Opener(cfg Config) scenario.Opener {
	return func(file string, cmds []script.Command) (scenario.Target, error) {
		return Open(cfg, cmds)
	}
}

// Open prepares the broker for a file made of cmds: it clears the policies
// the file sets and deletes the queues and exchanges it names.
func Open(cfg Config, cmds []script.Command) (*Target, error) {
	t := &Target{cfg: cfg, names: scanNames(cmds), rec: newRecorder(), conns: map[int]*conn{}, connNode: map[int]int{},
		gen: newGenNames()}
	t.reply = newReplyNames(t.channelOfPid)
	if err := t.cleanup(); err != nil {
		return nil, err
	}
	return t, nil
}

// Exec runs one command and returns the lines the client observed once the
// broker has been quiet for cfg.Quiet: operator lines first, then the
// connection and channel events in trace order.
func (t *Target) Exec(cmd script.Command) []string {
	if cmd.Name == "set" && len(cmd.Args) == 1 && cmd.Has("consumer-timeout") {
		return t.setConsumerTimeout(cmd.Int("consumer-timeout", 0))
	}
	if cmd.Spec != nil && cmd.Spec.Engine {
		return []string{"error: " + cmd.Name + ": only the engine can run this"}
	}
	cmd = t.reply.in(t.gen.in(cmd))
	var out []string
	switch cmd.Name {
	case "set_policy", "clear_policy", "list_queues", "list_policies", "crash", "cluster", "stop_app", "start_app",
		"list_exchanges", "list_bindings", "list_consumers", "list_channels", "list_connections", "purge_queue", "delete_queue":
		out = t.operator(&cmd)
	case "import_definitions":
		out = t.importDefinitions(&cmd)
	case "connect":
		if err := t.connect(&cmd); err != nil {
			out = []string{"error: " + err.Error()}
		}
	default:
		if err := t.client(&cmd); err != nil {
			out = []string{"error: " + cmd.Name + ": " + err.Error()}
		}
	}
	t.rec.touch()
	t.rec.settle(t.cfg.Quiet, t.cfg.Limit)
	out = append(out, t.rec.take()...)
	for i, line := range out {
		for _, name := range t.gen.learn(line) {
			// a server-named queue is the file's: list_queues shows it
			// and the runner deletes it
			t.names.declared[name] = true
			t.names.queues = append(t.names.queues, name)
		}
		t.reply.learn(line)
		out[i] = t.reply.out(t.gen.out(line))
	}
	return out
}

// channelOfPid names the file's channel (cN.M) whose pid ends as given.
func (t *Target) channelOfPid(pid string) (string, bool) {
	names, err := t.chanNames()
	if err != nil {
		return "", false
	}
	for p, name := range names {
		if strings.HasSuffix(p, pid) {
			return name, true
		}
	}
	return "", false
}

// Close closes the file's connections, then deletes what the file declared
// and clears its policies.
func (t *Target) Close() error {
	var errs []error
	for n := range t.conns {
		errs = append(errs, t.closeConn(n))
	}
	if t.timeoutSet {
		t.setConsumerTimeout(1800000)
	}
	errs = append(errs, t.cleanup())
	return errors.Join(errs...)
}

// cleanup deletes the file's queues and exchanges over a connection of its
// own and clears its policies. Deleting what does not exist is not an
// error for the broker; a refusal (a reserved name) only costs the channel,
// which is opened again for the next name.
func (t *Target) cleanup() error {
	for _, p := range t.names.policies {
		// A policy that does not exist is refused; that is what we want.
		_, _ = t.ctl("clear_policy", p)
	}
	if len(t.names.queues)+len(t.names.exchanges) == 0 {
		return nil
	}
	c, err := amqp091.Dial(t.cfg.URL)
	if err != nil {
		return fmt.Errorf("cleanup: connect to %s: %w", t.cfg.URL, err)
	}
	defer c.Close()
	var ch *amqp091.Channel
	do := func(what, name string, f func(*amqp091.Channel) error) error {
		if ch == nil || ch.IsClosed() {
			if ch, err = c.Channel(); err != nil {
				return fmt.Errorf("cleanup: open channel: %w", err)
			}
		}
		if err := f(ch); err != nil && !isBrokerError(err) {
			return fmt.Errorf("cleanup: delete %s %q: %w", what, name, err)
		}
		return nil
	}
	for _, q := range t.names.queues {
		if err := do("queue", q, func(ch *amqp091.Channel) error {
			_, err := ch.QueueDelete(q, false, false, false)
			return err
		}); err != nil {
			return err
		}
	}
	for _, x := range t.names.exchanges {
		if err := do("exchange", x, func(ch *amqp091.Channel) error {
			return ch.ExchangeDelete(x, false, false)
		}); err != nil {
			return err
		}
	}
	return nil
}

// setConsumerTimeout sets the broker's consumer_timeout (ms; 0 for none)
// for the channels opened from now on, as `set consumer-timeout=MS` sets
// the engine's.
func (t *Target) setConsumerTimeout(ms int64) []string {
	t.timeoutSet = ms != 1800000
	expr := "application:set_env(rabbit, consumer_timeout, " + strconv.FormatInt(ms, 10) + ")."
	if ms == 0 {
		expr = "application:unset_env(rabbit, consumer_timeout)."
	}
	if _, err := t.ctl("eval", expr); err != nil {
		return []string{"error: set: " + err.Error()}
	}
	return nil
}
