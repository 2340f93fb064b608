package pipeline

import "context"

// rateJoker reads the tables table and rates the Joker games (joker.md).
// Placeholder until the Joker pipeline lands: tables rows are not read yet.
func (r *runner) rateJoker(ctx context.Context) error { return nil }
