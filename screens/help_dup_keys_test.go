package screens

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/vigil-console/vigil/server/servertest"
)

// sharedHelpKeys lists the keys that two enabled bindings of the help shown
// now (short and full, the screen's or dialog's and the global ones) share.
// esc is left out: a screen's back and the global back are both esc on
// purpose (Rebind), and help shows it once.
func sharedHelpKeys(r *Root) []string {
	own, global, globalFull := r.helpKeys()
	var all []key.Binding
	all = append(all, own.ShortHelp()...)
	all = append(all, global...)
	for _, col := range append(own.FullHelp(), globalFull...) {
		all = append(all, col...)
	}
	owners := map[string][]string{}
	for _, b := range all {
		if !b.Enabled() {
			continue
		}
		ks := slices.Clone(b.Keys())
		slices.Sort(ks)
		id := b.Help().Desc + " [" + strings.Join(ks, " ") + "]"
		for _, k := range ks {
			if k != "esc" && !slices.Contains(owners[k], id) {
				owners[k] = append(owners[k], id)
			}
		}
	}
	var out []string
	for k, ids := range owners {
		if len(ids) > 1 {
			out = append(out, fmt.Sprintf("%q: %s", k, strings.Join(ids, " and ")))
		}
	}
	slices.Sort(out)
	return out
}

// On every screen, in each of its states, no key is in two enabled bindings
// of the help: one of them would never get it (Users' space marked a key
// while page down claimed it too).
func TestNoTwoEnabledBindingsShareAKey(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	states := []struct {
		name string
		keys []string
	}{
		{"list", nil}, {"open", []string{"enter"}}, {"filter", []string{"/"}},
		{"status", []string{"s"}}, {"evaluations", []string{"e"}}, {"evaluation", []string{"e", "enter"}},
	}
	for i, s := range h.root.screens {
		for _, st := range states {
			h.root.dialogs.dialogs = nil
			h.root.fullHelp = false
			h.root.active = i
			for range 3 {
				h.key("esc")
			}
			h.root.dialogs.dialogs = nil
			for _, k := range st.keys {
				h.key(k)
			}
			if h.root.active != i {
				continue
			}
			for _, dup := range sharedHelpKeys(h.root) {
				t.Errorf("%s (%s): %s", s.Title(), st.name, dup)
			}
		}
	}
}
