package main

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/pipeline"
)

// addTeamRejects checks the archive's team tables (archive.LoadTeams) and
// adds their rows and rejects to the summary of a validation: its counts,
// its tables and its reject kinds.
func addTeamRejects(ctx context.Context, fsys fs.FS, asOf time.Time, sum *pipeline.Summary) error {
	a, err := archive.Load(ctx, fsys, func(archive.RowError) {}, archive.Now(asOf))
	if err != nil {
		return err
	}
	kinds := map[string]*pipeline.RejectKind{}
	for i := range sum.RejectKinds {
		kinds[sum.RejectKinds[i].Kind] = &sum.RejectKinds[i]
	}
	var added []pipeline.RejectKind
	var rejects []archive.RowError
	_, counts, err := a.LoadTeams(ctx, func(r archive.RowError) { rejects = append(rejects, r) })
	if err != nil {
		return err
	}
	for _, r := range rejects {
		k := kinds[r.KindName()]
		if k == nil {
			added = append(added, pipeline.RejectKind{Kind: r.KindName()})
			k = &added[len(added)-1]
			kinds[k.Kind] = k
		}
		k.Count++
		if len(k.Examples) < 3 {
			k.Examples = append(k.Examples, fmt.Sprintf("%s:%d: %s", r.File, r.Row, archive.Cut(r.Reason, archive.ExcerptBytes)))
		}
	}
	sum.RejectKinds = append(sum.RejectKinds, added...)
	sort.SliceStable(sum.RejectKinds, func(i, j int) bool {
		ki, kj := sum.RejectKinds[i], sum.RejectKinds[j]
		if ki.Count != kj.Count {
			return ki.Count > kj.Count
		}
		return ki.Kind < kj.Kind
	})
	for _, name := range []string{"teams", "team_players", "team_byes"} {
		if c := counts[name]; c != nil {
			if sum.Tables == nil {
				sum.Tables = map[string]*archive.TableCount{}
			}
			sum.Tables[name] = c
			sum.RowsRead += c.Read
			sum.RowsUsed += c.Used
			sum.RowsRejected += c.Rejected
		}
	}
	return nil
}
