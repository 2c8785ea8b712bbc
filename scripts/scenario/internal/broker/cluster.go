package broker

// The cluster commands on a real broker: cluster nodes=N checks that the
// broker's cluster has the nodes the file wants, connect places a
// connection on a node (its AMQP port: 5672 for the first node, 5673 for
// the second, ...), and stop_app and start_app stop and start a node's
// RabbitMQ application through rabbitmqctl, as an operator would.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"warren/engine/node"
	"warren/engine/script"
)

// nodeIndex reads node=N|NAME as a 0-based index among the cluster's
// nodes, named as scripts/broker.sh names them.
func (t *Target) nodeIndex(cmd *script.Command) (int, error) {
	id := cmd.Str("node", "")
	if i, ok := node.NodeIndex(id, maxNodes); ok {
		return i, nil
	}
	return 0, fmt.Errorf("no node %q", id)
}

// maxNodes bounds the cluster a file may ask for.
const maxNodes = 8

// nodeURL is the AMQP URL of the i-th node: the first node's URL with the
// port moved up by i.
func (t *Target) nodeURL(i int) (string, error) {
	if i == 0 {
		return t.cfg.URL, nil
	}
	u, err := url.Parse(t.cfg.URL)
	if err != nil {
		return "", err
	}
	port := 5672
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return "", err
		}
	}
	u.Host = u.Hostname() + ":" + strconv.Itoa(port+i)
	return u.String(), nil
}

// checkCluster compares the broker's cluster with cluster nodes=N ram=K.
func (t *Target) checkCluster(cmd *script.Command) error {
	out, err := t.ctl("cluster_status", "--formatter", "json")
	if err != nil {
		return err
	}
	var st struct {
		Disk    []string `json:"disk_nodes"`
		RAM     []string `json:"ram_nodes"`
		Running []string `json:"running_nodes"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		return fmt.Errorf("cluster: unexpected rabbitmqctl output %q: %w", out, err)
	}
	want, ram := int(cmd.Int("nodes", 2)), int(cmd.Int("ram", 0))
	if len(st.Running) != want || len(st.RAM) != ram {
		return fmt.Errorf("cluster: the broker runs %d nodes (%d RAM), the file wants %d (%d RAM): scripts/broker.sh starts a cluster of two disc nodes",
			len(st.Running), len(st.RAM), want, ram)
	}
	for i := 0; i < want; i++ {
		if !slices.Contains(st.Running, node.NodeName(i)) {
			return fmt.Errorf("cluster: node %s is not running; the broker runs %v", node.NodeName(i), st.Running)
		}
	}
	return nil
}

// nodeApp runs stop_app or start_app on a node, as rabbitmqctl -n NODE.
func (t *Target) nodeApp(cmd *script.Command) error {
	i, err := t.nodeIndex(cmd)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd.Name, err)
	}
	_, err = t.ctlOn(node.NodeName(i), cmd.Name)
	return err
}

// connect places a connection on a node before its first use.
func (t *Target) connect(cmd *script.Command) error {
	i, err := t.nodeIndex(cmd)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	n := cmd.On().Conn
	if cn := t.conns[n]; cn != nil && !cn.c.IsClosed() && t.connNode[n] != i {
		return fmt.Errorf("connect: c%d is open on %s already; close it first", n, node.NodeName(t.connNode[n]))
	}
	t.connNode[n] = i
	return nil
}
