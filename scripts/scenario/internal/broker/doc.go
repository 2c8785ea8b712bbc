// Package broker is the real-broker target of the scenario runner: it runs
// the command language against RabbitMQ 3.10.8 over AMQP 0-9-1 (through
// github.com/rabbitmq/amqp091-go) and rabbitmqctl, and prints what the
// client observed in the same trace format as the engine.
//
// NB: nothing under engine/ or wasm/ may import this package or amqp091-go;
// it lives under scripts/ so that the wasm build never links a network
// client.
package broker
