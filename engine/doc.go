// Package engine is warren's simulation of a RabbitMQ node as one
// deterministic value: commands in the command language go in, the trace a
// client would observe comes out, and every internal event can be stepped
// through, replayed and inspected.
//
// # The rooms
//
//   - engine (this package): the front door. Sim.Run runs a line and
//     returns a Result (its lines, the sentences said as data, what was
//     left out, the time budget's cut, the refusal); Step, SeekEvent and
//     Snapshot are the rest. Sim holds a simulation in
//     four parts that a seek treats each one way (sim.go): its state,
//     copied whole by checkpoints; its history (operations, events, trace
//     lines, checkpoints, markers), shared and never copied; what runs
//     now; its settings, kept. commands.go is the table of commands, one handler per command of the
//     language, in files by family: cmd_client.go (AMQP methods),
//     cmd_operator.go (rabbitmqctl), cmd_control.go (step, run, wait, set,
//     cluster, connect, restart, alarm, fault), cmd_show.go (views) and
//     cmd_expect.go (goals). replay.go records every operation so that
//     SeekEvent can replay to any event; checkpoint.go makes that fast;
//     client.go is the client library's side of each connection;
//     snapshot.go and timeline.go are what the browser reads.
//   - engine/script: the command language: each command's spec (spec.go)
//     and the parser that checks a line against it.
//   - engine/beam: the runtime, Erlang's in miniature: processes with
//     mailboxes, schedulers, virtual time, timers.
//   - engine/node: RabbitMQ itself, one beam process per Erlang process: a
//     Cluster of Nodes (a Node reaches what they share, the metadata and
//     the runtime, through its cluster field), each with readers
//     (rabbit_reader), channels (rabbit_channel, in channel*.go), writers,
//     queues (rabbit_amqqueue_process, in queue*.go), message stores and
//     the memory monitor. Each file cites the module it models. The node
//     tells the moments the markers show (credit out and back, a reader
//     blocked, an alarm, a file roll, a GC job, a queue's crash, restart
//     or give-up, a confirm) as typed notices in an outbox (notice.go),
//     which the engine empties after each event (markers.go).
//   - engine/store: the files RabbitMQ writes (message store, queue
//     indexes v1 and v2, recovery), byte for byte; engine/store/format
//     their encodings; engine/vfs the in-memory disk they go to, with its
//     faults and the ring of recent changes that show disk prints
//     (vfs.Change); what a store call did on disk is its store.IO, which
//     the node charges in virtual time. An op is only ever a recorded
//     operation of the simulation (replay.go).
//   - engine/say: what the engine says to a reader in words (narration,
//     markers, goals, the budget's stops, errors, hints and usages: a
//     say.Error) as data, a catalog key and its arguments, with the one
//     English catalog; the widget says the same keys in other languages
//     from its own.
//   - engine/scenario: scenario files (commands, `----`, the recorded
//     output) and the lessons' blocks, read by one parser, run on a
//     target (a Sim, or a real broker in scripts/scenario) and rewritten;
//     the tests' and scripts/scenario's, never the browser's.
//   - engine/amqp (values and errors: its Table is the one model of a
//     field table, from a client's frame to a message's file, which
//     engine/store/format encodes and decodes), engine/trace (the lines a
//     client sees), engine/jsonenc (the browser's JSON), engine/clone (deep
//     copies for checkpoints).
//
// # The path of one publish
//
// `basic.publish key=q body=hi` typed at the console, function by
// function:
//
//  1. Sim.Run, the one way to run a line, parses it (script.ParseLine);
//     Sim.exec (commands.go) finds the handler by the command's name,
//     checks it (checkConnOpen: the connection's node runs), and plays it
//     out as its family does (runFamily): the change is recorded as an
//     operation (Sim.record, Sim.apply), then the simulation settles.
//  2. The handler's apply (cmd_client.go) opens the client's channel
//     (Sim.clientChannel) and Sim.publish builds the node.BasicPublish
//     frame; Cluster.Send puts it on the socket of the connection's reader
//     (Node.Connect spawns the reader on first use).
//  3. Settling (Sim.run, opSettle) steps the runtime (beam.Runtime.StepQuiet)
//     until the node has sent the client nothing for QuietWindow. Each
//     step is one event: one process handling one message.
//  4. node.reader.Handle takes the frame from the socket (reader.frame) and
//     sends it on to its channel as a method, under credit flow.
//  5. node.channel.Handle → channel.method → channel.publish
//     (channel_publish.go) routes it through the exchange (Cluster.route,
//     exchange.go), notes a confirm if the channel is in confirm mode, and
//     sends the message to each queue (deliverMsg), charging credit.
//  6. node.queue.Handle → queue.publish (queue_enqueue.go) enqueues it or
//     hands it to a consumer chosen by queue.pickConsumer
//     (queue_consumers.go); a durable queue writes it first (queue.store,
//     queue_storage.go, through engine/store to engine/vfs); the confirm
//     goes back to the channel (channel.confirmed, flushConfirms).
//  7. queue.deliverTo (queue_deliver.go) sends the delivery to the
//     consumer's channel: channel.toConsumer (channel_deliver.go) gives it
//     a delivery tag and passes it to the writer.
//  8. The writer hands each method to the client (client.Frame in
//     client.go), which turns it into a trace.Event and a line of the
//     history's transcript; Sim.lines prints the events the command caused
//     as trace lines, the command's output. Lines of the engine's own
//     (a goal's verdict, a budget's stop) are say.Texts (Sim.sayLine), and
//     Run gives each beside its line (Result.Said), as the bridge sends
//     it (jsonenc.Answer).
//
// An ack goes back the same way: channel.ack and settle (channel_ack.go),
// then queue.ack (queue_ack.go).
package engine
