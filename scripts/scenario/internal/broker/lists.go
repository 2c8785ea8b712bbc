package broker

import (
	"net"
	"sort"
	"strconv"
	"strings"

	"warren/engine/script"
)

// The rabbitmqctl list commands beyond list_queues, and purge_queue and
// delete_queue. Each lists only what belongs to the file: its exchanges
// and the built-in ones, bindings from or to its queues and exchanges,
// consumers on its queues, and its own connections and channels, named cN
// and cN.M as in on= (the broker's names carry the client's port).

// ctlRows runs a list command and splits its rows into fields.
func (t *Target) ctlRows(cmd string, cols ...string) ([][]string, error) {
	stdout, err := t.ctl(append([]string{cmd, "--no-table-headers"}, cols...)...)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, row := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		if f := strings.Split(row, "\t"); len(f) == len(cols) {
			rows = append(rows, f)
		}
	}
	return rows, nil
}

// asked is the columns a list command prints after its key columns: the
// words given, or the defaults.
func asked(words, keys, defaults []string) []string {
	if len(words) == 0 {
		return defaults
	}
	var out []string
	for _, w := range words {
		if !contains(keys, w) {
			out = append(out, w)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// line prints `KIND k1=v1 k2=v2 COL=V ...` from a row whose fields are
// named by cols.
func line(kind string, keys, cols, fields, all []string) string {
	var b strings.Builder
	b.WriteString(kind)
	for _, c := range append(append([]string(nil), keys...), cols...) {
		i := indexOf(all, c)
		b.WriteString(" " + c + "=")
		if i >= 0 {
			b.WriteString(fields[i])
		}
	}
	return b.String()
}

func indexOf(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}

// fileQueue says whether a queue is one the file names or the broker named
// for it.
func (t *Target) fileQueue(name string) bool {
	return t.names.declared[name] || contains(t.names.queues, name)
}

func (t *Target) fileExchange(name string) bool { return contains(t.names.exchanges, name) }

func (t *Target) listExchanges(words []string) ([]string, error) {
	all := script.ExchangeColumns
	rows, err := t.ctlRows("list_exchanges", all...)
	if err != nil {
		return nil, err
	}
	cols := asked(words, []string{"name"}, []string{"type"})
	var out [][]string
	for _, f := range rows {
		if f[0] == "" || strings.HasPrefix(f[0], "amq.") || t.fileExchange(f[0]) {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return rowLines("exchange", []string{"name"}, cols, out, all), nil
}

func rowLines(kind string, keys, cols []string, rows [][]string, all []string) []string {
	out := make([]string, len(rows))
	for i, f := range rows {
		out[i] = line(kind, keys, cols, f, all)
	}
	return out
}

func (t *Target) listBindings(words []string) ([]string, error) {
	all := script.BindingColumns
	rows, err := t.ctlRows("list_bindings", all...)
	if err != nil {
		return nil, err
	}
	keys := []string{"source_name", "destination_name"}
	cols := asked(words, keys, []string{"source_kind", "destination_kind", "routing_key", "arguments"})
	var out [][]string
	for _, f := range rows {
		src, dst, kind := f[0], f[2], f[3]
		if t.fileExchange(src) || (kind == "queue" && t.fileQueue(dst)) || (kind == "exchange" && t.fileExchange(dst)) {
			f[2], f[4] = t.gen.out(f[2]), t.gen.out(f[4])
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		if a[2] != b[2] {
			return a[2] < b[2]
		}
		return a[4] < b[4]
	})
	return rowLines("binding", keys, cols, out, all), nil
}

// chanName maps a channel's pid to cN.M; chanNames asks the broker.
func (t *Target) chanNames() (map[string]string, error) {
	rows, err := t.ctlRows("list_channels", "pid", "connection", "number")
	if err != nil {
		return nil, err
	}
	ports, err := t.connPorts()
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, f := range rows {
		if name, ok := t.channelName(ports[f[1]], f[2]); ok {
			m[f[0]] = name
		}
	}
	return m, nil
}

// connPorts maps each connection's pid to its client's port.
func (t *Target) connPorts() (map[string]string, error) {
	rows, err := t.ctlRows("list_connections", "pid", "peer_port")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, f := range rows {
		m[f[0]] = f[1]
	}
	return m, nil
}

// connByPort finds the file's connection whose client end has port.
func (t *Target) connByPort(port string) (*conn, bool) {
	for _, cn := range t.conns {
		if cn.tap == nil || cn.tap.Conn == nil || cn.c.IsClosed() {
			continue
		}
		if a, ok := cn.tap.Conn.LocalAddr().(*net.TCPAddr); ok && strconv.Itoa(a.Port) == port {
			return cn, true
		}
	}
	return nil, false
}

// channelName names the channel number num of the connection from port.
func (t *Target) channelName(port, num string) (string, bool) {
	cn, ok := t.connByPort(port)
	if !ok {
		return "", false
	}
	for m, ch := range cn.chans {
		if strconv.Itoa(int(ch.id)) == num {
			return "c" + strconv.Itoa(cn.n) + "." + strconv.Itoa(m), true
		}
	}
	return "", false
}

func (t *Target) listConsumers(words []string) ([]string, error) {
	// NB: rabbitmqctl prints these columns in this order whatever the
	// order asked
	all := []string{"queue_name", "channel_pid", "consumer_tag", "ack_required", "prefetch_count", "active", "activity_status", "arguments"}
	rows, err := t.ctlRows("list_consumers", all...)
	if err != nil {
		return nil, err
	}
	names, err := t.chanNames()
	if err != nil {
		return nil, err
	}
	all[1] = "channel"
	keys := []string{"queue_name", "consumer_tag"}
	cols := asked(words, keys, []string{"channel", "ack_required", "prefetch_count", "active", "arguments"})
	var out [][]string
	for _, f := range rows {
		if t.fileQueue(f[0]) {
			f[0], f[1] = t.gen.out(f[0]), names[f[1]]
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][2] < out[j][2]
	})
	return rowLines("consumer", keys, cols, out, all), nil
}

func (t *Target) listChannels(words []string) ([]string, error) {
	all := append([]string{"pid"}, script.ChannelColumns...)
	rows, err := t.ctlRows("list_channels", all...)
	if err != nil {
		return nil, err
	}
	ports, err := t.connPorts()
	if err != nil {
		return nil, err
	}
	cols := asked(words, []string{"name"}, []string{"consumer_count", "messages_unacknowledged"})
	type named struct {
		conn, ch int
		f        []string
	}
	var out []named
	for _, f := range rows {
		// f[2] is the connection's pid
		name, ok := t.channelName(ports[f[2]], f[3])
		if !ok {
			continue
		}
		on, _ := script.ParseTarget(name)
		f[1], f[2], f[3] = name, "c"+strconv.Itoa(on.Conn), strconv.Itoa(on.Chan)
		out = append(out, named{on.Conn, on.Chan, f})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].conn != out[j].conn {
			return out[i].conn < out[j].conn
		}
		return out[i].ch < out[j].ch
	})
	res := make([]string, len(out))
	for i, n := range out {
		res[i] = line("channel", []string{"name"}, cols, n.f, all)
	}
	return res, nil
}

func (t *Target) listConnections(words []string) ([]string, error) {
	all := append([]string{"peer_port"}, script.ConnectionColumns...)
	rows, err := t.ctlRows("list_connections", all...)
	if err != nil {
		return nil, err
	}
	cols := asked(words, []string{"name"}, []string{"state", "channels"})
	type named struct {
		n int
		f []string
	}
	var out []named
	for _, f := range rows {
		cn, ok := t.connByPort(f[0])
		if !ok {
			continue
		}
		f[1] = "c" + strconv.Itoa(cn.n)
		out = append(out, named{cn.n, f})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n < out[j].n })
	res := make([]string, len(out))
	for i, n := range out {
		res[i] = line("connection", []string{"name"}, cols, n.f, all)
	}
	return res, nil
}

// queueAdmin runs purge_queue or delete_queue.
func (t *Target) queueAdmin(cmd *script.Command) error {
	args := []string{cmd.Name, cmd.Str("queue", "")}
	if cmd.Name == "delete_queue" {
		if cmd.Has("if-unused") {
			args = append(args, "--if-unused")
		}
		if cmd.Has("if-empty") {
			args = append(args, "--if-empty")
		}
	}
	_, err := t.ctl(args...)
	return err
}
