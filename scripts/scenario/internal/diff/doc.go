// Package diff prints the difference between an expected and an actual
// list of lines as a unified diff, the form reviewers read in code review.
package diff
