package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/keys"
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
// that says where the help is. A flag that takes one value may be given once:
// taking the last of two would quietly drop the other (--effect deny …
// --effect allow); repeatable flags are those whose value is repeatableFlag.
func parseFlags(c proc, fs *flag.FlagSet, args []string) ([]string, error) {
	once := refuseRepeats(fs)
	positional, err := parseArgs(fs, args)
	once.restore()
	if r := once.repeated; r != nil && r.boolean {
		return nil, usagef("%s: --%s given both on and off (%s, then %s); give it once; run 'vigil %s -h' for the flags",
			fs.Name(), r.name, boolSpelling(r.name, r.first), boolSpelling(r.name, r.second), fs.Name())
	}
	if r := once.repeated; r != nil {
		return nil, usagef("%s: --%s given twice (%q, then %q); it takes one value, so give it once; run 'vigil %s -h' for the flags",
			fs.Name(), r.name, r.first, r.second, fs.Name())
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			out := &errWriter{w: c.stdout}
			fs.SetOutput(out)
			fs.Usage()
			if out.err != nil {
				return nil, helpUnwritten{out.err}
			}
			return nil, errHelpShown
		}
		return nil, usagef("%s: %v%s; run 'vigil %s -h' for the flags", fs.Name(), err, valueHint(fs, err), fs.Name())
	}
	return positional, refuseEmptyValues(fs)
}

// parseArgs parses flags and positional arguments in any order.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		// fs.Parse reads past its flags only a "--" that ends them; a "--"
		// that is a flag's value (--notes --) is read with the flag.
		if len(args)-len(rest) > wordsOfFlags(fs, args) {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// wordsOfFlags returns how many words at the start of args are flags and
// their values, as fs.Parse reads them: it stops at a word that is no flag,
// or at "--". args has just parsed without error, so each flag is fs's.
func wordsOfFlags(fs *flag.FlagSet, args []string) int {
	i := 0
	for i < len(args) {
		word := args[i]
		if len(word) < 2 || word[0] != '-' || word == "--" {
			return i
		}
		i++
		name := strings.TrimPrefix(word[1:], "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
		}
		i++ // the flag's value, whatever it looks like
	}
	return i
}

// repeatableFlag marks a flag value that collects every time the flag is
// given (--tag, --step, --root …); parseFlags refuses any other flag given
// twice.
type repeatableFlag interface {
	flag.Value
	repeatable()
}

func (*listFlag) repeatable()   {}
func (*stringList) repeatable() {}

// onceGuard watches the single-value flags of a flag set while it parses.
type onceGuard struct {
	fs       *flag.FlagSet
	original map[string]flag.Value
	repeated *repeatedFlag
}

// repeatedFlag is the first single-value flag found given twice; boolean
// when it is a boolean flag given both true and false.
type repeatedFlag struct {
	name, first, second string
	boolean             bool
}

// boolSpelling writes a boolean flag's value as the user would have typed it:
// --json for true, --json=false for false.
func boolSpelling(name, value string) string {
	if b, err := strconv.ParseBool(value); err == nil && b {
		return "--" + name
	}
	return "--" + name + "=" + value
}

// errGivenTwice stops the parse at a repeated flag; parseFlags words it.
var errGivenTwice = errors.New("given twice")

// refuseRepeats wraps each single-value flag of fs so that a second Set is
// refused, until restore puts the flag's own value back (so that the checks
// after parsing, and the help, see the flag's real type).
func refuseRepeats(fs *flag.FlagSet) *onceGuard {
	g := &onceGuard{fs: fs, original: map[string]flag.Value{}}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(repeatableFlag); ok {
			return
		}
		g.original[f.Name] = f.Value
		f.Value = &onceValue{Value: f.Value, name: f.Name, guard: g}
	})
	return g
}

func (g *onceGuard) restore() {
	for name, v := range g.original {
		g.fs.Lookup(name).Value = v
	}
}

// onceValue is a single-value flag that remembers whether it was set.
type onceValue struct {
	flag.Value
	name, first string
	set         bool
	guard       *onceGuard
}

// String is nil-safe: the flag package calls it on a zero value.
func (v *onceValue) String() string {
	if v == nil || v.Value == nil {
		return ""
	}
	return v.Value.String()
}

func (v *onceValue) Set(s string) error {
	if v.set && v.IsBoolFlag() {
		// A boolean repeated with the same value (--json --json, as scripts
		// that build flags from parts write) drops no choice: let it through.
		first, _ := strconv.ParseBool(v.first)
		second, err := strconv.ParseBool(s)
		if err != nil {
			return v.Value.Set(s) // the flag's own error for a bad value
		}
		if first == second {
			return nil
		}
		if v.guard.repeated == nil {
			v.guard.repeated = &repeatedFlag{name: v.name, first: v.first, second: s, boolean: true}
		}
		return errGivenTwice
	}
	if v.set {
		if v.guard.repeated == nil {
			v.guard.repeated = &repeatedFlag{name: v.name, first: v.first, second: s}
		}
		return errGivenTwice
	}
	v.set, v.first = true, s
	return v.Value.Set(s)
}

