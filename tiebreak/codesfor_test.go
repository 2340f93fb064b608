package tiebreak

import (
	"errors"
	"slices"
	"testing"
)

func TestCodesFor(t *testing.T) {
	tests := []struct {
		name                  string
		tiebreaks, discipline string
		want                  []string
		wantErr               error
	}{
		{"own codes", " BH/C1 , SB ", "chess", []string{"BH/C1", "SB"}, nil},
		{"empty column: chess default", "", "chess", []string{"BH/C1", "BH", "SB", "DE"}, nil},
		{"empty column: scrabble default", " , ", "scrabble", []string{"TURCAS", "SPREAD", "SCORE"}, nil},
		{"not understood: default and the error", "BH,XYZ", "chess", []string{"BH/C1", "BH", "SB", "DE"}, ErrUnknownCode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CodesFor(&Tournament{Tiebreaks: tt.tiebreaks, Discipline: tt.discipline})
			if !slices.Equal(got, tt.want) || !errors.Is(err, tt.wantErr) {
				t.Errorf("CodesFor = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
