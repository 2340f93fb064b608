package generate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	"github.com/ratelist/ratelist/day"
)

// tableRecord is one tables row as the generator writes it (archive.TableColumns).
type tableRecord struct {
	GameID       int64  `parquet:"game_id"`
	TournamentID *int64 `parquet:"tournament_id,optional"`
	PlayedAt     int64  `parquet:"played_at,timestamp(microsecond)"`
	PlayerID     int64  `parquet:"player_id"`
	Place        int32  `parquet:"place"`
	Score        int32  `parquet:"score"`
	LeftTable    bool   `parquet:"left_table"`
	StoppedPulka *int32 `parquet:"stopped_pulka,optional"`
}

// jokerGen draws Joker games: a third of the players play Joker, each with a
// latent skill; games are tables of four drawn from them at random times.
type jokerGen struct {
	rng    *rand.Rand
	ids    []int64   // player ids of the Joker players
	skill  []float64 // latent skill, mean 0, sd 1
	weight []float64 // cumulative activity weights, for drawing tables
}

// generateJoker writes tables.parquet (or tables.csv) with o.JokerGames games
// spread over o.Months, and returns trecs with the Joker tournaments added.
// It uses its own random stream, so adding Joker games does not change the
// chess part of an archive.
func generateJoker(ctx context.Context, o Options, players []genPlayer, trecs []tournamentRecord) ([]tournamentRecord, error) {
	if o.JokerGames <= 0 {
		return trecs, nil
	}
	if len(players) < 4 {
		return nil, fmt.Errorf("%w: Joker games need at least 4 players", ErrOptions)
	}
	g := &jokerGen{rng: rand.New(rand.NewPCG(o.Seed, 0x70c3e7))}
	n := max(4, len(players)/3)
	for _, k := range g.rng.Perm(len(players))[:n] {
		g.ids = append(g.ids, players[k].id)
	}
	sort.Slice(g.ids, func(i, j int) bool { return g.ids[i] < g.ids[j] })
	total := 0.0
	for range g.ids {
		g.skill = append(g.skill, g.rng.NormFloat64())
		total += 0.2 + g.rng.ExpFloat64()
		g.weight = append(g.weight, total)
	}
	tid := int64(1000)
	for _, t := range trecs {
		tid = max(tid, t.TournamentID)
	}
	tw, err := newTableWriter(o)
	if err != nil {
		return nil, err
	}
	perMonth := (o.JokerGames + o.Months - 1) / o.Months
	gameID := int64(1)
	for m := 0; m < o.Months && gameID <= int64(o.JokerGames); m++ {
		if err := ctx.Err(); err != nil {
			tw.abort()
			return nil, err
		}
		month := o.Start.AddDate(0, m, 0)
		end := month.AddDate(0, 1, 0)
		count := min(perMonth, o.JokerGames-int(gameID)+1)
		// One Joker tournament a month, on one day, holds about a fifth of
		// the month's games; the rest are casual games at any time.
		inTour := 0
		var tourID *int64
		var tourDay time.Time
		if count >= 20 {
			inTour = count / 5
			tid++
			id := tid
			tourID = &id
			tourDay = month.AddDate(0, 0, g.rng.IntN(int(end.Sub(month).Hours()/24)))
			trecs = append(trecs, tournamentRecord{
				TournamentID: id, Name: fmt.Sprintf("%s Joker Cup %s", clubs[id%int64(len(clubs))], tourDay.Format("2006-01")),
				StartDate: int32(day.Of(tourDay)), EndDate: int32(day.Of(tourDay)),
				System: "swiss", Rounds: 5, Discipline: "joker", Rated: true,
			})
		}
		span := end.Sub(month).Microseconds()
		times := make([]int64, count)
		for i := range times {
			if i < inTour {
				// Tournament games between 10:00 and 20:00 of its day.
				times[i] = tourDay.Add(10*time.Hour).UnixMicro() + g.rng.Int64N(int64(10*time.Hour/time.Microsecond))
			} else {
				times[i] = month.UnixMicro() + g.rng.Int64N(span)
			}
			times[i] -= times[i] % 60e6 // whole minutes
		}
		isTour := make([]bool, count)
		for i := 0; i < inTour; i++ {
			isTour[i] = true
		}
		// Game ids follow time, as a platform's would.
		idx := make([]int, count)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return times[idx[a]] < times[idx[b]] })
		recs := make([]tableRecord, 0, 4*count)
		for _, i := range idx {
			var tour *int64
			if isTour[i] {
				tour = tourID
			}
			recs = g.game(recs, gameID, times[i], tour)
			gameID++
		}
		if err := tw.write(recs); err != nil {
			tw.abort()
			return nil, err
		}
	}
	if err := tw.close(); err != nil {
		return nil, err
	}
	return trecs, nil
}

