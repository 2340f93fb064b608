package officer

// The tests run the rule sets a program registers.
import _ "github.com/ratelist/ratelist/rating/all"
