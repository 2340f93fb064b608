package correct

import "errors"

// ErrUsage is a correction refused as asked: an unknown tournament or player,
// a bad field or value, a merge that would make a player meet himself. Nothing
// is changed.
var ErrUsage = errors.New("refused")
