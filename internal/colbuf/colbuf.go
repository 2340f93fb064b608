// Package colbuf holds the few helpers the rule sets and writers use to fill
// column buffers that are kept and reused from chunk to chunk.
package colbuf

import "slices"

// Fill sets every element of s to v.
func Fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}

// RoomFor returns s with room for n more elements, at least doubling it when
// it grows: append's growth by a quarter would copy a growing column about
// four times over.
func RoomFor[T any](s []T, n int) []T {
	if cap(s)-len(s) < n {
		s = slices.Grow(s, max(n, len(s)))
	}
	return s
}

// Extend lengthens *s by n (growing it as RoomFor does) and returns the n new
// elements.
func Extend[T any](s *[]T, n int) []T {
	l := len(*s)
	*s = RoomFor(*s, n)[:l+n]
	return (*s)[l : l+n]
}
