// Package amqp holds the AMQP 0-9-1 values that cross warren's boundaries:
// field tables and their typed values, basic properties, and reply codes.
//
// Models rabbit_framing_amqp_0_9_1 and the table helpers of rabbit_misc.
package amqp
