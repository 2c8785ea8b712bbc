#!/bin/sh
# broker.sh makes sure the local RabbitMQ 3.10.8 broker that the conformance
# runner (scripts/scenario -target ...) talks to is up: node rabbit@localhost,
# AMQP on 127.0.0.1:5672, the consistent-hash exchange plugin enabled. It
# installs nothing and is idempotent: a running node is left as it is.
#
# Everything listens on loopback only: AMQP (RABBITMQ_NODE_IP_ADDRESS), the
# Erlang port mapper (ERL_EPMD_ADDRESS) and the distribution port that
# rabbitmqctl uses (inet_dist_use_interface).
set -eu

NODE=rabbit@localhost
# The CLI tools start epmd themselves when it is not running: keep it on
# loopback whoever starts it.
ERL_EPMD_ADDRESS=127.0.0.1
export ERL_EPMD_ADDRESS
TRIES=${BROKER_TRIES:-60}

running() {
	rabbitmq-diagnostics -q -n "$NODE" ping >/dev/null 2>&1
}

if ! running; then
	echo "broker.sh: starting $NODE on 127.0.0.1" >&2
	RABBITMQ_NODENAME=$NODE \
		RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
		RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1}' \
		rabbitmq-server -detached
fi

# The first await_startup right after -detached fails (the node is not yet
# registered with epmd): retry until it succeeds.
i=0
until rabbitmqctl -q -n "$NODE" await_startup >/dev/null 2>&1; do
	i=$((i + 1))
	if [ "$i" -ge "$TRIES" ]; then
		echo "broker.sh: $NODE did not start after $TRIES tries" >&2
		exit 1
	fi
	sleep 1
done

rabbitmq-plugins -q -n "$NODE" enable rabbitmq_consistent_hash_exchange >/dev/null
echo "broker.sh: $NODE is up (amqp://guest:guest@127.0.0.1:5672/)" >&2
