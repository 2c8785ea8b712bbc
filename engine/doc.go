// Package engine is warren's simulation of a RabbitMQ node as one
// deterministic value: commands in the command language go in, the trace a
// client would observe comes out, and every internal event can be stepped
// through, replayed and inspected.
package engine
