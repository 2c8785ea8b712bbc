// Package definitions reads and writes the definitions file of RabbitMQ
// 3.10.8: the JSON that `rabbitmqctl export_definitions` and the
// management UI write, and `rabbitmqctl import_definitions` reads. It
// keeps what warren simulates (one vhost's queues, exchanges, bindings and
// policies), names everything else it was given kind by kind, and turns a
// file into lines of the command language.
//
// Models rabbit_definitions (all_definitions and apply_defs) and the JSON
// encoding of rabbitmqctl's ExportDefinitionsCommand.
//
// NB: the package parses JSON by hand: encoding/json costs the browser
// build more than its size budget can spare (see engine/jsonenc).
package definitions
