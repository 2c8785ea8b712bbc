// Package order sorts the engine's lists of names and numbers.
//
// NB: sort.Strings and sort.Ints are slices.Sort, which the compiler
// writes out once for strings and once for ints, beside the sort that
// sort.Slice shares with every other list: about 20 kB of the browser's
// build (warren.wasm, whose size has a budget). These sort through
// sort.Slice instead, to the same order.
package order

import "sort"

// Strings sorts s in increasing order.
func Strings(s []string) { sort.Slice(s, func(i, j int) bool { return s[i] < s[j] }) }

// Ints sorts s in increasing order.
func Ints(s []int) { sort.Slice(s, func(i, j int) bool { return s[i] < s[j] }) }
