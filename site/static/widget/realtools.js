// realtools.js: what shows, on a real RabbitMQ 3.10 node, the same thing
// as each of the widget's views. The commands are the real tools' own
// words and stay as they are in every language; what they show is said
// from the catalogs (real.VIEW). Checked against RabbitMQ 3.10.8:
// rabbit_reader's state is flow while credit flow holds the connection
// back; rabbit_amqqueue_process has consumer_capacity, which list_queues
// and the management UI's queue page show; rabbitmq-diagnostics has
// runtime_thread_stats, memory_breakdown and observer; rabbit_vhost's
// msg_store_dir_path gives a vhost's folder.

/** REAL_TOOLS are each view's real commands. */
export const REAL_TOOLS = {
  diagram: ["rabbitmqctl list_connections name state", "rabbitmq-diagnostics observer", "rabbitmq-diagnostics memory_breakdown"],
  rates: ["rabbitmq-diagnostics runtime_thread_stats"],
  table: ["rabbitmqctl list_queues name messages_ready messages_unacknowledged consumers consumer_capacity"],
  files: ["rabbitmqctl eval 'rabbit_vhost:msg_store_dir_path(<<\"/\">>).'"],
};

/** realTools is what view's real tools are: {commands, key}, key the
 * catalog key of what they show. */
export function realTools(view) {
  return { commands: REAL_TOOLS[view] || [], key: `real.${view}` };
}
