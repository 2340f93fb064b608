package output

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// File is one kind of file in a run's output folder (--out). Files is the one
// list of them: the run writes its outputs by these names, a resumed run keeps
// the earlier run's files by their Kept, and officer and report find what
// they read here.
type File struct {
	// Pattern is the path in the output folder, slash-separated: {period}
	// stands for a list period's label, {id} for a tournament id, {table}
	// for a table rule set's name (For). A pattern that ends in "/" is a
	// folder.
	Pattern string
	// Writer is what writes it.
	Writer string
	// Kept says which files of an earlier run a new run leaves in place;
	// every other file of an earlier run is replaced or removed.
	Kept Kept
	// Report says that the report reads it.
	Report bool
}

// Kept is which files of an earlier run of one kind a new run leaves in place.
type Kept uint8

const (
	// Rewritten: every run writes the file again or removes it.
	Rewritten Kept = iota
	// KeptByPeriod: a resumed run (--resume, --from) keeps the file of a
	// period before the first one it writes, when it would write the file.
	KeptByPeriod
	// KeptByTournament: a resumed run keeps the file of a tournament of such
	// a period, when it would write the file.
	KeptByTournament
	// KeptAlways: every run leaves it, when it is ratelist's (the site).
	KeptAlways
)

// The files of an output folder. Each is one row of Files.
var (
	Summary          = &File{"summary.json", "pipeline: writeSummary", Rewritten, true}
	Rejects          = &File{"rejects.csv", "pipeline: rejectSink", Rewritten, false}
	Norms            = &File{"norms.csv", "pipeline: writeNorms", Rewritten, true}
	Cards            = &File{"cards.parquet", "pipeline: cardWriter", Rewritten, true}
	CardGames        = &File{"card_games.parquet", "pipeline: cardWriter", Rewritten, true}
	TableCards       = &File{"{table}_cards.parquet", "pipeline: tableCardWriter", Rewritten, true}
	ListCSV          = &File{"lists/{period}.csv", "pipeline: writeList", KeptByPeriod, true}
	ListParquet      = &File{"lists/{period}.parquet", "pipeline: writeList", KeptByPeriod, false}
	ListArrow        = &File{"lists/{period}.arrow", "pipeline: writeListArrow, with --arrow", KeptByPeriod, false}
	TableListCSV     = &File{"lists/{table}/{period}.csv", "pipeline: writeTableList", Rewritten, true}
	TableListParquet = &File{"lists/{table}/{period}.parquet", "pipeline: writeTableList", Rewritten, false}
	StandingsPeriod  = &File{"standings/{period}.parquet", "pipeline: periodStandings", KeptByPeriod, true}
	StandingsCSV     = &File{"standings/{id}.csv", "pipeline: writeSink.appendStandings, per --standings-csv", KeptByTournament, false}
	StandingsTeamCSV = &File{"standings/teams/{id}.csv", "pipeline: writeSink.teamStandings, for a tournament with teams", KeptByTournament, true}
	State            = &File{"state/{period}.state", "pipeline: writeState", KeptByPeriod, false}
	Site             = &File{"site/", "report: Build", KeptAlways, false}
)

// Files is every kind of file a run's output folder holds, besides
// ratelist's own marker, lock and staging folders.
var Files = []*File{
	Summary, Rejects, Norms, Cards, CardGames, TableCards,
	ListCSV, ListParquet, ListArrow, TableListCSV, TableListParquet,
	StandingsPeriod, StandingsCSV, StandingsTeamCSV, State, Site,
}

// tableKey is the placeholder of a table rule set's name.
const tableKey = "{table}"

// For is the file of kind f of the table rule set named table (a
// TableDefinition's Name): its pattern with {table} replaced, its other
// fields f's. Rel, Path, Dir and Keys take the table's file.
func (f *File) For(table string) *File {
	g := *f
	g.Pattern = strings.Replace(f.Pattern, tableKey, table, 1)
	return &g
}

// split cuts the pattern at its placeholder: the path before it and after it.
// ok is false for a pattern without one.
func (f *File) split() (before, after string, ok bool) {
	i := strings.IndexByte(f.Pattern, '{')
	if i < 0 {
		return f.Pattern, "", false
	}
	j := strings.IndexByte(f.Pattern[i:], '}')
	return f.Pattern[:i], f.Pattern[i+j+1:], true
}

// Rel is the file's slash-separated path in the output folder for key (a
// period label or a tournament id; ignored by a file without either).
func (f *File) Rel(key string) string {
	before, after, ok := f.split()
	if !ok {
		return strings.TrimSuffix(f.Pattern, "/")
	}
	return before + key + after
}

// Path is the file's path in the output folder out for key (see Rel).
func (f *File) Path(out, key string) string {
	return filepath.Join(out, filepath.FromSlash(f.Rel(key)))
}

// Dir is the folder in the output folder out that holds the files of kind f.
func (f *File) Dir(out string) string {
	return filepath.Join(out, filepath.FromSlash(path.Dir(f.Pattern)))
}

// Top is the first element of the file's path: the file's own name, or the
// folder of the output folder it is in.
func (f *File) Top() string {
	top, _, _ := strings.Cut(f.Pattern, "/")
	return top
}

// match returns rel's key when rel (slash-separated) is a file of kind f: a
// key holds neither "/" nor ".". A folder's kind matches every file in it.
func (f *File) match(rel string) (string, bool) {
	if before, after, ok := strings.Cut(f.Pattern, tableKey); ok {
		// The table's name runs up to the pattern's next fixed text.
		rest, ok := strings.CutPrefix(rel, before)
		sep, _, _ := strings.Cut(after, "{")
		i := strings.Index(rest, sep)
		if !ok || i <= 0 || strings.ContainsAny(rest[:i], "/.") {
			return "", false
		}
		return f.For(rest[:i]).match(rel)
	}
	if strings.HasSuffix(f.Pattern, "/") {
		return "", strings.HasPrefix(rel, f.Pattern)
	}
	before, after, ok := f.split()
	if !ok {
		return "", rel == f.Pattern
	}
	key, ok := strings.CutPrefix(rel, before)
	if !ok {
		return "", false
	}
	key, ok = strings.CutSuffix(key, after)
	return key, ok && key != "" && !strings.ContainsAny(key, "/.")
}

// Match returns the kind of the file rel (slash-separated, in an output
// folder) and its key; ok is false for a path that no kind of file has.
func Match(rel string) (f *File, key string, ok bool) {
	for _, f := range Files {
		if key, ok := f.match(rel); ok {
			return f, key, true
		}
	}
	return nil, "", false
}

// Keys returns the keys of the files of kind f in the output folder out,
// sorted. The error wraps fs.ErrNotExist when their folder is missing.
func (f *File) Keys(out string) ([]string, error) {
	dir := f.Dir(out)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var keys []string
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		if key, ok := f.match(path.Join(path.Dir(f.Pattern), e.Name())); ok {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	return keys, nil
}
