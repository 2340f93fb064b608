// Package generate writes synthetic archives (`ratelist generate`) for demos,
// tests and benchmarks: players with latent strengths, chess and Scrabble
// tournaments over the months, and optionally Joker games, as Parquet or CSV
// tables of the archive schema. The same options give the same bytes.
package generate

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/zstdcodec"
)

// ErrOptions marks options no archive can be generated from.
var ErrOptions = errors.New("bad generate options")

// ErrNotEmpty marks an archive folder that already holds files: a generated
// archive would overwrite a real one unless Options.Force says so.
var ErrNotEmpty = fmt.Errorf("%w: the archive folder is not empty", ErrOptions)

// Options describe a synthetic archive.
type Options struct {
	Players  int
	Games    int64 // target number of games rows (pairings and byes)
	Months   int
	Seed     uint64
	Start    time.Time // first month; zero = 2024-09-01
	Dir      string
	CSV      bool    // write .csv tables instead of Parquet
	Scrabble float64 // share of tournaments that are Scrabble (with game points)
	Unrated  float64 // share of chess tournaments not on the approved list

	// JokerGames is the number of Joker games (tables of four) in the tables table; 0 = none.
	JokerGames int

	// Force writes into a folder that already holds files, replacing its tables.
	Force bool
}

// Records as the generator writes them: columns of the archive schema
// (archive.PlayerColumns, …), fewer of them nullable than in archive's Row
// types, which keeps generated files small and fast to read.
// TestGeneratorFollowsSchema holds them to the schema, and the CSV headers are
// their column names (csvHeader).
type playerRecord struct {
	PlayerID   int64  `parquet:"player_id"`
	Name       string `parquet:"name"`
	BirthYear  *int32 `parquet:"birth_year,optional"`
	Category   *int32 `parquet:"category,optional"`
	FideRating *int32 `parquet:"fide_rating,optional"`
	Club       string `parquet:"club,optional"`
}

type tournamentRecord struct {
	TournamentID int64  `parquet:"tournament_id"`
	Name         string `parquet:"name"`
	StartDate    int32  `parquet:"start_date,date"`
	EndDate      int32  `parquet:"end_date,date"`
	System       string `parquet:"system"`
	Rounds       int32  `parquet:"rounds"`
	Discipline   string `parquet:"discipline"`
	Rated        bool   `parquet:"rated"`
	Tiebreaks    string `parquet:"tiebreaks,optional"`
}

type gameRecord struct {
	TournamentID int64   `parquet:"tournament_id"`
	Round        int32   `parquet:"round"`
	WhiteID      int64   `parquet:"white_id"`
	BlackID      *int64  `parquet:"black_id,optional"`
	WhiteResult  string  `parquet:"white_result,dict"`
	BlackResult  *string `parquet:"black_result,optional,dict"`
	WhitePoints  *int32  `parquet:"white_points,optional"`
	BlackPoints  *int32  `parquet:"black_points,optional"`
}

type genPlayer struct {
	id       int64
	strength float64 // latent playing strength, Elo-like
	growth   float64 // points per month (juniors improve)
	activity float64
}

// Archive writes a realistic synthetic archive: players with latent strengths
// and categories, Swiss and round-robin tournaments spread over the months,
// results drawn from the strengths. Same options, same bytes.
func Archive(ctx context.Context, o Options) error {
	if o.Players < 2 || o.Games < 1 || o.Months < 1 {
		return fmt.Errorf("%w: a generated archive needs at least 2 players, 1 game and 1 month", ErrOptions)
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)
	}
	if !o.Force {
		if err := checkEmpty(o.Dir); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("create archive folder: %w", err)
	}
	if err := clearTables(o.Dir); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed5eed))
	players, precs := genPlayers(rng, o.Players, o.Start.Year())
	if err := writeTable(o, "players", precs); err != nil {
		return err
	}
	gw, err := newGameWriter(o)
	if err != nil {
		return err
	}
	var trecs []tournamentRecord
	perm := make([]int32, len(players))
	for i := range perm {
		perm[i] = int32(i)
	}
	perMonth := (o.Games + int64(o.Months) - 1) / int64(o.Months)
	var written int64
	tid := int64(1000)
	for m := 0; m < o.Months && written < o.Games; m++ {
		if err := ctx.Err(); err != nil {
			gw.abort()
			return err
		}
		month := o.Start.AddDate(0, m, 0)
		days := month.AddDate(0, 1, 0).Sub(month).Hours() / 24
		target := min(perMonth*int64(m+1), o.Games)
		for written < target {
			tid++
			t, games := genTournament(rng, tid, month, int(days), players, perm, m, o)
			trecs = append(trecs, t)
			if err := gw.write(games); err != nil {
				gw.abort()
				return err
			}
			written += int64(len(games))
		}
	}
	if err := gw.close(); err != nil {
		return err
	}
	if trecs, err = generateJoker(ctx, o, players, trecs); err != nil {
		return err
	}
	return writeTable(o, "tournaments", trecs)
}

