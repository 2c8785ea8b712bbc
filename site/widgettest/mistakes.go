// Package widgettest holds what the widget's tests share: the node:test
// modules beside this file run the widget's JavaScript under Node, and the
// Go tests of the site and of the browser read the lists here.
package widgettest

// TypicalMistakes are what a reader new to the console types wrong: an
// unknown command, an unknown argument, a bad value, a missing required
// argument, an unknown delivery tag, a queue that does not exist, a
// channel closed by RabbitMQ and used again, a refused engine command, a
// mandatory message that reaches no queue.
var TypicalMistakes = []string{
	"queue.declare queue=q durable",
	"basic.publish key=q body=hello count=3",
	"basic.consume queue=q",
	"frobnicate",
	"seek 3",
	"queue.declare queue=q colour=red",
	"queue.declare queue=q durable=yes",
	"basic.qos prefetch=lots",
	"basic.qos prefetch=-1",
	"queue.bind queue=q",
	"basic.ack tag=99",
	"basic.publish key=q on=c1.1",
	"basic.get queue=nope on=c1.2",
	"queue.declare queue=q on=c1.3",
	"queue.declare queue=q exclusive on=c2.1",
	"queue.declare queue=amq.mine on=c2.2",
	"exchange.declare exchange=x type=topicz on=c3.1",
	"basic.consume queue=q tag=t on=c4.1",
	"basic.consume queue=q tag=t on=c4.1",
	"basic.ack c1.1 tag=1",
	"queue.declare queue=\"q",
	"expect queue=q messages=5",
	"expect on=c1.1 saw=get-ok",
	"restart kind=soft",
	"crash queue=nope",
	"cluster nodes=3",
	"set_policy name=p pattern=(q definition=x",
	"run ms=-1",
	"fault",
	"wait",
	"set_policy name=p pattern=^q$ max-length=many",
	"clear_policy name=nope",
	"basic.publish exchange=amq.direct key=nowhere mandatory body=lost",
}