// game draws one game at a table of four and appends its rows.
func (g *jokerGen) game(recs []tableRecord, id, at int64, tour *int64) []tableRecord {
	var seats [4]int
	for k := 0; k < 4; k++ {
	draw:
		for {
			u := g.rng.Float64() * g.weight[len(g.weight)-1]
			p := sort.SearchFloat64s(g.weight, u)
			p = min(p, len(g.ids)-1)
			for _, q := range seats[:k] {
				if q == p {
					continue draw
				}
			}
			seats[k] = p
			break
		}
	}
	// How the game ended: 8% stop early, most of them because someone left.
	pulka, leaver := 0, -1
	if g.rng.Float64() < 0.08 {
		pulka = 1 + g.rng.IntN(4)
		if g.rng.Float64() < 0.8 {
			leaver = g.rng.IntN(4)
		}
	}
	frac := 1.0
	if pulka > 0 {
		frac = float64(pulka) / 4
	}
	var scores [4]int32
	for k, p := range seats {
		s := 250 + 180*g.skill[p] + 220*g.rng.NormFloat64()
		if g.rng.Float64() < 0.07 { // a disaster: the penalty for a failed bid
			s = -200 + 150*g.rng.Float64()
		}
		s = math.Max(-200, math.Min(900, s*frac))
		if k == leaver {
			s = math.Min(s, -50+100*g.rng.Float64())
		}
		scores[k] = int32(math.Round(s/10) * 10)
	}
	// Places by score; ties by a coin toss (places stay 1–4, distinct).
	order := []int{0, 1, 2, 3}
	g.rng.Shuffle(4, func(i, j int) { order[i], order[j] = order[j], order[i] })
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] > scores[order[j]] })
	var places [4]int32
	for rank, k := range order {
		places[k] = int32(rank + 1)
	}
	for k, p := range seats {
		rec := tableRecord{GameID: id, TournamentID: tour, PlayedAt: at, PlayerID: g.ids[p],
			Place: places[k], Score: scores[k], LeftTable: k == leaver}
		if pulka > 0 {
			pk := int32(pulka)
			rec.StoppedPulka = &pk
		}
		recs = append(recs, rec)
	}
	return recs
}

func newTableWriter(o Options) (*streamWriter[tableRecord], error) {
	return newStreamWriter(o, "tables", tableCSV)
}

// tableCSV renders one tables row; played_at is RFC 3339 in UTC.
func tableCSV(r tableRecord) []string {
	tour, pulka := "", ""
	if r.TournamentID != nil {
		tour = strconv.FormatInt(*r.TournamentID, 10)
	}
	if r.StoppedPulka != nil {
		pulka = strconv.Itoa(int(*r.StoppedPulka))
	}
	return []string{strconv.FormatInt(r.GameID, 10), tour, time.UnixMicro(r.PlayedAt).UTC().Format(time.RFC3339),
		strconv.FormatInt(r.PlayerID, 10), strconv.Itoa(int(r.Place)), strconv.Itoa(int(r.Score)),
		strconv.FormatBool(r.LeftTable), pulka}
}