var (
	firstNames = []string{"Anna", "Boris", "Daria", "Egor", "Fedor", "Galina", "Ivan", "Kira", "Lev", "Maria",
		"Nikita", "Olga", "Pavel", "Roman", "Sofia", "Timur", "Ulyana", "Vera", "Yuri", "Zoya", "Artem", "Polina",
		"Gleb", "Alisa", "Mark", "Eva", "Denis", "Nina", "Oleg", "Irina"}
	lastNames = []string{"Ivanov", "Petrov", "Sidorov", "Smirnov", "Kuznetsov", "Popov", "Volkov", "Sokolov",
		"Lebedev", "Kozlov", "Novikov", "Morozov", "Pavlov", "Semenov", "Golubev", "Vinogradov", "Bogdanov",
		"Vorobyov", "Fedorov", "Mikhailov", "Belyaev", "Tarasov", "Belov", "Komarov", "Orlov", "Kiselev"}
	clubs = []string{"Kemerovo SDYuSShOR", "Novokuznetsk", "Prokopyevsk", "Belovo", "Leninsk", "Mezhdurechensk",
		"Yurga", "Anzhero-Sudzhensk", "Kiselevsk", "Osinniki", "Berezovsky", "Tashtagol"}
)

func genPlayers(rng *rand.Rand, n, year int) ([]genPlayer, []playerRecord) {
	ps := make([]genPlayer, n)
	recs := make([]playerRecord, n)
	catMean := [5]float64{1250, 2000, 1800, 1600, 1420}
	for i := range ps {
		cat := int32(0)
		switch u := rng.Float64(); {
		case u < 0.08:
			cat = 1
		case u < 0.25:
			cat = 2
		case u < 0.52:
			cat = 3
		case u < 0.82:
			cat = 4
		}
		age := 8 + rng.IntN(10)
		ps[i] = genPlayer{
			id:       int64(10001 + i),
			strength: catMean[cat] + rng.NormFloat64()*90,
			growth:   math.Max(0, 6-0.4*float64(age-8)) + rng.Float64()*3,
			activity: 0.2 + rng.Float64(),
		}
		r := playerRecord{
			PlayerID: ps[i].id,
			Name:     lastNames[rng.IntN(len(lastNames))] + ", " + firstNames[rng.IntN(len(firstNames))],
			Club:     clubs[rng.IntN(len(clubs))],
		}
		by := int32(year - age)
		r.BirthYear = &by
		if cat > 0 {
			c := cat
			r.Category = &c
		}
		if cat >= 1 && cat <= 2 && rng.Float64() < 0.25 {
			elo := int32(math.Round(ps[i].strength + rng.NormFloat64()*60))
			r.FideRating = &elo
		}
		recs[i] = r
	}
	return ps, recs
}

// checkEmpty refuses a folder with anything in it; an absent folder is fine.
func checkEmpty(dir string) error {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("archive folder: %w", err)
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("archive folder %s: %w", dir, err)
	}
	if len(names) > 0 {
		return fmt.Errorf("%w: %s holds %s", ErrNotEmpty, dir, names[0])
	}
	return nil
}

