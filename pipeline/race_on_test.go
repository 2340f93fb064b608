//go:build race

package pipeline

// raceEnabled: the race detector slows the long property tests tenfold, so
// they take fewer cases under it (the full count runs without it in CI).
const raceEnabled = true
