//go:build js && wasm

package node

import (
	"fmt"

	"warren/engine/store"
)

// RestartKinds are the ways the node can go down and come back.
var RestartKinds = []string{"clean", "crash", "power-loss"}

// notInBuild refuses restart, stop_app and start_app: the browser build
// has no recovery code. Recovery links the stores' whole recovery code
// (index scans, the message decoder, the store's rebuild), about 100 kB
// more than warren.wasm's 1.2 MB gzip budget leaves room for.
func notInBuild(cmd string) error {
	switch cmd {
	case "stop_app":
		return fmt.Errorf("stop_app: stopping a node of a cluster is not in the browser build (starting it again needs the recovery code); run the scenario with go run ./scripts/scenario")
	case "start_app":
		return fmt.Errorf("start_app: starting a node of a cluster is not in the browser build (it recovers its queues from their files); run the scenario with go run ./scripts/scenario")
	}
	return fmt.Errorf("restart: restarting the node is not in the browser build (its recovery code does not fit the download budget); run the scenario with go run ./scripts/scenario")
}

// CheckRestart refuses a restart: see notInBuild.
func (n *Node) CheckRestart() error { return notInBuild("restart") }

// Restart is not in the browser build: see notInBuild.
func (n *Node) Restart(kind string) error { return notInBuild("restart") }

// readStored is not in the browser build: decoding a message from its
// bytes needs the whole term decoder. A crashed queue's messages come from
// what its process had in memory (see recoverQueue).
func (n *Node) readStored(files *store.QueueFiles, m store.RecoveredMsg) (*Message, error) {
	return nil, fmt.Errorf("%s: seq %d: decoding a message from its bytes is not in the browser build", files.Name(), m.Seq)
}

// Lost is what a client sees when the broker dies under it: the socket
// closes with no AMQP close.
type Lost struct{}

// StopApp is not in the browser build: see notInBuild.
func (c *Cluster) StopApp(m *Node) error { return notInBuild("stop_app") }

// StartApp is not in the browser build: see notInBuild.
func (c *Cluster) StartApp(m *Node) error { return notInBuild("start_app") }