// clearTables removes every form of the archive's tables from dir (NAME.parquet,
// NAME.csv, a folder NAME/), so that --force leaves exactly the generated
// tables: never two forms of one table, which no reader accepts, nor an old
// table the generated archive does not have. Other files stay.
func clearTables(dir string) error {
	for _, name := range []string{"players", "tournaments", "games", "tables"} {
		for _, f := range []string{name + ".parquet", name + ".csv", name} {
			p := filepath.Join(dir, f)
			st, err := os.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) || (err == nil && f == name && !st.IsDir()) {
				continue // a plain file named like a table is not a table
			}
			if err == nil {
				err = os.RemoveAll(p)
			}
			if err != nil {
				return fmt.Errorf("replace table %s: %w", p, err)
			}
		}
	}
	return nil
}

// genTournament draws one tournament in a month and plays it.
func genTournament(rng *rand.Rand, id int64, month time.Time, days int, ps []genPlayer, perm []int32, m int, o Options) (tournamentRecord, []gameRecord) {
	discipline := "chess"
	if rng.Float64() < o.Scrabble {
		discipline = "scrabble"
	}
	rr := discipline == "chess" && rng.Float64() < 0.25
	var size, rounds int
	if rr {
		size = 6 + rng.IntN(7)
	} else {
		size = 12 + rng.IntN(50)
		rounds = 5 + rng.IntN(5)
	}
	size = min(size, len(ps))
	// A partial Fisher–Yates shuffle picks the field; perm stays a permutation.
	field := make([]int32, size)
	for i := 0; i < size; i++ {
		j := i + rng.IntN(len(perm)-i)
		perm[i], perm[j] = perm[j], perm[i]
		field[i] = perm[i]
	}
	strength := func(p int32) float64 { return ps[p].strength + ps[p].growth*float64(m) }
	sort.Slice(field, func(i, j int) bool { return strength(field[i]) > strength(field[j]) })
	var games []gameRecord
	system := "swiss"
	if rr {
		system = "round-robin"
		games = playRoundRobin(rng, id, field, ps, strength, discipline)
		rounds = size - 1 + size%2
	} else {
		games = playSwiss(rng, id, field, rounds, ps, strength, discipline)
	}
	length := 1 + rng.IntN(min(rounds, 7))
	start := 1 + rng.IntN(days)
	sd := month.AddDate(0, 0, start-1)
	ed := sd.AddDate(0, 0, length-1)
	t := tournamentRecord{
		TournamentID: id, StartDate: int32(day.Of(sd)), EndDate: int32(day.Of(ed)),
		System: system, Rounds: int32(rounds), Discipline: discipline, Rated: rng.Float64() >= o.Unrated,
	}
	kind := map[bool]string{true: "Round Robin", false: "Open"}[rr]
	if discipline == "scrabble" {
		kind, t.Rated = "Scrabble Cup", false
	}
	t.Name = fmt.Sprintf("%s %s %d", clubs[id%int64(len(clubs))], kind, sd.Year())
	return t, games
}

// play draws one game's result from the strengths (White +30), with draws
// likelier between equals. Returns White's score in half points.
func play(rng *rand.Rand, w, b float64) int {
	e := 1 / (1 + math.Pow(10, (b-w-30)/400))
	d := 0.32 * (1 - math.Abs(2*e-1))
	u := rng.Float64()
	switch {
	case u < e-d/2:
		return 2
	case u < e+d/2:
		return 1
	}
	return 0
}

var codes = [3][2]string{{"0", "1"}, {"=", "="}, {"1", "0"}}

func gameOf(rng *rand.Rand, tid int64, round int, w, b int32, ps []genPlayer, strength func(int32) float64, discipline string) (gameRecord, int) {
	bid := ps[b].id
	g := gameRecord{TournamentID: tid, Round: int32(round), WhiteID: ps[w].id, BlackID: &bid}
	if rng.Float64() < 0.004 { // a forfeit
		ws := 2 * rng.IntN(2)
		g.WhiteResult = map[int]string{2: "+", 0: "-"}[ws]
		br := map[int]string{2: "-", 0: "+"}[ws]
		g.BlackResult = &br
		return g, ws
	}
	var ws int
	if discipline == "scrabble" {
		wp := int32(math.Round(390 + (strength(w)-1500)/6 + 12 + rng.NormFloat64()*55))
		bp := int32(math.Round(390 + (strength(b)-1500)/6 + rng.NormFloat64()*55))
		g.WhitePoints, g.BlackPoints = &wp, &bp
		ws = 1
		if wp > bp {
			ws = 2
		} else if wp < bp {
			ws = 0
		}
	} else {
		ws = play(rng, strength(w), strength(b))
	}
	g.WhiteResult = codes[ws][0]
	br := codes[ws][1]
	g.BlackResult = &br
	return g, ws
}

