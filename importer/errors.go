package importer

import (
	"errors"
	"fmt"
)

// Sentinel errors, wrapped in a *Problem or returned with context.
var (
	// ErrMalformed is a game, row or file that does not follow its format.
	ErrMalformed = errors.New("malformed")
	// ErrUnfinished is a PGN game whose result is "*".
	ErrUnfinished = errors.New("unfinished game")
	// ErrDuplicate is a player paired twice in one round.
	ErrDuplicate = errors.New("already present")
	// ErrPairedTwice is a PGN game of a player who already has a game in its
	// round.
	ErrPairedTwice = errors.New("paired twice in a round")
	// ErrNoDate is a PGN event none of whose games has a date.
	ErrNoDate = fmt.Errorf("no date: %w", ErrMalformed)
	// ErrArchive is an archive the importer cannot merge into (a CSV table, a
	// players/ folder, an unreadable table).
	ErrArchive = errors.New("cannot merge into the archive")
	// ErrTableForm is an archive with a table in a form the importer does not
	// write (CSV, or players or tournaments as a folder of parts): package
	// correct imports into those.
	ErrTableForm = fmt.Errorf("%w: a table is not a Parquet file", ErrArchive)
	// ErrPoints is a TRF whose point system or point adjustments the archive
	// cannot keep.
	ErrPoints = errors.New("point system not kept by the archive")
	// ErrUsage is a bad source name or option.
	ErrUsage = errors.New("usage")
	// ErrInArchive is a tournament that looks like one already in the archive
	// (the same games, or the same name and overlapping dates): the import
	// stops and the archive is left unchanged, unless Options.Replace names it.
	ErrInArchive = fmt.Errorf("already in the archive: %w", ErrUsage)
	// ErrIDTaken is a FirstID range that reaches a tournament_id already in the
	// archive: the import stops and the archive is left unchanged.
	ErrIDTaken = fmt.Errorf("pick a first id past the archive's ids, or none: %w", ErrUsage)
	// ErrFideList is a file import fide-list cannot read at all: a text list
	// whose first line does not name its columns, XML without players.
	ErrFideList = errors.New("not a FIDE players list")
)

// Problem is one skipped game, row or file. Line is the 1-based line (PGN, TRF) or
// data row (CSV, 1 = first row after the header); 0 when the whole file is concerned.
type Problem struct {
	File string
	Line int64
	Err  error
}

func (p *Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", p.File, p.Line, p.Err)
	}
	return fmt.Sprintf("%s: %v", p.File, p.Err)
}

func (p *Problem) Unwrap() error { return p.Err }

// Stats counts what an import did. Read = Imported + Skipped, in games (TRF, PGN:
// pairings and byes) or rows (CSV).
type Stats struct {
	Files        int // source files read
	FilesSkipped int // source files not usable at all
	Read         int64
	Imported     int64
	Skipped      int64
	Unfinished   int64 // of Skipped: PGN games with result "*"
	Forfeits     int64 // of Imported: PGN games without moves read as forfeits (listed in Notes)
	Tournaments  int   // new tournaments
	NewPlayers   int
	Matched      int // distinct archive players matched
	Tables       []string
	Problems     []*Problem // skipped games, rows and files, in source order
	Notes        []*Problem // things worth knowing that skipped nothing
	// ByFile counts per source file, in the order given.
	ByFile []*FileStats

	report func(p *Problem, note bool) // Options.Report
	byName map[string]*FileStats
}

// FileStats is what an import did with one source file: games read, kept
// (imported) and skipped by reason, and the tournaments whose first game it
// holds. Read = Kept + the skipped.
type FileStats struct {
	Name    string
	Read    int64
	Kept    int64
	Skipped map[string]int64 // reason (SkipReason) → games
	Events  int
	// Findings count `check trf`'s findings by trf.Severity (TRF).
	Findings [3]int
}

// fileStats returns the counts of file name, adding them when new.
func (s *Stats) fileStats(name string) *FileStats {
	if f := s.byName[name]; f != nil {
		return f
	}
	if s.byName == nil {
		s.byName = map[string]*FileStats{}
	}
	f := &FileStats{Name: name, Skipped: map[string]int64{}}
	s.byName[name] = f
	s.ByFile = append(s.ByFile, f)
	return f
}

// SkipReason names the reason of a skip for the per-file counts.
func SkipReason(err error) string {
	for _, r := range []struct {
		err  error
		name string
	}{
		{ErrUnfinished, "unfinished"}, {ErrNoDate, "no date"}, {ErrPairedTwice, "paired twice in a round"},
		{ErrDuplicate, "already present"}, {ErrMalformed, "malformed"},
	} {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return "unreadable"
}

func (s *Stats) skip(file string, line int64, n int64, err error) {
	s.Skipped += n
	if f := s.byName[file]; f != nil && n > 0 {
		f.Skipped[SkipReason(err)] += n
	}
	s.keep(&Problem{File: file, Line: line, Err: err}, false)
}

// keep hands a problem or note to Options.Report, or keeps it in Problems or Notes.
func (s *Stats) keep(p *Problem, note bool) {
	switch {
	case s.report != nil:
		s.report(p, note)
	case note:
		s.Notes = append(s.Notes, p)
	default:
		s.Problems = append(s.Problems, p)
	}
}

// abandon records that nothing read is imported after all (the import stopped).
func (s *Stats) abandon() {
	s.Skipped = s.Read
	s.Imported, s.Forfeits, s.Tournaments, s.NewPlayers, s.Matched = 0, 0, 0, 0, 0
	for _, f := range s.ByFile {
		f.Kept, f.Events, f.Skipped = 0, 0, map[string]int64{"not imported: the import stopped": f.Read}
	}
}

func (s *Stats) note(file string, line int64, format string, args ...any) {
	s.keep(&Problem{File: file, Line: line, Err: fmt.Errorf(format, args...)}, true)
}
