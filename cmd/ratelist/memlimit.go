package main

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// followLiveHeap raises the soft memory limit, starting at limit, whenever the
// live heap passes half of it (nextLimit), until stop is called: a run whose
// working set outgrows the default limit (a federation of a million players)
// would otherwise spend its time in the GC.
func followLiveHeap(limit int64) (stop func()) {
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if next := nextLimit(limit, int64(sample[0].Value.Uint64())); next != limit {
				limit = next
				debug.SetMemoryLimit(limit)
			}
		}
	}()
	return func() { close(done) }
}

// nextLimit is the soft memory limit for a live heap: at least twice it (the
// room the GC has at its default pace), in steps of 64 MiB, never lower than
// limit.
func nextLimit(limit, live int64) int64 {
	const step = 64 << 20
	if 2*live <= limit {
		return limit
	}
	return (2*live + step - 1) / step * step
}