func playRoundRobin(rng *rand.Rand, tid int64, field []int32, ps []genPlayer, strength func(int32) float64, discipline string) []gameRecord {
	n := len(field)
	slots := append([]int32(nil), field...)
	if n%2 == 1 {
		slots = append(slots, -1)
	}
	k := len(slots)
	var games []gameRecord
	for r := 0; r < k-1; r++ {
		for i := 0; i < k/2; i++ {
			a, b := slots[i], slots[k-1-i]
			if (r+i)%2 == 1 {
				a, b = b, a
			}
			switch {
			case a < 0:
				games = append(games, gameRecord{TournamentID: tid, Round: int32(r + 1), WhiteID: ps[b].id, WhiteResult: "Z"})
			case b < 0:
				games = append(games, gameRecord{TournamentID: tid, Round: int32(r + 1), WhiteID: ps[a].id, WhiteResult: "Z"})
			default:
				g, _ := gameOf(rng, tid, r+1, a, b, ps, strength, discipline)
				games = append(games, g)
			}
		}
		// The circle method: keep slot 0, rotate the rest.
		last := slots[k-1]
		copy(slots[2:], slots[1:k-1])
		slots[1] = last
	}
	return games
}

func playSwiss(rng *rand.Rand, tid int64, field []int32, rounds int, ps []genPlayer, strength func(int32) float64, discipline string) []gameRecord {
	n := len(field)
	score := make([]int, n) // half points
	colour := make([]int, n)
	hadBye := make([]bool, n)
	met := make([][]int, n)
	order := make([]int, n)
	var games []gameRecord
	for r := 1; r <= rounds; r++ {
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return score[order[i]] > score[order[j]] })
		paired := make([]bool, n)
		// A requested half-point bye now and then.
		for i := range order {
			if r < rounds && rng.Float64() < 0.01 {
				p := order[i]
				paired[p] = true
				score[p]++
				games = append(games, gameRecord{TournamentID: tid, Round: int32(r), WhiteID: ps[field[p]].id, WhiteResult: "H"})
			}
		}
		free := 0
		for _, p := range order {
			if !paired[p] {
				free++
			}
		}
		if free%2 == 1 { // the pairing-allocated bye: lowest player without one
			for i := n - 1; i >= 0; i-- {
				p := order[i]
				if !paired[p] && !hadBye[p] {
					paired[p], hadBye[p] = true, true
					score[p] += 2
					games = append(games, gameRecord{TournamentID: tid, Round: int32(r), WhiteID: ps[field[p]].id, WhiteResult: "U"})
					break
				}
			}
		}
		for i, a := range order {
			if paired[a] {
				continue
			}
			b := -1
			for _, c := range order[i+1:] {
				if !paired[c] && !contains(met[a], c) {
					b = c
					break
				}
			}
			if b < 0 {
				for _, c := range order[i+1:] {
					if !paired[c] {
						b = c
						break
					}
				}
			}
			if b < 0 {
				// Only a lone player is left: an extra bye.
				paired[a] = true
				games = append(games, gameRecord{TournamentID: tid, Round: int32(r), WhiteID: ps[field[a]].id, WhiteResult: "Z"})
				continue
			}
			paired[a], paired[b] = true, true
			w, bl := a, b
			if colour[b] < colour[a] {
				w, bl = b, a
			}
			colour[w]++
			colour[bl]--
			met[a], met[b] = append(met[a], b), append(met[b], a)
			g, ws := gameOf(rng, tid, r, field[w], field[bl], ps, strength, discipline)
			score[w] += ws
			score[bl] += 2 - ws
			games = append(games, g)
		}
	}
	return games
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// streamWriter streams the rows of one generated table to NAME.parquet (row
// groups of 1M rows) or NAME.csv, through a temp file renamed at the end.
type streamWriter[T any] struct {
	f     *os.File
	pw    *parquet.GenericWriter[T]
	cw    *csv.Writer
	toCSV func(T) []string
	name  string
	dst   string
}

