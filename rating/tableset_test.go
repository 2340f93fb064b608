package rating_test

import (
	"strings"
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

// TestRegisterTablesIncomplete: a table rule set without its rating or its
// files' rows is a program error, found when the program starts.
func TestRegisterTablesIncomplete(t *testing.T) {
	d := joker.Definition
	d.Name, d.Discipline, d.New = "toy", "toy", nil
	defer func() {
		if recover() == nil {
			t.Error("registering a table rule set without New did not panic")
		}
	}()
	rating.RegisterTables(&d)
}

// TestJokerTableFiles: Joker's files keep their Parquet schema names.
func TestJokerTableFiles(t *testing.T) {
	if d := &joker.Definition; d.List.Schema != "jokerListRow" || d.Cards.Schema != "jokerCardRow" || !strings.HasPrefix(d.List.CSVHeader, "rank,player_id,") {
		t.Errorf("joker files: %q, %q, %q", d.List.Schema, d.Cards.Schema, d.List.CSVHeader)
	}
}
