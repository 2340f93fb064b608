package correct

import "errors"

// ErrUsage is a correction refused as asked: an unknown tournament or player,
// a bad field or value, a merge that would make a player meet himself. Nothing
// is changed.
var ErrUsage = errors.New("refused")

// ErrBusy is an archive another correction or import is writing (Lock).
var ErrBusy = errors.New("another ratelist is correcting or importing into the archive; try again when it has finished")
