package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/pipeline"
)

// TestExitCode: every verb's outcome maps to the documented exit codes in one
// place; a stale run wins over rejected rows.
func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"success", nil, exitOK},
		{"failed", errors.New("disk full"), exitFailed},
		{"interrupted, wrapped", fmt.Errorf("standings of tournament 7: %w", context.Canceled), exitCanceled},
		{"pipeline usage", fmt.Errorf("rules file x: %w", pipeline.ErrUsage), exitUsage},
		{"import usage", fmt.Errorf("%w: no files", importer.ErrUsage), exitUsage},
		{"rejected rows", runOutcome(&pipeline.Summary{RowCounts: pipeline.RowCounts{RowsRejected: 2}}), exitRejected},
		{"stale wins over rejected", runOutcome(&pipeline.Summary{RowCounts: pipeline.RowCounts{RowsRejected: 2}, Resume: pipeline.Resume{StalePeriods: []string{"2025-01"}}}), exitStale},
		{"clean run", runOutcome(&pipeline.Summary{RowCounts: pipeline.RowCounts{RowsRead: 9}}), exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exitCode(tt.err); got != tt.want {
				t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

// TestStandingsCanceled: Ctrl-C during standings --archive exits 130.
func TestStandingsCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"standings", "--archive", "../../testdata/demo", "--tournament", "1001"}, &stdout, &stderr); code != exitCanceled {
		t.Errorf("exit %d, want %d (stderr: %s)", code, exitCanceled, stderr.String())
	}
}

// TestMessageNamesFlags: the pipeline names an option, the command its flag.
func TestMessageNamesFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--out", t.TempDir(), "--until", "2025-13"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "parsing --until: ") {
		t.Errorf("exit %d, stderr %q; want %d naming --until", code, stderr.String(), exitUsage)
	}
	stderr.Reset()
	code = run(context.Background(), []string{"run", "--out", t.TempDir(), "--standings-csv", "some"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "parsing --standings-csv: ") {
		t.Errorf("exit %d, stderr %q; want %d naming --standings-csv", code, stderr.String(), exitUsage)
	}
	err := fmt.Errorf("out/state/2025-01.state: %w", &pipeline.OptionError{Option: "From", Err: errors.New("no state")})
	if got, want := message(err), "out/state/2025-01.state: parsing --from: no state"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
}
