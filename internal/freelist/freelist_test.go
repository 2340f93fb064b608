package freelist

import "testing"

// TestList: a released value comes back (and survives a collection), a
// full list drops what it cannot keep, and an empty one makes new values.
func TestList(t *testing.T) {
	l := New[int](1)
	a, b := new(int), new(int)
	l.Put(a)
	l.Put(b) // dropped: the list keeps one
	if got := l.Get(); got != a {
		t.Errorf("Get after Put(a): %p, want %p", got, a)
	}
	if got := l.Get(); got == a || got == b || got == nil {
		t.Errorf("Get of an empty list: %p, want a new value", got)
	}
}
