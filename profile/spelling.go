package profile

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// The TOML library matches a key to a field case-insensitively, and decodes
// two spellings of one key (read_only and READ_ONLY, which TOML holds distinct)
// in map order: which one wins changes from run to run. So every key is
// checked as written, before decoding, against the exact names.

// tomlNames are the toml tag names of struct type T, in field order.
func tomlNames[T any]() []string {
	var names []string
	t := reflect.TypeFor[T]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

var (
	topKeyNames     = []string{"default_profile", "profiles"}
	profileKeyNames = tomlNames[Profile]()
	filterKeyNames  = tomlNames[Filter]()
	setPinKeyNames  = tomlNames[ManifestSetPin]()
	// profileKeyList names the keys a profile takes, for the unknown-key error.
	profileKeyList = strings.Join(profileKeyNames, ", ")
)

// namesAt are the only names a key may take under prefix; nil when any name
// goes there (profile names, filter names, key actions, apps, PCR indexes).
func namesAt(prefix toml.Key) []string {
	switch {
	case len(prefix) == 0:
		return topKeyNames
	case len(prefix) == 2 && prefix[0] == "profiles":
		return profileKeyNames
	case len(prefix) == 4 && prefix[0] == "profiles" && prefix[2] == "filters":
		return filterKeyNames
	case len(prefix) == 4 && prefix[0] == "profiles" && prefix[2] == "expected_manifest_sets":
		return setPinKeyNames
	}
	return nil
}

// checkSpelling refuses a key whose name is a known one in another case
// (saying which spelling to write, and where the key is set twice), and a
// profile key written below a sub-table header, which TOML puts into that
// sub-table. Other unknown keys are left to md.Undecoded.
func checkSpelling(md toml.MetaData, text, path string, keyActions []string) error {
	var errs []error
	reported := map[string]bool{}
	report := func(k toml.Key, msg string) {
		name := joinKey(k)
		if !reported[name] {
			reported[name] = true
			errs = append(errs, &configError{path: path, line: lineOf(md, text, k), key: name, msg: msg})
		}
	}
	for _, k := range md.Keys() {
		if bad := wrongCase(md, text, k); bad != nil {
			report(k[:bad.at+1], bad.msg)
			continue
		}
		if msg := misplaced(md, text, k, keyActions); msg != "" {
			report(k, msg)
		}
	}
	return errors.Join(errs...)
}

type caseProblem struct {
	at  int // index of the part spelt wrong
	msg string
}

// wrongCase finds the first part of k that is a known name in another case.
func wrongCase(md toml.MetaData, text string, k toml.Key) *caseProblem {
	for i, part := range k {
		names := namesAt(k[:i])
		if names == nil || slices.Contains(names, part) {
			continue
		}
		j := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, part) })
		if j < 0 {
			return nil // unknown: md.Undecoded reports it
		}
		want := names[j]
		exact := append(slices.Clone(k[:i]), want)
		if md.IsDefined(exact...) {
			return &caseProblem{i, fmt.Sprintf("set twice, as %s (line %d) and %s (line %d); keep one, written %s (keys are lower case)",
				want, lineOf(md, text, exact), part, lineOf(md, text, k[:i+1]), want)}
		}
		return &caseProblem{i, fmt.Sprintf("keys are lower case; write %s", want)}
	}
	return nil
}

// profileSubTables are the profile keys written as [profiles.NAME.KEY…] tables.
var profileSubTables = []string{"keys", "filters", "expected_pcrs", "expected_pivot_hashes", "expected_manifest_sets", "expected_quorum_keys"}

// misplaced explains a profile key found inside one of the profile's
// sub-tables (keys, filters, expected_pcrs): it was written below that
// sub-table's header.
func misplaced(md toml.MetaData, text string, k toml.Key, keyActions []string) string {
	if len(k) < 4 || k[0] != "profiles" || !slices.Contains(profileSubTables, k[2]) {
		return ""
	}
	last := k[len(k)-1]
	j := slices.IndexFunc(profileKeyNames, func(n string) bool { return strings.EqualFold(n, last) })
	if j < 0 || md.Type(k...) == "Hash" {
		return ""
	}
	if k[2] == "keys" && len(k) == 4 && slices.Contains(keyActions, last) && md.Type(k...) == "Array" {
		return "" // a key action of the same name, rebound
	}
	table := k[:len(k)-1]
	return fmt.Sprintf("%s is a key of the profile, but line %d is inside the [%s] table that starts at line %d (TOML puts every key after a [table] header into that table); move it above that header",
		profileKeyNames[j], findKeyLine(text, k), joinKey(table), findKeyLine(text, table))
}

// lineOf is the line of key, or of the first key under it: a table only
// implied by [profiles.prod] has no line of its own.
func lineOf(md toml.MetaData, text string, key toml.Key) int {
	for _, k := range md.Keys() {
		if len(k) >= len(key) && slices.Equal(k[:len(key)], key) {
			if line := findKeyLine(text, k); line > 0 {
				return line
			}
		}
	}
	return findKeyLine(text, key)
}
