#!/bin/sh
# broker.sh makes sure the local RabbitMQ 3.10.8 broker that the conformance
# runner (scripts/scenario -target ...) talks to is up: a cluster of two disc
# nodes, rabbit@localhost (AMQP on 127.0.0.1:5672) and rabbit-2@localhost
# (AMQP on 127.0.0.1:5673), with the consistent-hash exchange plugin
# enabled. It installs nothing and is idempotent: running nodes are left as
# they are.
#
# Everything listens on loopback only: AMQP (RABBITMQ_NODE_IP_ADDRESS), the
# Erlang port mapper (ERL_EPMD_ADDRESS) and the distribution port that
# rabbitmqctl uses (inet_dist_use_interface).
set -eu

NODE=rabbit@localhost
NODE2=rabbit-2@localhost
# the second node's files, owned by the user the server runs as
BASE2=/var/lib/rabbitmq/rabbit-2
# The CLI tools start epmd themselves when it is not running: keep it on
# loopback whoever starts it.
ERL_EPMD_ADDRESS=127.0.0.1
export ERL_EPMD_ADDRESS
TRIES=${BROKER_TRIES:-60}

running() {
	rabbitmq-diagnostics -q -n "$1" ping >/dev/null 2>&1
}

# await NODE: the first await_startup right after -detached fails (the node
# is not yet registered with epmd), so retry until it succeeds.
await() {
	i=0
	until rabbitmqctl -q -n "$1" await_startup >/dev/null 2>&1; do
		i=$((i + 1))
		if [ "$i" -ge "$TRIES" ]; then
			echo "broker.sh: $1 did not start after $TRIES tries" >&2
			exit 1
		fi
		sleep 1
	done
}

if ! running "$NODE"; then
	echo "broker.sh: starting $NODE on 127.0.0.1" >&2
	RABBITMQ_NODENAME=$NODE \
		RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
		RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1}' \
		rabbitmq-server -detached
fi

await "$NODE"
# the plugins file is shared: the second node starts with the plugin too
rabbitmq-plugins -q -n "$NODE" enable rabbitmq_consistent_hash_exchange >/dev/null

if ! running "$NODE2"; then
	echo "broker.sh: starting $NODE2 on 127.0.0.1" >&2
	mkdir -p "$BASE2/mnesia" "$BASE2/log"
	chown -R rabbitmq:rabbitmq "$BASE2"
	RABBITMQ_NODENAME=$NODE2 \
		RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
		RABBITMQ_NODE_PORT=5673 \
		RABBITMQ_DIST_PORT=25673 \
		RABBITMQ_MNESIA_BASE="$BASE2/mnesia" \
		RABBITMQ_LOG_BASE="$BASE2/log" \
		RABBITMQ_PID_FILE="$BASE2/pid" \
		RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1}' \
		rabbitmq-server -detached
fi
await "$NODE2"
# a stopped application (a scenario stopped it and did not get to start
# it) starts again
rabbitmqctl -q -n "$NODE2" start_app >/dev/null
if ! rabbitmqctl -q -n "$NODE2" cluster_status --formatter json | grep -q "\"$NODE\""; then
	echo "broker.sh: joining $NODE2 to $NODE" >&2
	# join_cluster prints warnings about the fresh node's feature flags
	if ! { rabbitmqctl -q -n "$NODE2" stop_app && rabbitmqctl -q -n "$NODE2" reset &&
		rabbitmqctl -q -n "$NODE2" join_cluster "$NODE" && rabbitmqctl -q -n "$NODE2" start_app; } >/dev/null 2>&1; then
		echo "broker.sh: $NODE2 could not join $NODE (rabbitmqctl -n $NODE2 join_cluster $NODE)" >&2
		exit 1
	fi
	await "$NODE2"
fi
echo "broker.sh: $NODE and $NODE2 are up, clustered (amqp://guest:guest@127.0.0.1:5672/ and :5673)" >&2
