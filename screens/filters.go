package screens

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// SavedFilter is a named set of filters of the All view, from the profile
// (gh-dash's sections): the palette offers "filter: NAME".
type SavedFilter struct {
	Name     string
	Statuses []string // full names (ACTIVITY_STATUS_…); none = any
	Types    []string // full names (ACTIVITY_TYPE_…); none = any
}

// NormalizeFilter checks a saved filter's values and returns them with their
// prefixes ("COMPLETED" → "ACTIVITY_STATUS_COMPLETED"); an unknown status is
// an error listing the valid ones, a type not shaped like one an error.
func NormalizeFilter(f SavedFilter) (SavedFilter, error) {
	if strings.TrimSpace(f.Name) == "" {
		return f, fmt.Errorf("a saved filter needs a name")
	}
	norm := func(what, prefix string, values, valid []string) ([]string, error) {
		var out []string
		for _, v := range values {
			full := strings.ToUpper(strings.TrimSpace(v))
			if !strings.HasPrefix(full, prefix) {
				full = prefix + full
			}
			if !slices.Contains(valid, full) {
				short := make([]string, len(valid))
				for i, s := range valid {
					short[i] = strings.TrimPrefix(s, prefix)
				}
				return nil, fmt.Errorf("filter %q: unknown %s %q; valid: %s", f.Name, what, v, strings.Join(short, ", "))
			}
			out = append(out, full)
		}
		return out, nil
	}
	var err error
	if f.Statuses, err = norm("status", "ACTIVITY_STATUS_", f.Statuses, api.ActivityStatuses()); err != nil {
		return f, err
	}
	// Types are read as the type filter and the CLI's --type read them: any
	// well-formed type, since the service lists by any.
	types := make([]string, 0, len(f.Types))
	for _, t := range f.Types {
		v, err := parseTypeFilter(t)
		if err != nil {
			return f, fmt.Errorf("filter %q: %w", f.Name, err)
		}
		types = append(types, v)
	}
	f.Types = types
	return f, nil
}

// savedFilterMsg applies a saved filter (chosen in the palette).
type savedFilterMsg struct{ filter SavedFilter }

// savedFilterCommands are the palette's entries for the profile's saved filters.
func (a *Activities) savedFilterCommands() []Command {
	var out []Command
	for _, f := range a.c.SavedFilters {
		c := Command{Name: "filter: " + f.Name, Run: msgCmd(savedFilterMsg{f})}
		if a.detail != nil {
			c.Disabled = "not while an activity is open"
		}
		out = append(out, c)
	}
	return out
}

// applySavedFilter shows the All view with the filter's statuses and types.
func (a *Activities) applySavedFilter(f SavedFilter) tea.Cmd {
	if !a.all {
		a.all = true
		a.list.Table.Empty, a.list.Table.Loading = "no activities match — s and t change the filters", "loading the activities…"
	}
	a.statuses, a.types = slices.Clone(f.Statuses), slices.Clone(f.Types)
	a.before, a.after = "", ""
	return tea.Batch(a.clearList(), a.load())
}
