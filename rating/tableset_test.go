package rating_test

import (
	"testing"

	"github.com/ratelist/ratelist/rating"
	_ "github.com/ratelist/ratelist/rating/all"
	"github.com/ratelist/ratelist/rating/joker"
)

func TestTablesOf(t *testing.T) {
	if d := rating.TablesOf("joker"); d != &joker.Definition {
		t.Errorf("TablesOf(joker) = %v, want joker's definition", d)
	}
	if d := rating.TablesOf("chess"); d != nil {
		t.Errorf("TablesOf(chess) = %v, want nil: chess is played in pairs", d)
	}
}

func TestRegisterTablesTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering joker again did not panic")
		}
	}()
	rating.RegisterTables(&joker.Definition)
}
