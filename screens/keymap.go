package screens

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyAction is one thing a key does, under the name a user rebinds it by in
// config.toml ([profiles.NAME.keys] approve = ["A"]). The binding is the screen's
// own, so rebinding changes what the screen matches and what help shows at once.
type KeyAction struct {
	Name    string
	Binding *key.Binding
	// Column is the full help's column the key shows in (0 = the first).
	Column int
}

// KeyedScreen is a screen whose keys can be rebound. Screens without it keep their
// default keys.
type KeyedScreen interface {
	// KeyActions names the screen's rebindable keys; names are prefixed with the
	// screen's scope ("activities.approve").
	KeyActions() []KeyAction
}

// fixedKeyed is a screen with keys that are not rebound (a list's movement and
// filter, a pane's scrolling): Rebind refuses to give an action one of them.
type fixedKeyed interface {
	fixedKeys() []key.Binding
}

func (a *Activities) fixedKeys() []key.Binding {
	return append([]key.Binding{a.keys.Up, a.keys.Down, a.keys.Filter}, a.list.FixedKeys()...)
}
func (b *BootProofs) fixedKeys() []key.Binding {
	return append([]key.Binding{b.keys.Up, b.keys.Down}, b.list.FixedKeys()...)
}
func (o *Organization) fixedKeys() []key.Binding { return o.pane.KeyBindings() }
func (p *Policies) fixedKeys() []key.Binding {
	return append([]key.Binding{p.keys.Up, p.keys.Down}, p.list.FixedKeys()...)
}
func (u *Users) fixedKeys() []key.Binding { return u.list.FixedKeys() }
func (m *MfaPolicies) fixedKeys() []key.Binding {
	return append([]key.Binding{m.keys.Up, m.keys.Down}, m.list.FixedKeys()...)
}
func (w *Webhooks) fixedKeys() []key.Binding { return w.list.FixedKeys() }

// fixedOwner says which fixed key of screen s (or of any screen, s < 0) k is,
// "" when none.
func (r *Root) fixedOwner(s int, k string) string {
	for i, sc := range r.screens {
		fk, ok := sc.(fixedKeyed)
		if !ok || (s >= 0 && i != s) {
			continue
		}
		for _, b := range fk.fixedKeys() {
			if slices.Contains(b.Keys(), k) {
				return fmt.Sprintf("the %s screen's fixed key %s (%s)", sc.Title(), b.Help().Key, b.Help().Desc)
			}
		}
	}
	return ""
}

// globalKeys are handled by the root model whatever the screen.
type globalKeys struct {
	Quit, ForceQuit, Help, Next, Prev, Jump, Back, Palette, Messages key.Binding
	// NoScreen are the screen numbers past the last screen (8 and 9 of 7
	// screens): they say there is no such screen. Not in help.
	NoScreen key.Binding
}

// screenNumbers are the keys kept for going to a screen, whatever the
// number of screens: no action may take one.
var screenNumbers = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Next:      key.NewBinding(key.WithKeys("tab", "l"), key.WithHelp("tab/l", "next screen")),
		Prev:      key.NewBinding(key.WithKeys("shift+tab", "h"), key.WithHelp("shift+tab/h", "previous screen")),
		Jump:      key.NewBinding(key.WithKeys(screenNumbers...), key.WithHelp("1-9", "go to screen")),
		NoScreen:  key.NewBinding(key.WithKeys()),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Palette:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "commands")),
		Messages:  key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "messages")),
	}
}

// setScreens makes Jump the numbers of n screens (help "1-7") and NoScreen
// the numbers past them.
func (k *globalKeys) setScreens(n int) {
	n = min(max(n, 1), len(screenNumbers))
	k.Jump.SetKeys(screenNumbers[:n]...)
	help := "1"
	if n > 1 {
		help = "1-" + screenNumbers[n-1]
	}
	k.Jump.SetHelp(help, "go to screen")
	k.NoScreen.SetKeys(screenNumbers[n:]...)
}

// KeyActions are the global keys a user may rebind. ctrl+c (always quits) and 1-9
// (screen numbers) are fixed.
func (k *globalKeys) KeyActions() []KeyAction {
	return []KeyAction{
		{"quit", &k.Quit, 2}, {"help", &k.Help, 2}, {"next_screen", &k.Next, 0}, {"prev_screen", &k.Prev, 0},
		{"back", &k.Back, 1}, {"palette", &k.Palette, 1}, {"messages", &k.Messages, 1},
	}
}

// ShortHelp is every global key: at 80×24 the help lines wrap rather than cut any.
func (k globalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.Jump, k.Back, k.Palette, k.Messages, k.Help, k.Quit}
}

// FullHelp is three short columns, so on a narrow window they sit side by side
// under the screen's columns rather than in one tall column.
func (k globalKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Jump}, {k.Back, k.Palette, k.Messages}, {k.Help, k.Quit, k.ForceQuit}}
}

