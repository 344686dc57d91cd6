package proof

import "fmt"

// Bounds on a pivot's bridges and args, checked at decode in Borsh and JSON
// v2 alike. Real QOS pivots have a handful of each (a bridge per host port
// the app is proxied on, a few flags); bounded only by the 1 MiB manifest, a
// hostile one holds 250,000 bridges or 262,000 args, each shown as a line or
// a word of the report, which freezes the console on every key.
const (
	maxBridges = 16
	maxArgs    = 256
)

// MaxShownArgs bounds the args line shown for people (the CLI and the
// console), each arg also clipped to MaxShownConfig; --json keeps them whole.
const MaxShownArgs = 1024

// tooManyPivot is the error for a pivot's bridges or args over their bound.
func tooManyPivot(n, limit int, noun string) error {
	return &limitError{fmt.Sprintf("%d %s, over the limit of %d (real QOS pivots have a handful)", n, noun, limit)}
}

// checkPivotSizes bounds the bridges and args of a manifest read from JSON
// (decodeManifestJSON), as readBridges and readArgs bound them in Borsh.
func checkPivotSizes(bridges, args int) error {
	if bridges > maxBridges {
		return fmt.Errorf("manifest JSON v2: pivot.bridgeConfig: %w", tooManyPivot(bridges, maxBridges, "bridges"))
	}
	if args > maxArgs {
		return fmt.Errorf("manifest JSON v2: pivot.args: %w", tooManyPivot(args, maxArgs, "args"))
	}
	return nil
}

func readArgs(r *borshReader) ([]string, error) {
	n, err := r.count("pivot.args", 4)
	if err != nil {
		return nil, err
	}
	if n > maxArgs {
		r.overLimit("pivot.args", tooManyPivot(n, maxArgs, "args"))
	}
	out := []string{}
	for i := 0; i < n; i++ {
		s, err := r.str(fmt.Sprintf("pivot.args[%d]", i))
		if err != nil {
			return nil, err
		}
		if len(out) < maxArgs {
			out = append(out, s)
		}
	}
	return out, nil
}

// ShownArgs is the first of args that fit in MaxShownArgs bytes (at least
// one), for people, and how many were left out. The caller clips each arg to
// MaxShownConfig first.
func ShownArgs(args []string) (shown []string, more int) {
	size := 0
	for i, a := range args {
		size += len(a) + 1
		if i > 0 && size > MaxShownArgs {
			return args[:i], len(args) - i
		}
	}
	return args, 0
}
