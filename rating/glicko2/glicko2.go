package glicko2

import "math"

// Scale converts the Glicko scale to the Glicko-2 scale: μ = (r − 1500) / Scale,
// φ = RD / Scale.
const Scale = 173.7178

// center is the Glicko rating at μ = 0.
const center = 1500

// maxIterations stops the volatility iteration of an epsilon that float64
// cannot reach; the Illinois algorithm meets any epsilon Check accepts in far
// fewer steps.
const maxIterations = 200

// Player is a player's values on the Glicko-2 scale: rating μ, rating
// deviation φ and volatility σ.
type Player struct {
	Mu, Phi, Sigma float64
}

// FromGlicko returns the Glicko-2 values of rating r, rating deviation rd and
// volatility sigma on the Glicko scale (step 2).
func FromGlicko(r, rd, sigma float64) Player {
	return Player{Mu: (r - center) / Scale, Phi: rd / Scale, Sigma: sigma}
}

// Glicko returns p's rating and rating deviation on the Glicko scale (step 8).
func (p Player) Glicko() (r, rd float64) {
	return Scale*p.Mu + center, Scale * p.Phi
}

// Result is one game of a player's rating period: the opponent's μ and φ at
// the period's start and the player's score (1, 0.5 or 0). Update fills in G
// and E, which the cards show.
type Result struct {
	Mu, Phi, Score float64
	G              float64 // g(φ) of the opponent
	E              float64 // the player's expected score E(μ, μj, φj)
}

// Update rates one player's period (steps 3–7): p at the period's start
// against games, all of them from the values at the period's start. It sets
// each game's G and E and returns the values after the period, the estimated
// variance v and the estimated improvement Δ. With no games it returns Idle(p)
// and v = Δ = 0 (neither is defined then).
func Update(p Player, games []Result, tau, epsilon float64) (after Player, v, delta float64) {
	if len(games) == 0 {
		return Idle(p), 0, 0
	}
	for i := range games {
		games[i].G = gOf(games[i].Phi)
	}
	return update(p, games, tau, epsilon)
}

// gOf is g(φ) of an opponent with deviation phi.
func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// update is Update for games (at least one) whose G is set: the period's
// close takes each player's g(φ) once, not once per game.
func update(p Player, games []Result, tau, epsilon float64) (after Player, v, delta float64) {
	var info, sum float64 // Σ g² E (1 − E) and Σ g (s − E)
	for i := range games {
		r := &games[i]
		r.E = 1 / (1 + math.Exp(-r.G*(p.Mu-r.Mu)))
		info += r.G * r.G * r.E * (1 - r.E)
		sum += r.G * (r.Score - r.E)
	}
	v = 1 / info
	delta = v * sum
	sigma := volatility(p.Phi, p.Sigma, v, delta, tau, epsilon)
	phiStar := math.Sqrt(p.Phi*p.Phi + sigma*sigma)
	phi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	return Player{Mu: p.Mu + phi*phi*sum, Phi: phi, Sigma: sigma}, v, delta
}

// Idle is a period without games (step 6 alone): μ and σ stay, φ grows to
// √(φ² + σ²).
func Idle(p Player) Player {
	p.Phi = math.Sqrt(p.Phi*p.Phi + p.Sigma*p.Sigma)
	return p
}

// volatility is step 5: σ′ as the root of f by the Illinois algorithm,
// stopping when |B − A| ≤ epsilon, with the 2022 revision's test
// f(C)·f(B) ≤ 0.
func volatility(phi, sigma, v, delta, tau, epsilon float64) float64 {
	a := math.Log(sigma * sigma)
	phi2, delta2, tau2 := phi*phi, delta*delta, tau*tau
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/tau2
	}
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < maxIterations; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
