package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// memoryLimitFlag adds --memory-limit, in MiB, to a verb's flags: the soft
// memory limit of the Go runtime, def by default. what says how the verb
// treats it, for the help text.
func memoryLimitFlag(fs *flag.FlagSet, def int, what string) *int {
	return fs.Int("memory-limit", def, "soft memory limit in `MiB` for the Go runtime (GC works harder near it"+what+"; 0 = none; the GOMEMLIMIT variable wins)")
}

// setMemoryLimit sets the soft memory limit to mib MiB, unless it is 0 or
// GOMEMLIMIT sets it; it says whether it did. A negative mib is a usage
// error, reported for verb.
func setMemoryLimit(verb string, mib int, stderr io.Writer) (set, ok bool) {
	if mib < 0 {
		fmt.Fprintf(stderr, "ratelist %s: parsing --memory-limit: must be ≥ 0\n", verb)
		return false, false
	}
	if mib == 0 || os.Getenv("GOMEMLIMIT") != "" {
		return false, true
	}
	debug.SetMemoryLimit(int64(mib) << 20)
	return true, true
}

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
