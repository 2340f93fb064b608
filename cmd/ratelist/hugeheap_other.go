//go:build !linux

package main

// hugeHeap does nothing outside Linux.
func hugeHeap(int) {}
