// Package chash reproduces the bucket choice of RabbitMQ's consistent-hash
// exchange: erlang:phash2 of the routing key fed into a jump consistent hash
// whose random numbers come from Erlang's rand module (exs1024).
//
// Models rabbit_exchange_type_consistent_hash.
//
// The reference behaviour is RabbitMQ 3.10.8 running on Erlang/OTP 25. The
// plugin routes a message by computing
//
//	jump_consistent_hash(erlang:phash2(Key), TotalWeight)
//
// where TotalWeight is the number of buckets on the ring and every binding of
// weight w owns w consecutive bucket numbers, assigned in binding order.
package chash
