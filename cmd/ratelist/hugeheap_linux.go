package main

import (
	"runtime"
	"sync"
	"syscall"
)

var hugeOnce sync.Once

// hugeHeap has the runtime map the heap's next mib MiB in one piece and
// asks Linux for transparent huge pages there (THP's "madvise" mode, which
// the Go runtime does not use): a run's heap is mostly touched once, and on
// a virtual machine the fault per fresh 4 KiB page costs more than the page's
// use. The block is garbage at once; the heap grows into its pages. Once
// per process: a second block would be carved from touched pages and zeroed.
func hugeHeap(mib int) {
	hugeOnce.Do(func() {
		b := make([]byte, mib<<20)                    // fresh pages from the OS: not zeroed, not touched
		_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice only: ignored without THP
		runtime.KeepAlive(b)
		runtime.GC() // frees the block now, before the run's heap grows past it
	})
}
