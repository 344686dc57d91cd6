package cli

import (
	"errors"
	"flag"
	"math"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// decimalFlag is a whole-number flag read in decimal digits only. Go's own
// integer flags read 010 as octal 8, 0x3 as 3 and 1_0 as 10: a number typed
// zero-padded, as scripts and spreadsheets write it, would quietly become
// another one, and go into a signed submit (mfa create --order). Every
// number-taking flag of vigil is one of these; no flag takes a negative
// number.
type decimalFlag struct{ n *int }

// decimalVar defines a decimalFlag named name on fs, holding its value in n.
func decimalVar(fs *flag.FlagSet, n *int, name, usage string) {
	fs.Var(decimalFlag{n}, name, usage)
}

// String is nil-safe: the flag package calls it on a zero value, and "0"
// there keeps "(default 0)" out of the help.
func (f decimalFlag) String() string {
	if f.n == nil {
		return "0"
	}
	return strconv.Itoa(*f.n)
}

func (f decimalFlag) Set(s string) error {
	n, err := parseDecimalArg(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}

// parseDecimalArg reads a whole number typed on the command line, in decimal
// digits without a sign or leading zeros, saying what to write instead.
func parseDecimalArg(s string) (int, error) {
	const write = "write a whole number in plain decimal digits, such as 10"
	switch {
	case strings.HasPrefix(s, "-"):
		return 0, errors.New("a negative number is not taken here; " + write)
	case strings.HasPrefix(s, "+"):
		return 0, errors.New("no sign is taken; " + write)
	case len(s) > 1 && s[0] == '0' && strings.Trim(s, "0123456789") == "":
		// Neither octal (Go's flags) nor the zeros dropped: say which.
		return 0, errors.New("a leading zero is not taken (010 is neither octal 8 nor 10 here); " + write + ", without the leading zeros")
	}
	n, err := api.ParseDecimal(s)
	var ne *strconv.NumError
	if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) || err == nil && n > math.MaxInt {
		return 0, errors.New("too large a number; " + write)
	}
	if err != nil {
		return 0, errors.New("not a number in decimal digits (no 0x, 0b, 0o, _ or spaces); " + write)
	}
	return int(n), nil
}
