package cp1252

import "testing"

func TestDecode(t *testing.T) {
	for in, want := range map[string]string{
		"abc":                    "abc",
		"\x80 \x93x\x94 \x9f":    "€ “x” Ÿ",
		"\xd3 Br\xe1daigh \xedn": "Ó Brádaigh ín",
		"\x81\x8d\x8f\x90\x9d":   "\u0081\u008d\u008f\u0090\u009d",
	} {
		if got := Decode([]byte(in)); got != want {
			t.Errorf("Decode(%q) = %q, want %q", in, got, want)
		}
	}
}
