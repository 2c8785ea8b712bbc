package site

import (
	"regexp"
	"sort"
	"strings"

	"warren/lessons"
)

// glossaryTerm is one word of the glossary page: RabbitMQ's and Erlang's
// words as the lessons use them, and warren's own.
type glossaryTerm struct {
	// ID is the term's anchor on the page: /glossary/#ID.
	ID   string
	Term string
	// Def says what the word means, in a sentence or three.
	Def string
	// Warren marks a word of the simulation rather than of RabbitMQ.
	Warren bool
	// Lesson is the slug of the lesson that teaches it, if one does.
	Lesson string
}

// glossary holds the terms, kept in alphabetical order by the page.
var glossary = []glossaryTerm{
	{ID: "ack", Term: "ack (acknowledgement)", Lesson: "one-queue-one-process",
		Def: "A consumer's basic.ack, telling the queue it may forget a delivered message. Until then the message is unacknowledged and counts against the consumer's prefetch; if the channel closes first, the queue delivers it again."},
	{ID: "backlog", Term: "backlog",
		Def: "Messages waiting in a queue because consumers take them more slowly than publishers send them. A long backlog costs the queue process more work per message, so it can get slower just as it grows."},
	{ID: "binding", Term: "binding",
		Def: "A rule that an exchange routes matching messages to a queue (or another exchange). Bindings are part of the topology, kept in Mnesia in 3.10."},
	{ID: "caption", Term: "caption", Warren: true,
		Def: "A #@caption line of a lesson's scenario: the words the widget shows beside the diagram from that moment of the run until the next caption."},
	{ID: "channel", Term: "channel", Lesson: "one-queue-one-process",
		Def: "A lightweight session inside an AMQP connection. In RabbitMQ each channel is an Erlang process (rabbit_channel) that routes its publishes to queues and tracks its unacknowledged deliveries and confirms."},
	{ID: "classic-queue", Term: "classic queue", Lesson: "one-queue-one-process",
		Def: "RabbitMQ's original queue type: one Erlang process on one node holds the queue, with its messages in memory and, for durable queues, in its index and the message stores."},
	{ID: "cluster", Term: "cluster", Lesson: "where-a-queue-lives",
		Def: "Several RabbitMQ nodes sharing one topology. Every node knows every queue, but a classic queue's process and messages live on one node."},
	{ID: "compaction", Term: "compaction (message store GC)", Lesson: "dead-bytes-and-compaction",
		Def: "How the shared message store reclaims dead entries. 3.10 merges a neighbouring pair of files once the store is more than half dead; 3.13 and later move live entries into the holes of the same file and truncate it."},
	{ID: "connection", Term: "connection",
		Def: "One TCP connection from a client. RabbitMQ serves it with a reader process and a supervisor, and its channels run inside it."},
	{ID: "connection-blocked", Term: "connection.blocked",
		Def: "The method RabbitMQ sends a client that supports it when a resource alarm stops the node from accepting publishes; connection.unblocked follows when the alarm clears. Credit flow never sends it."},
	{ID: "consistent-hash-exchange", Term: "consistent-hash exchange", Lesson: "one-queue-one-process",
		Def: "An exchange type from the rabbitmq_consistent_hash_exchange plugin that hashes each routing key and sends the message to exactly one of the queues bound to it, in proportion to their binding weights."},
	{ID: "consumer", Term: "consumer",
		Def: "A subscription made with basic.consume: the queue pushes messages to it over its channel, as many as its prefetch allows."},
	{ID: "consumer-utilisation", Term: "consumer utilisation",
		Def: "The share of time a queue could hand a message to a consumer at once, as rabbit_queue_consumers computes it. Below 100% the consumers, not the queue, are the limit: a larger prefetch or more consumers raise it. rabbitmqctl list_queues shows it as consumer_utilisation, the management UI as Consumer capacity."},
	{ID: "crash", Term: "crash restart", Warren: true, Lesson: "what-a-confirm-promises",
		Def: "restart kind=crash: the node stops as if its Erlang VM was killed while the operating system runs on, so every byte written to a file survives, synced or not."},
	{ID: "credit-flow", Term: "credit flow", Lesson: "credit-link-by-link",
		Def: "RabbitMQ's internal back-pressure (credit_flow). A sender spends one credit per message towards each receiver and stops when it has none; the receiver grants more in batches. Links start at 400 with grants of 200, and a queue's link to the message store at 4000 with grants of 800."},
	{ID: "dead-entry", Term: "dead entry", Lesson: "dead-bytes-and-compaction",
		Def: "The bytes of a message in a store file that no queue refers to any more. They stay where they are until the file is deleted or compacted."},
	{ID: "delivery-tag", Term: "delivery tag", Lesson: "when-a-queue-crashes",
		Def: "The number a channel gives each delivery, counting from 1; a consumer acks by it. It belongs to the channel, not to the message."},
	{ID: "durable", Term: "durable", Lesson: "where-a-message-lands",
		Def: "A queue or exchange declared durable is kept in the metadata across a restart. Only persistent messages in a durable queue are written to its files."},
	{ID: "event", Term: "event", Warren: true, Lesson: "a-node-in-erlang-terms",
		Def: "One step of the simulation: one process taking one message from its mailbox, or a reader reading its socket. step runs one; the timeline numbers them."},
	{ID: "exchange", Term: "exchange",
		Def: "Where publishers send messages. An exchange routes each message to the queues whose bindings match it; it stores nothing."},
	{ID: "files-view", Term: "Files view", Warren: true, Lesson: "where-a-message-lands",
		Def: "The widget's view of the node's disk: each file as a strip of entries, green for live, grey for dead, underlined in yellow where written but not synced. On a real node the same files are under the node's msg_stores/vhosts/ directory."},
	{ID: "flow-state", Term: "flow (state)",
		Def: "The state rabbitmqctl and the management UI show for a connection or channel that credit flow has held back within the last second. It is silent: the client gets no method for it."},
	{ID: "fsync", Term: "fsync", Lesson: "what-a-confirm-promises",
		Def: "A system call that makes the operating system write a file's pending bytes to the disk before it returns. Only fsynced bytes survive a power loss."},
	{ID: "goal", Term: "goal", Warren: true,
		Def: "An expect line of an exercise: a condition on the simulation, checked after every command, such as a queue's message count or a line a channel saw."},
	{ID: "high-watermark", Term: "high watermark",
		Def: "vm_memory_high_watermark: the share of the machine's memory (0.4 by default in 3.10) above which a node raises the memory alarm."},
	{ID: "index-version", Term: "index version (x-queue-version)", Lesson: "where-a-message-lands",
		Def: "Which queue index a classic queue uses: version 1, the default up to 3.13, with a journal and .idx segments; or version 2, the default in 4.0, with .qi segments and a per-queue store."},
	{ID: "journal", Term: "journal (journal.jif)", Lesson: "where-a-message-lands",
		Def: "The version 1 index's log of publishes, deliveries and acks, with small messages embedded in it. It is fsynced before a confirm and moved into .idx segment files later."},
	{ID: "mailbox", Term: "mailbox", Lesson: "a-node-in-erlang-terms",
		Def: "The queue of messages waiting for an Erlang process. The process takes them one at a time; a long mailbox means the process is the bottleneck."},
	{ID: "mark", Term: "mark", Warren: true,
		Def: "A #@mark line of a lesson's scenario: a named moment of the run, where the widget can open (open=NAME)."},
	{ID: "master-locator", Term: "queue master locator", Lesson: "where-a-queue-lives",
		Def: "The rule that picks the node a new classic queue lives on in 3.10: client-local (the declaring connection's node, the default), min-masters or random."},
	{ID: "memory-alarm", Term: "memory alarm",
		Def: "Raised when a node's memory passes its high watermark. Every node of the cluster then blocks every connection that publishes, while connections that only consume go on."},
	{ID: "message-store", Term: "message store (msg_store)", Lesson: "where-a-message-lands",
		Def: "The store each virtual host shares between its queues, one for persistent and one for transient messages, in numbered .rdq files. In 3.10 it holds bodies of 4096 bytes or more, once however many queues have them."},
	{ID: "mnesia", Term: "Mnesia", Lesson: "a-node-in-erlang-terms",
		Def: "Erlang's database, which holds RabbitMQ 3.10's topology on every node: virtual hosts, users, exchanges, queues, bindings, policies. It never holds messages."},
	{ID: "multiple-ack", Term: "multiple ack",
		Def: "basic.ack with multiple set: it acks every unacknowledged delivery of the channel up to and including the tag, in one frame."},
	{ID: "node", Term: "node", Lesson: "a-node-in-erlang-terms",
		Def: "One running RabbitMQ: one Erlang virtual machine, one operating system process, named like rabbit@host."},
	{ID: "page-cache", Term: "page cache", Lesson: "what-a-confirm-promises",
		Def: "The operating system's memory copy of file data. A write lands there first and reaches the disk later, or at an fsync; it survives a crash of the node but not a power loss."},
	{ID: "paging", Term: "paging", Lesson: "one-scenario-three-versions",
		Def: "In 3.10, moving a queue's messages out of memory into its index or a message store once the node's memory passes half of its watermark. 3.12 and later do not page: a queue keeps at most 2048 messages of its backlog in memory."},
	{ID: "persistent", Term: "persistent", Lesson: "where-a-message-lands",
		Def: "A message published with delivery mode 2. In a durable queue it is written to disk; in any other queue it is kept in memory like a transient one."},
	{ID: "power-loss", Term: "power loss", Warren: true, Lesson: "what-a-confirm-promises",
		Def: "restart kind=power-loss: the machine stops and every file keeps only what was fsynced, the worst case; the rest of what was written is gone."},
	{ID: "prefetch", Term: "prefetch (basic.qos)", Lesson: "priority-is-several-queues",
		Def: "How many unacknowledged deliveries a consumer may hold. With no basic.qos there is no limit, and a queue hands everything to its consumers as it arrives."},
	{ID: "priority-queue", Term: "priority queue (x-max-priority)", Lesson: "priority-is-several-queues",
		Def: "A classic queue declared with x-max-priority: one sub-queue per level inside the same process, served strictly from the highest non-empty level."},
	{ID: "process", Term: "process (Erlang)", Lesson: "a-node-in-erlang-terms",
		Def: "The Erlang VM's own unit of work, not an operating system process: a small heap and a mailbox, sharing no memory, cooperating only by messages. A RabbitMQ node runs thousands."},
	{ID: "publisher-confirm", Term: "publisher confirm", Lesson: "what-a-confirm-promises",
		Def: "With confirm.select the broker answers every publish with basic.ack, once a persistent message in a durable queue has reached the queue's storage, or basic.nack if it lost it."},
	{ID: "queue-index", Term: "queue index", Lesson: "where-a-message-lands",
		Def: "A durable classic queue's own record of its persistent messages, one entry each, in order: the journal and .idx files in version 1, .qi files in version 2."},
	{ID: "queue-process", Term: "queue process", Lesson: "one-queue-one-process",
		Def: "The Erlang process (rabbit_amqqueue_process) that is a classic queue: it holds the messages and consumers and handles one message of its mailbox at a time, so one queue uses at most one core."},
	{ID: "quorum-queue", Term: "quorum queue", Lesson: "priority-is-several-queues",
		Def: "A replicated queue type based on Raft. From 4.0 it has two priority tiers, above 4 and the rest, served two to one."},
	{ID: "reader", Term: "reader", Lesson: "one-queue-one-process",
		Def: "The process (rabbit_reader) that reads a connection's socket and puts frames together into methods for its channels. Credit flow blocks it by making it stop reading the socket."},
	{ID: "redelivered", Term: "redelivered",
		Def: "A flag on a delivery that says the message may have been delivered before: after a requeue, a channel closing with it unacked, or a recovery from an unclean stop."},
	{ID: "reduction", Term: "reduction", Lesson: "a-node-in-erlang-terms",
		Def: "The Erlang VM's unit of work, roughly one function call. A process runs for a slice of 4000 reductions (OTP 25) before its scheduler runs another."},
	{ID: "scenario", Term: "scenario", Warren: true,
		Def: "A script in warren's command language: AMQP methods, rabbitmqctl commands and the simulation's own (submit, step, run, show). Each block of a lesson is one."},
	{ID: "scheduler", Term: "scheduler", Lesson: "a-node-in-erlang-terms",
		Def: "An operating system thread of the Erlang VM that runs processes, one at a time; by default one per core. rabbitmq-diagnostics runtime_thread_stats shows how each spends its time."},
	{ID: "segment", Term: "segment file", Lesson: "where-a-message-lands",
		Def: "One file of a queue index, covering a fixed range of sequence numbers: 4096 entries per .qi file in version 2, 2048 per .idx file in version 1 (the legacy 16384 in a virtual host that already had queues when it moved to 3.8.17 or later). It is deleted when all its entries are acked."},
	{ID: "step", Term: "step, submit and run", Warren: true, Lesson: "one-queue-one-process",
		Def: "step runs one event; submit hands a command's frames to the node without running it; run ms=N lets N milliseconds of virtual time pass."},
	{ID: "supervisor", Term: "supervisor", Lesson: "a-node-in-erlang-terms",
		Def: "An Erlang process that starts its children and restarts them when they die, within a limit (a queue's: five restarts in ten seconds). Supervisors form the supervision tree."},
	{ID: "transient", Term: "transient",
		Def: "A message published without delivery mode 2, or any message in a non-durable queue: kept in memory only, and gone after a restart."},
	{ID: "virtual-host", Term: "virtual host",
		Def: "A namespace of exchanges, queues and permissions inside a node or cluster, with message stores of its own."},
	{ID: "virtual-time", Term: "virtual time", Warren: true,
		Def: "The simulation's clock. Each event costs the virtual microseconds its work would take, so timings are the same on every run and every machine."},
	{ID: "writer", Term: "writer",
		Def: "The process (rabbit_writer) that turns what the broker sends a channel's client into frames on the socket."},
}

// sortedGlossary is the glossary in alphabetical order of its terms.
func sortedGlossary() []glossaryTerm {
	out := append([]glossaryTerm(nil), glossary...)
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Term) < strings.ToLower(out[j].Term) })
	return out
}

// glossaryPath is the address of the glossary page.
const glossaryPath = "/glossary/"

// glossaryLink finds the links to the glossary in a lesson's Markdown.
var glossaryLink = regexp.MustCompile(`\]\(/glossary/#([^)\s]+)\)`)

// glossaryLinks lists the anchors a lesson's text links to, in order.
func glossaryLinks(l lessons.Lesson) []string {
	var out []string
	for _, m := range glossaryLink.FindAllStringSubmatch(l.Body, -1) {
		out = append(out, m[1])
	}
	return out
}
