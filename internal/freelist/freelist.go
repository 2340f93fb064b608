// Package freelist keeps released buffers for reuse across garbage
// collections: the lists, state files and Parquet writers of one period wait
// for the next period's, many collections later.
package freelist

// List keeps up to its capacity of released values for reuse. Unlike a
// sync.Pool's, they outlive garbage collections.
type List[T any] chan *T

// New returns a list that keeps up to n values.
func New[T any](n int) List[T] { return make(List[T], n) }

// Get returns a released value, or a new one.
func (l List[T]) Get() *T {
	select {
	case v := <-l:
		return v
	default:
		return new(T)
	}
}

// Put releases v, dropped when the list is full; v is not used after.
func (l List[T]) Put(v *T) {
	select {
	case l <- v:
	default:
	}
}
