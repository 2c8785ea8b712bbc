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
# TRIES waits of up to 5 s each for a node's application to start
TRIES=${BROKER_TRIES:-36}

running() {
	rabbitmq-diagnostics -q -n "$1" ping >/dev/null 2>&1
}

start1() {
	echo "broker.sh: starting $NODE on 127.0.0.1" >&2
	RABBITMQ_NODENAME=$NODE \
		RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
		RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1}' \
		rabbitmq-server -detached
}

start2() {
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
}

log_of() {
	if [ "$1" = "$NODE" ]; then
		echo "/var/log/rabbitmq/$NODE.log"
	else
		echo "$BASE2/log/$NODE2.log"
	fi
}

# await NODE: true once the node's application has started. Right after
# -detached the node is not yet registered with epmd and await_startup
# fails at once; while it boots, each call waits up to 5 s.
await() {
	i=0
	until rabbitmqctl -q -n "$1" -t 5 await_startup >/dev/null 2>&1; do
		i=$((i + 1))
		if [ "$i" -ge "$TRIES" ]; then
			return 1
		fi
		sleep 1
	done
}

# Both nodes start before either is awaited. When the two were stopped
# together (killed with the machine, say), each waits at boot for the
# other's copy of the cluster's tables, so starting and awaiting them one
# after the other would wait forever.
# A running node whose application a scenario stopped (and did not get to
# start again) starts it again.
if running "$NODE"; then rabbitmqctl -q -n "$NODE" start_app >/dev/null 2>&1 || true; else start1; fi
if running "$NODE2"; then rabbitmqctl -q -n "$NODE2" start_app >/dev/null 2>&1 || true; else start2; fi
for n in "$NODE" "$NODE2"; do
	if await "$n"; then
		continue
	fi
	# A node whose peer no longer knows it (its files were removed, say)
	# waits for tables that never come: boot it on its own, once.
	echo "broker.sh: $n is still booting; restarting it with force_boot" >&2
	rabbitmqctl -q -n "$n" stop >/dev/null 2>&1 || true
	rabbitmqctl -q -n "$n" force_boot >/dev/null 2>&1 || true
	if [ "$n" = "$NODE" ]; then start1; else start2; fi
	if ! await "$n"; then
		echo "broker.sh: $n did not start; the end of $(log_of "$n"):" >&2
		tail -n 20 "$(log_of "$n")" >&2 || true
		exit 1
	fi
done
# the plugins file is shared: the second node has the plugin too
rabbitmq-plugins -q -n "$NODE" enable rabbitmq_consistent_hash_exchange >/dev/null
if ! rabbitmqctl -q -n "$NODE2" cluster_status --formatter json | grep -q "\"$NODE\""; then
	echo "broker.sh: joining $NODE2 to $NODE" >&2
	# join_cluster prints warnings about the fresh node's feature flags
	if ! { rabbitmqctl -q -n "$NODE2" stop_app && rabbitmqctl -q -n "$NODE2" reset &&
		rabbitmqctl -q -n "$NODE2" join_cluster "$NODE" && rabbitmqctl -q -n "$NODE2" start_app; } >/dev/null 2>&1; then
		echo "broker.sh: $NODE2 could not join $NODE (rabbitmqctl -n $NODE2 join_cluster $NODE)" >&2
		exit 1
	fi
	if ! await "$NODE2"; then
		echo "broker.sh: $NODE2 did not start after joining $NODE; see $(log_of "$NODE2")" >&2
		exit 1
	fi
fi
echo "broker.sh: $NODE and $NODE2 are up, clustered (amqp://guest:guest@127.0.0.1:5672/ and :5673)" >&2