// KeyActions of the Activities screen (the table's own movement and filter keys
// are shared by every table and not rebound here).
func (a *Activities) KeyActions() []KeyAction {
	k := &a.keys
	l := &a.list.Keys
	return scoped("activities", []KeyAction{
		{"open", &l.Open, 0}, {"back", &l.Back, 0}, {"sort", &l.Sort, 0}, {"reverse_sort", &l.ReverseSort, 0},
		{"approve", &k.Approve, 1}, {"reject", &k.Reject, 1}, {"copy_id", &k.CopyID, 1}, {"copy_fingerprint", &k.CopyFP, 1},
		{"refresh", &k.Refresh, 2}, {"auto_refresh", &k.AutoRefresh, 2}, {"mode", &k.Mode, 2},
		{"status_filter", &k.Status, 2}, {"type_filter", &k.Type, 2}, {"prev_page", &k.PrevPage, 2}, {"next_page", &k.NextPage, 2},
		{"new_operation", &k.NewOperation, 2},
	})
}

// KeyActions of the Boot proofs screen.
func (b *BootProofs) KeyActions() []KeyAction {
	k := &b.keys
	l := &b.list.Keys
	return scoped("boot_proofs", []KeyAction{
		{"open", &l.Open, 0}, {"back", &l.Back, 0}, {"sort", &l.Sort, 0}, {"reverse_sort", &l.ReverseSort, 0},
		{"copy", &k.Copy, 1}, {"refresh", &k.Refresh, 1},
	})
}

// KeyActions of the Organization screen.
func (o *Organization) KeyActions() []KeyAction {
	return scoped("organization", append([]KeyAction{{"refresh", &o.keys.Refresh, 0}}, o.governanceActions()...))
}

// fullHelp is the full help generated from the registry: fixed[i] (keys that are
// not rebound, like a table's movement) head column i, then the actions of that
// column in order, each with all its keys (esc/backspace back), where the short
// help names the first.
func fullHelp(actions []KeyAction, fixed ...[]key.Binding) [][]key.Binding {
	cols := len(fixed)
	for _, a := range actions {
		cols = max(cols, a.Column+1)
	}
	out := make([][]key.Binding, cols)
	for i, f := range fixed {
		out[i] = append(out[i], f...)
	}
	for _, a := range actions {
		out[a.Column] = append(out[a.Column], withAllKeys(*a.Binding))
	}
	return out
}

// withAllKeys is b with every key in its help (as Rebind writes it), when its
// help names only one of them.
func withAllKeys(b key.Binding) key.Binding {
	ks := b.Keys()
	if len(ks) > 1 && slices.Contains(ks, b.Help().Key) {
		b.SetHelp(strings.Join(ks, "/"), b.Help().Desc)
	}
	return b
}

func scoped(scope string, actions []KeyAction) []KeyAction {
	for i := range actions {
		actions[i].Name = scope + "." + actions[i].Name
	}
	return actions
}

// keyActions are the root's rebindable actions: the global ones, then each
// screen's, in tab order.
func (r *Root) keyActions() (global []KeyAction, perScreen [][]KeyAction) {
	global = r.keys.KeyActions()
	for _, s := range r.screens {
		var acts []KeyAction
		if ks, ok := s.(KeyedScreen); ok {
			acts = ks.KeyActions()
		}
		perScreen = append(perScreen, acts)
	}
	return global, perScreen
}

