package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/internal/userfile"
)

// newFlagSet makes the flag set of "vigil NAME". Parse errors are returned, not
// printed; -h prints usage, followed by the flag defaults unless usage documents
// its flags itself (lines starting "  --").
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		if !strings.Contains(usage, "\n  --") {
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args and returns the positional arguments. Flags may also
// follow them ("keys generate NAME --scheme ed25519"); "--" ends the flags. -h
// prints the help to standard output (errHelpShown); a mistake is a usage error
// that says where the help is.
func parseFlags(c proc, fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(c.stdout)
				fs.Usage()
				return nil, errHelpShown
			}
			return nil, usagef("%s: %v%s; run 'vigil %s -h' for the flags", fs.Name(), err, valueHint(fs, err), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, refuseEmptyValues(fs)
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), refuseEmptyValues(fs)
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// emptyAllowed marks a string flag for which "" is a meaningful value (an empty
// condition applies to every activity, --value ” turns a feature off); see
// allowEmpty.
type emptyAllowed struct{ flag.Value }

// String is nil-safe: the flag package calls it on a zero value.
func (v emptyAllowed) String() string {
	if v.Value == nil {
		return ""
	}
	return v.Value.String()
}

// allowEmpty lets the named flags of fs be given as "", which parseFlags
// otherwise refuses.
func allowEmpty(fs *flag.FlagSet, names ...string) {
	for _, name := range names {
		f := fs.Lookup(name)
		f.Value = emptyAllowed{f.Value}
	}
}

// refuseEmptyValues is the usage error for a string flag given as "" (unless
// allowEmpty): that is most often a shell variable that is unset
// (--after "$LAST"), and taking it as "not given" would quietly do something
// else: page from the top again, read standard input, use the default profile.
func refuseEmptyValues(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		if s, ok := g.Get().(string); !ok || s != "" {
			return
		}
		what, usage := flag.UnquoteUsage(f)
		if what == "string" || what == "value" {
			what = "VALUE"
		}
		if strings.Contains(usage, "standard input") {
			what += " (- for standard input)"
		}
		err = usagef("%s: --%s \"\" is empty (an unset shell variable?); give --%s %s, or leave the flag out; run 'vigil %s -h' for the flags",
			fs.Name(), f.Name, f.Name, what, fs.Name())
	})
	return err
}

// valueHint says what a flag takes when err is the flag package's "invalid
// value" for it, whose own reason is only "parse error".
func valueHint(fs *flag.FlagSet, err error) string {
	// "invalid value %q for flag -NAME: …", or "invalid boolean value %q
	// for -NAME: …"; the value, first, may itself hold such words, so the
	// last of them counts.
	msg, start := err.Error(), -1
	for _, pattern := range []string{" for flag -", " for -"} {
		if i := strings.LastIndex(msg, pattern); i >= 0 {
			start = max(start, i+len(pattern))
		}
	}
	if start < 0 {
		return ""
	}
	name, _, _ := strings.Cut(msg[start:], ":")
	f := fs.Lookup(name)
	if f == nil {
		return ""
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return " (give a duration such as 90s, 10m or 1h30m)"
	case int, int64, uint, uint64:
		return " (give a whole number)"
	case float64:
		return " (give a number)"
	case bool:
		return " (give true or false)"
	}
	return ""
}

// parseFlagsOnly is parseFlags for commands that take no positional arguments.
func parseFlagsOnly(c proc, fs *flag.FlagSet, args []string) error {
	pos, err := parseFlags(c, fs, args)
	if err == nil && len(pos) > 0 {
		return usagef("%s takes no arguments (got %q); run 'vigil %s -h'", fs.Name(), pos[0], fs.Name())
	}
	return err
}

// errNoInput means a command wanted standard input and has none.
var errNoInput = errors.New("no standard input")

// readInput reads path, or standard input when path is "-", and returns at
// most limit+1 bytes (so the caller can say the input is too large in its own
// words) and a name for the source to use in messages.
func readInput(c proc, path string, limit int) (data []byte, from string, err error) {
	src, from := c.stdin, "standard input"
	if path == "" {
		// A flag given as "" is refused by parseFlags; a caller that reads
		// standard input when the flag is left out passes "-".
		return nil, path, errors.New("no file named; give a file, or - for standard input")
	}
	if path != "-" {
		// Not os.Open: a named pipe nobody writes to would block it past
		// Ctrl-C; a pipe with a writer, as from <(…), reads as usual.
		f, err := userfile.OpenInput(path)
		if err != nil {
			return nil, path, err
		}
		defer f.Close()
		src, from = f, path
	}
	if src == nil {
		return nil, from, errNoInput
	}
	data, err = io.ReadAll(io.LimitReader(src, int64(limit)+1))
	if err != nil {
		return nil, from, fmt.Errorf("read %s: %w", from, err)
	}
	return data, from, nil
}

// lifetimeFlag is a flag holding a lifetime in whole seconds, given as a bare
// number of seconds (3600) or as a duration (1h, 90m, 3600s). Its checks (a
// positive whole number of seconds) are the verb's.
type lifetimeFlag struct{ d time.Duration }

func (f *lifetimeFlag) String() string {
	if f == nil || f.d == 0 {
		return ""
	}
	return f.d.String()
}

func (f *lifetimeFlag) Set(s string) error {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		switch {
		case n < 0:
			return errors.New("a lifetime cannot be negative; give whole seconds (3600) or a duration (1h)")
		case n > int64(math.MaxInt64/time.Second):
			return errors.New("too long a lifetime; give whole seconds (3600) or a duration (1h)")
		}
		f.d = time.Duration(n) * time.Second
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("not a lifetime; give whole seconds (3600) or a duration (1h, 90m, 3600s)")
	}
	f.d = d
	return nil
}
