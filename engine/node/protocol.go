package node

import "warren/engine/amqp"

// Client-to-broker methods. A Frame carries one of these to a reader.

// QueueDeclare is queue.declare.
type QueueDeclare struct {
	Queue                                   string
	Durable, Exclusive, AutoDelete, Passive bool
	Args                                    amqp.Table
}

// QueueDelete is queue.delete.
type QueueDelete struct {
	Queue             string
	IfUnused, IfEmpty bool
}

// QueuePurge is queue.purge.
type QueuePurge struct{ Queue string }

// QueueBind is queue.bind.
type QueueBind struct {
	Queue, Exchange, Key string
	Args                 amqp.Table
}

// QueueUnbind is queue.unbind.
type QueueUnbind struct {
	Queue, Exchange, Key string
	Args                 amqp.Table
}

// ExchangeDeclare is exchange.declare.
type ExchangeDeclare struct {
	Exchange, Type      string
	Durable, AutoDelete bool
	Passive, Internal   bool
	Args                amqp.Table
}

// ExchangeBind is exchange.bind, or exchange.unbind when Unbind is set.
type ExchangeBind struct {
	Destination, Source, Key string
	Args                     amqp.Table
	Unbind                   bool
}

// ExchangeDelete is exchange.delete.
type ExchangeDelete struct{ Exchange string }

// BasicQos is basic.qos.
type BasicQos struct {
	PrefetchCount int
	PrefetchSize  int64
	Global        bool
}

// BasicConsume is basic.consume.
type BasicConsume struct {
	Queue, Tag       string
	NoAck, Exclusive bool
	Args             amqp.Table
}

// BasicCancel is basic.cancel.
type BasicCancel struct{ Tag string }

// BasicPublish is basic.publish with its content.
type BasicPublish struct {
	Exchange, Key        string
	Mandatory, Immediate bool
	Props                amqp.Properties
	Body                 []byte
}

// BasicGet is basic.get.
type BasicGet struct {
	Queue string
	NoAck bool
}

// BasicAck is basic.ack.
type BasicAck struct {
	Tag      uint64
	Multiple bool
}

// BasicNack is basic.nack (and basic.reject, with Multiple false).
type BasicNack struct {
	Tag               uint64
	Multiple, Requeue bool
	Reject            bool
}

// BasicRecover is basic.recover.
type BasicRecover struct{ Requeue bool }

// ConfirmSelect is confirm.select.
type ConfirmSelect struct{}

// TxSelect is tx.select.
type TxSelect struct{}

// TxCommit is tx.commit.
type TxCommit struct{}

// TxRollback is tx.rollback.
type TxRollback struct{}

// ChannelClose is channel.close sent by the client.
type ChannelClose struct{}

// ConnectionClose is connection.close sent by the client.
type ConnectionClose struct{}

// Broker-to-client methods, handed to the node's Client.

// DeclareOk is queue.declare-ok.
type DeclareOk struct {
	Queue               string
	Messages, Consumers int
}

// DeleteOk is queue.delete-ok.
type DeleteOk struct{ Messages int }

// PurgeOk is queue.purge-ok.
type PurgeOk struct{ Messages int }

// ConsumeOk is basic.consume-ok.
type ConsumeOk struct{ Tag string }

// Deliver is basic.deliver.
type Deliver struct {
	ConsumerTag string
	DeliveryTag uint64
	Redelivered bool
	Msg         *Message
}

// GetOk is basic.get-ok.
type GetOk struct {
	DeliveryTag  uint64
	Redelivered  bool
	MessageCount int
	Msg          *Message
}

// GetEmpty is basic.get-empty.
type GetEmpty struct{}

// Confirm is a publisher confirm: basic.ack or basic.nack from the broker.
type Confirm struct {
	Seq      uint64
	Multiple bool
	Nack     bool
}

// Return is basic.return.
type Return struct {
	Code int
	Text string
	Msg  *Message
}

// Cancel is basic.cancel from the broker.
type Cancel struct{ Tag string }

// Closed is channel.close or connection.close from the broker.
type Closed struct {
	Code int
	Text string
}

// Blocked is connection.blocked; Unblocked is connection.unblocked.
type Blocked struct{ Reason string }

// Unblocked is connection.unblocked.
type Unblocked struct{}

// Ok is a reply that carries nothing new (bind-ok, qos-ok, select-ok, ...).
type Ok struct{ Method string }

// Client receives what the node writes to a client's socket.
type Client interface {
	// Frame is called when a method reaches the client, at virtual time at.
	Frame(conn, ch int, method any, at int64)
}
