package pipeline

// Progress receives the progress of a run's long phases, e.g. to draw a
// progress bar on a terminal. Calls come from one goroutine.
type Progress interface {
	Phase(name string, total int64) // a phase starts; total in rows
	Add(n int64)                    // n more rows done
	Done()                          // the phase ended
}