func newStreamWriter[T any](o Options, name string, toCSV func(T) []string) (*streamWriter[T], error) {
	ext := ".parquet"
	if o.CSV {
		ext = ".csv"
	}
	f, err := os.CreateTemp(o.Dir, "."+name+"-*")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", name, err)
	}
	f.Chmod(0o644)
	w := &streamWriter[T]{f: f, toCSV: toCSV, name: name, dst: filepath.Join(o.Dir, name+ext)}
	if o.CSV {
		w.cw = csv.NewWriter(f)
		w.cw.Write(csvHeader[T]())
	} else {
		w.pw = parquet.NewGenericWriter[T](f, parquet.Compression(zstdcodec.Codec), parquet.MaxRowsPerRowGroup(1<<20))
	}
	return w, nil
}

func (w *streamWriter[T]) write(rows []T) error {
	if w.pw != nil {
		if _, err := w.pw.Write(rows); err != nil {
			return fmt.Errorf("write %s: %w", w.name, err)
		}
		return nil
	}
	for _, r := range rows {
		w.cw.Write(w.toCSV(r))
	}
	return w.cw.Error()
}

func (w *streamWriter[T]) close() error {
	var err error
	if w.pw != nil {
		err = w.pw.Close()
	} else {
		w.cw.Flush()
		err = w.cw.Error()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("write %s: %w", w.name, err)
	}
	return os.Rename(w.f.Name(), w.dst)
}

func (w *streamWriter[T]) abort() {
	w.f.Close()
	os.Remove(w.f.Name())
}

func newGameWriter(o Options) (*streamWriter[gameRecord], error) {
	return newStreamWriter(o, "games", gameCSV)
}

func gameCSV(g gameRecord) []string {
	opt64 := func(p *int64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatInt(*p, 10)
	}
	opt32 := func(p *int32) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(int(*p))
	}
	br := ""
	if g.BlackResult != nil {
		br = *g.BlackResult
	}
	return []string{strconv.FormatInt(g.TournamentID, 10), strconv.Itoa(int(g.Round)), strconv.FormatInt(g.WhiteID, 10),
		opt64(g.BlackID), g.WhiteResult, br, opt32(g.WhitePoints), opt32(g.BlackPoints)}
}

// writeTable writes a small table as NAME.parquet or NAME.csv, atomically.
func writeTable[T any](o Options, name string, rows []T) error {
	ext := ".parquet"
	if o.CSV {
		ext = ".csv"
	}
	f, err := os.CreateTemp(o.Dir, "."+name+"-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	f.Chmod(0o644)
	if o.CSV {
		err = writeRecordsCSV(f, rows)
	} else {
		w := parquet.NewGenericWriter[T](f, parquet.Compression(zstdcodec.Codec))
		if _, err = w.Write(rows); err == nil {
			err = w.Close()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return os.Rename(f.Name(), filepath.Join(o.Dir, name+ext))
}

// csvHeader is the CSV header of a record type: its Parquet column names, in
// order (the record's CSV renderer writes its fields in the same order).
func csvHeader[T any]() []string {
	var zero T
	var names []string
	for _, f := range parquet.SchemaOf(zero).Fields() {
		names = append(names, f.Name())
	}
	return names
}

func writeRecordsCSV[T any](f *os.File, rows []T) error {
	w := csv.NewWriter(f)
	opt := func(p *int32) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(int(*p))
	}
	switch rs := any(rows).(type) {
	case []playerRecord:
		w.Write(csvHeader[playerRecord]())
		for _, r := range rs {
			w.Write([]string{strconv.FormatInt(r.PlayerID, 10), r.Name, opt(r.BirthYear), opt(r.Category), opt(r.FideRating), r.Club})
		}
	case []tournamentRecord:
		w.Write(csvHeader[tournamentRecord]())
		for _, r := range rs {
			w.Write([]string{strconv.FormatInt(r.TournamentID, 10), r.Name, day.Day(r.StartDate).String(), day.Day(r.EndDate).String(), r.System,
				strconv.Itoa(int(r.Rounds)), r.Discipline, strconv.FormatBool(r.Rated), r.Tiebreaks})
		}
	default:
		return fmt.Errorf("no CSV form for %T", rows)
	}
	w.Flush()
	return w.Error()
}