// IsBoolFlag keeps a boolean flag usable without a value (--json).
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// emptyAllowed marks a string flag for which "" is a meaningful value (an empty
// condition applies to every activity, --value "" turns a feature off); see
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
		return usagef("%s takes no arguments (got %s); run 'vigil %s -h'", fs.Name(), strayArgs(pos), fs.Name())
	}
	return err
}

// errNoInput means a command wanted standard input and has none.
var errNoInput = errors.New("no standard input")

// readInput reads path, or standard input when path is "-", and returns at
// most limit+1 bytes (so the caller can say the input is too large in its own
// words) and a name for the source to use in messages. what ("the body")
// names the input in messages; the read stops when ctx ends (readStopping).
func readInput(ctx context.Context, c proc, path, what string, limit int) (data []byte, from string, err error) {
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
		if err != nil && keys.PathLooksSecret(path) {
			// A key pasted where its file goes: say so without printing it.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // without the path
			}
			return nil, "", inputFileError{fmt.Sprintf("cannot read %s (%v): the file name given is %s", what, err, keys.SecretArg(path, "a file name")), err}
		}
		if err != nil {
			return nil, path, inputFileError{fmt.Sprintf("cannot read %s: %v; give a regular file holding %s, or - for standard input", what, err, what), err}
		}
		defer f.Close()
		src, from = f, path
	}
	if src == nil {
		return nil, from, errNoInput
	}
	data, err = readStopping(ctx, c, src, from, what, limit)
	if err != nil {
		return nil, from, inputReadError{err}
	}
	return data, from, nil
}

// inputReadError is an input that was opened but not read to its end (a stop
// signal, an I/O error): no mistake in the command, so a verb that reports
// what readInput refuses as a usage mistake reports this as a failure
// (inputErrorf), exit 1 as docs/cli.md says.
type inputReadError struct{ err error }

func (e inputReadError) Error() string { return e.err.Error() }
func (e inputReadError) Unwrap() error { return e.err }

// inputErrorf is the error of a verb whose input (read by readInput) was
// refused: format and args, then ": " and err. It is a usage mistake (exit
// 2) unless the input was cut short (inputReadError), which exits 1.
func inputErrorf(err error, format string, args ...any) error {
	if errors.As(err, new(inputReadError)) {
		return fmt.Errorf(format+": %w", append(args, err)...)
	}
	return usagef(format+": %v", append(args, err)...)
}

// inputFileError is an input file named on the command line that cannot be
// read as one (missing, unreadable, a directory, a device): a mistake in the
// command, so it exits 2 however a verb wraps it (exitCodeHiding), as an
// input too large does.
type inputFileError struct {
	msg string
	err error
}

func (e inputFileError) Error() string { return e.msg }
func (e inputFileError) Unwrap() error { return e.err }

// lifetimeFlag is a flag holding a lifetime in whole seconds, given as a bare
// number of seconds (3600) or as a duration (1h, 90m, 3600s). It is checked
// when the flag is parsed, as the service would check it (positive, whole
// seconds, at most api.MaxExpirationSeconds): a login must not send the user
// to sign in and then be refused for its lifetime.
type lifetimeFlag struct{ d time.Duration }

func (f *lifetimeFlag) String() string {
	if f == nil || f.d == 0 {
		return ""
	}
	return f.d.String()
}

func (f *lifetimeFlag) Set(s string) error {
	const what = "give whole seconds (3600) or a duration (1h, 90m, 3600s)"
	var d time.Duration
	if digits := strings.TrimPrefix(s, "-"); digits != "" && strings.Trim(digits, "0123456789") == "" {
		// Seconds, read as every number vigil takes (decimalFlag): a
		// leading zero is refused, not read another way.
		n, err := api.ParseDecimal(digits)
		switch {
		case s[0] == '-':
			return errors.New("a lifetime cannot be negative; " + what)
		case len(digits) > 1 && digits[0] == '0':
			return errors.New("a leading zero is not taken (010 is neither octal 8 nor 10 here); " + what)
		case err != nil || n > int64(math.MaxInt64/time.Second):
			return fmt.Errorf("too long a lifetime: at most %d seconds (10 years)", api.MaxExpirationSeconds)
		}
		d = time.Duration(n) * time.Second
	} else if parsed, err := time.ParseDuration(s); err != nil {
		return errors.New("not a lifetime; " + what)
	} else {
		d = parsed
	}
	switch {
	case d < 0:
		return errors.New("a lifetime cannot be negative; " + what)
	case d == 0:
		return errors.New("a lifetime of 0 is no lifetime; " + what + ", or leave --expiration out for the service's default, 15 minutes")
	case d%time.Second != 0:
		return errors.New("not a whole number of seconds; " + what)
	case d > api.MaxExpirationSeconds*time.Second:
		return fmt.Errorf("%s is over the service's limit of 10 years (%d seconds); give a shorter lifetime", d, api.MaxExpirationSeconds)
	}
	f.d = d
	return nil
}