// Rebind replaces the keys of the named actions. Unknown names are an error listing
// the valid ones; so is an empty key list, and a key that two actions of one screen
// (or a screen action and a global key, which would always win) would share.
// Nothing is changed when an error is returned.
func (r *Root) Rebind(keys map[string][]string) error {
	if len(keys) == 0 {
		return nil
	}
	global, perScreen := r.keyActions()
	byName := map[string]KeyAction{}
	var names []string
	for _, a := range global {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	for _, acts := range perScreen {
		for _, a := range acts {
			byName[a.Name] = a
			names = append(names, a.Name)
		}
	}
	for _, name := range sortedNames(keys) {
		if _, ok := byName[name]; !ok {
			return fmt.Errorf("unknown key action %q; valid actions: %s", name, strings.Join(names, ", "))
		}
		if len(keys[name]) == 0 {
			return fmt.Errorf("key action %q: the key list is empty; give at least one key, e.g. [\"x\"]", name)
		}
		for _, k := range keys[name] {
			if strings.TrimSpace(k) == "" || strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return fmt.Errorf("key action %q: %q is not a key; write keys as Bubble Tea names them: \"a\", \"A\", \"ctrl+r\", \"enter\", \"f5\"", name, k)
			}
			// The fixed keys first: said as a clash, ctrl+c in quit's list
			// read "bound to both quit and quit".
			if slices.Contains(r.keys.ForceQuit.Keys(), k) {
				return fmt.Errorf("key action %q: %q always quits and cannot be bound to an action; remove it from %s", name, k, name)
			}
			if slices.Contains(r.keys.Jump.Keys(), k) {
				return fmt.Errorf("key action %q: %q goes to screen %s and cannot be bound to an action; remove it from %s", name, k, k, name)
			}
			if slices.Contains(screenNumbers, k) {
				return fmt.Errorf("key action %q: %q is kept for a screen number (1-9) and cannot be bound to an action; remove it from %s", name, k, name)
			}
		}
	}
	// A rebound key must not be one a screen answers with keys that are not
	// rebound (a list's ↓ would open the vote dialog, and so would the mouse
	// wheel, which arrives as ↑/↓): a global action's on any screen, a
	// screen's action's on its own. An action may keep a key it has by
	// default (Users' next_key is ↓/j in the open user).
	screenOf := map[string]int{}
	for i, acts := range perScreen {
		for _, a := range acts {
			screenOf[a.Name] = i
		}
	}
	for _, name := range sortedNames(keys) {
		s, ok := screenOf[name]
		if !ok {
			s = -1
		}
		for _, k := range keys[name] {
			if slices.Contains(byName[name].Binding.Keys(), k) {
				continue
			}
			if o := r.fixedOwner(s, k); o != "" {
				return fmt.Errorf("key action %q: %q is already %s, which cannot be rebound; choose another key for %s", name, k, o, name)
			}
		}
	}
	// Check for clashes on the keys as they would be after rebinding.
	after := func(a KeyAction) []string {
		if ks, ok := keys[a.Name]; ok {
			return ks
		}
		return a.Binding.Keys()
	}
	owner := map[string]string{}
	// The fixed keys: ctrl+c always quits and 1-9 go to a screen.
	for _, k := range r.keys.ForceQuit.Keys() {
		owner[k] = "quit (ctrl+c, which cannot be rebound)"
	}
	for _, k := range screenNumbers {
		owner[k] = "go to screen (1-9, which cannot be rebound)"
	}
	for _, a := range global {
		for _, k := range after(a) {
			if o, ok := owner[k]; ok {
				return fmt.Errorf("key %q is bound to both %s and %s", k, o, a.Name)
			}
			owner[k] = a.Name
		}
	}
	for _, acts := range perScreen {
		seen := map[string]string{}
		for _, a := range acts {
			for _, k := range after(a) {
				if o, ok := seen[k]; ok {
					return fmt.Errorf("key %q is bound to both %s and %s", k, o, a.Name)
				}
				// A screen's back key may be esc like the global back (which only
				// closes the full help); any other shared key would never reach the screen.
				if o, ok := owner[k]; ok && o != "back" {
					return fmt.Errorf("key %q of %s is already the global key of %s, which would always take it", k, a.Name, o)
				}
				seen[k] = a.Name
			}
		}
	}
	for name, ks := range keys {
		rebind(byName[name].Binding, ks)
	}
	return nil
}

// rebind gives b new keys; its help shows them.
func rebind(b *key.Binding, keys []string) {
	desc := b.Help().Desc
	b.SetKeys(keys...)
	b.SetHelp(strings.Join(keys, "/"), desc)
}

// KeyActionNames lists every action that config.toml may rebind, for validating a
// config before the console starts.
func KeyActionNames() []string {
	r := NewRoot(Options{})
	global, perScreen := r.keyActions()
	var names []string
	for _, a := range global {
		names = append(names, a.Name)
	}
	for _, acts := range perScreen {
		for _, a := range acts {
			names = append(names, a.Name)
		}
	}
	return names
}

// CheckKeys reports what Rebind would say about keys, without a console.
func CheckKeys(keys map[string][]string) error { return NewRoot(Options{}).Rebind(keys) }

func sortedNames(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// The screens' keys. Each screen holds one of these structs; its KeyActions above
// name them for config.toml, and its full help is generated from them.

// activitiesKeys are the Activities screen's keys. Approve and Reject are enabled
// or disabled for the selected activity before every render, so help shows them
// struck through when they would do nothing.
type activitiesKeys struct {
	Approve, Reject, Refresh, AutoRefresh, Mode      key.Binding
	Status, Type, NextPage, PrevPage, CopyID, CopyFP key.Binding
	Up, Down, Filter                                 key.Binding
	// NewOperation opens the palette of operation forms (opforms.go).
	NewOperation key.Binding
}

func newActivitiesKeys() activitiesKeys {
	return activitiesKeys{
		Approve:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Reject:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		AutoRefresh: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/resume auto-refresh")),
		Mode:        key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "pending/all")),
		Status:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "status filter")),
		Type:        key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "type filter")),
		NextPage:    key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "older page")),
		PrevPage:    key.NewBinding(key.WithKeys("["), key.WithHelp("[", "newer page")),
		CopyID:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy id")),
		CopyFP:      key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy fingerprint")),
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),

		NewOperation: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new operation")),
	}
}

type bootProofsKeys struct {
	Refresh, Copy, Up, Down key.Binding
}

func newBootProofsKeys() bootProofsKeys {
	return bootProofsKeys{
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "re-verify")),
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
	}
}

// organizationKeys are the Organization screen's keys.
type organizationKeys struct {
	Refresh key.Binding
}

func newOrganizationKeys() organizationKeys {
	return organizationKeys{Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh"))}
}
