package day_test

import (
	"fmt"

	"github.com/ratelist/ratelist/day"
)

// The list period a tournament's end date falls in, its label and its days.
func ExamplePeriodOf() {
	end, _ := day.Parse("2025-05-31")
	p := day.PeriodOf(day.Quarter, end)
	first, last := p.Bounds()
	fmt.Println(p.Label(), first, last, p.Next(1).Label())
	// Output: 2025-Q2 2025-04-01 2025-06-30 2025-Q3
}
