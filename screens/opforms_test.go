package screens

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/vigil-console/vigil/api"
)

// openOperation opens an operation's form from the palette, by name.
func openOperation(h *harness, name string) {
	h.t.Helper()
	h.key(":")
	h.typeText(name)
	h.key("enter")
	if d, ok := h.root.dialogs.Top().(*opFormDialog); !ok || d.spec.paletteName() != name {
		h.t.Fatalf("the palette did not open the %q form:\n%s", name, h.frame())
	}
}

func TestOperationFormsShowValidationErrorsUnderTheirFields(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input func(h *harness)
		want  []string
	}{
		{"create invitations", func(h *harness) {}, []string{"Invitees (name <e-mail>, comma-separated) is required"}},
		{"create invitations", func(h *harness) { h.typeText("dave <dave@example.com>, erin <not-an-address>") },
			[]string{"not a list of name <e-mail>: an e-mail address has no @"}},
		{"create invitations", func(h *harness) { h.typeText("eve eve@example.com") },
			[]string{"a name is not followed by its <e-mail>"}},
		{"create invitations", func(h *harness) {
			h.typeText("dave <dave@example.com>")
			h.key("tab")
			h.key("tab")
			h.key("tab")
			h.key("ctrl+u") // the sender defaults to you; emptied here
		}, []string{"Sender user id is required"}},
		// Every mistake at once: a bad invitee list and no sender.
		{"create invitations", func(h *harness) {
			h.typeText("bob, <notanemail")
			h.key("tab")
			h.key("tab")
			h.key("tab")
			h.key("ctrl+u")
		}, []string{"not a list of name <e-mail>", "Sender user id is required"}},
		{"create user tag", func(h *harness) {}, []string{"Tag name is required"}},
		{"create smart contract interface", func(h *harness) {}, []string{"Contract address or program id is required", "Label is required"}},
		{"delete wallet accounts", func(h *harness) {}, []string{"Wallet account ids (comma- or space-separated) is required"}},
		{"delete wallet accounts", func(h *harness) { h.typeText(" , ,") }, []string{"lists no id; type the ids of the accounts to delete"}},
		{"update oauth2 credential", func(h *harness) {
			h.typeText("cred-1")
			h.key("tab")
			h.key("tab")
			h.typeText("client-1")
		}, []string{"Client secret (typed hidden; encrypted here to the TLS fetcher key) is required"}},
		{"delete tvc deployment", func(h *harness) {}, []string{"Deployment id is required"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
			openOperation(h, tc.name)
			tc.input(h)
			h.key("ctrl+s")
			out := h.frame()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q under its field:\n%s", w, out)
				}
			}
			if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok {
				t.Errorf("an invalid form must stay open")
			}
		})
	}
}

func TestInvitationSenderDefaultsToYou(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "create invitations")
	d := h.root.dialogs.Top().(*opFormDialog)
	if got := d.form.Values()["senderUserId"]; got == "" || got != h.root.common.Org.UserID {
		t.Errorf("sender %q, want your user id %q", got, h.root.common.Org.UserID)
	}
}

func TestUserTagPicksUsersFromTheList(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "create user tag")
	h.typeText("oncall")
	h.key("tab")
	h.key("space")
	d := h.root.dialogs.Top().(*opFormDialog)
	picked := d.form.Values()["userIds"]
	if _, ok := h.root.common.Org.UserNames[picked]; !ok {
		t.Errorf("picked %q is not a listed user (%v)", picked, h.root.common.Org.UserNames)
	}
	if want := "picked (1): " + h.root.common.Org.UserNames[picked]; !strings.Contains(h.frame(), want) {
		t.Errorf("the form should say who is picked (%q):\n%s", want, h.frame())
	}
}

func TestSmartContractFileOverTheLimitIsRefusedBeforeSending(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`["`+strings.Repeat("a", 400_001)+`"]`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		big:                             "is 400005 bytes of 400000 allowed",
		bad:                             "is not valid JSON",
		filepath.Join(dir, "none.json"): "cannot be read",
		dir:                             "is a directory",
	} {
		// The fake has no submit methods: reaching one would panic the test.
		h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
		openOperation(h, "create smart contract interface")
		h.typeText("0x6B175474E89094C44Da98b954EedeAC495271d0F")
		h.key("tab")
		h.key("tab")
		h.typeText("DAI")
		h.key("tab")
		h.send(tea.PasteMsg{Content: file})
		h.key("ctrl+s") // the file is read by a command, before any confirm
		if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok {
			t.Fatalf("%s: the form should be back with the file's error, not %T:\n%s", filepath.Base(file), h.root.dialogs.Top(), h.frame())
		}
		if out := h.frame(); !strings.Contains(out, want) {
			t.Errorf("%s: want %q under the file field:\n%s", filepath.Base(file), want, out)
		}
		h.typeText("y") // lands in the form's field: nothing is sent
	}
}

func TestDestructiveOperationsConfirmWithNoAsDefault(t *testing.T) {
	for _, tc := range []struct{ name, id, question string }{
		{"delete wallet accounts", "wa-1", "Delete these wallet accounts?"},
		{"delete tvc deployment", "dep-1", "Delete this TVC deployment?"},
	} {
		h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
		openOperation(h, tc.name)
		h.typeText(tc.id)
		h.key("ctrl+s")
		out := h.frame()
		if !strings.Contains(out, tc.question) || !strings.Contains(out, tc.id) {
			t.Fatalf("%s: want the confirm restating %s:\n%s", tc.name, tc.id, out)
		}
		h.key("enter") // No: the fake would panic on a submit
		if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok || h.root.dialogs.Len() != 1 {
			t.Errorf("%s: enter should answer No and return to the form", tc.name)
		}
		for _, m := range h.msgs {
			if _, ok := m.(opSubmittedMsg); ok {
				t.Errorf("%s: submitted after No", tc.name)
			}
		}
	}
}

// No, esc or enter on a destructive operation's confirm returns to its form
// with everything typed and the focus where it was, and sends nothing.
func TestOperationConfirmNoReturnsToTheForm(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "delete wallet accounts")
	h.typeText("wa-1, wa-2")
	h.key("tab")
	h.key("right") // delete without export: yes
	want := h.root.dialogs.Top().(*opFormDialog).form.Values()
	for _, answer := range []string{"n", "esc", "enter"} {
		h.key("ctrl+s")
		if d := h.root.dialogs.Top(); d == nil || d.ID() != "confirm:delete_wallet_accounts" {
			t.Fatalf("no confirm:\n%s", h.frame())
		}
		h.key(answer)
		d, ok := h.root.dialogs.Top().(*opFormDialog)
		if !ok || h.root.dialogs.Len() != 1 {
			t.Fatalf("%s on the confirm: the form is gone:\n%s", answer, h.frame())
		}
		if got := d.form.Values(); !maps.Equal(got, want) || d.form.Focused() != "deleteWithoutExport" {
			t.Errorf("%s on the confirm: form %v focused on %s, want %v as typed", answer, got, d.form.Focused(), want)
		}
		if out := h.frame(); !strings.Contains(out, "wa-1, wa-2") || !strings.Contains(out, "◂ yes ▸") {
			t.Errorf("%s on the confirm: the form does not show what was typed:\n%s", answer, out)
		}
	}
	for _, m := range h.msgs {
		if _, ok := m.(opSubmittedMsg); ok {
			t.Error("submitted after No") // the fake would have panicked first
		}
	}
}

func TestWalletDeletionWithoutExportWarns(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "delete wallet accounts")
	h.typeText("wa-1")
	h.key("tab")
	h.key("right")
	h.key("ctrl+s")
	if out := h.frame(); !strings.Contains(out, "WITHOUT EXPORT") {
		t.Errorf("the confirm should warn about deleting without export:\n%s", out)
	}
}

func TestOperationFormsAreUnavailableReadOnly(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, true, 0)
	cmds := h.root.commands()
	seen := 0
	for _, s := range operationSpecs() {
		for _, c := range cmds {
			if c.Name == s.paletteName() {
				seen++
				if c.Disabled == "" || c.Run != nil || c.Dialog != nil || !strings.Contains(c.Disabled, "read-only") {
					t.Errorf("%s is available read-only: %+v", c.Name, c)
				}
			}
		}
	}
	if seen != len(operationSpecs()) {
		t.Errorf("%d of %d operations listed", seen, len(operationSpecs()))
	}
	h.key(":")
	h.typeText("create invitations")
	h.key("enter")
	if _, ok := h.root.dialogs.Top().(*opFormDialog); ok {
		t.Errorf("a read-only console opened a submit form")
	}
}

func TestActivitiesNOpensTheOperationForms(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("n")
	out := h.frame()
	for _, s := range operationSpecs() {
		if !strings.Contains(out, s.paletteName()) {
			t.Errorf("n should list %q:\n%s", s.paletteName(), out)
		}
	}
	if strings.Contains(out, "go to Organization") {
		t.Errorf("n lists only the operations:\n%s", out)
	}
	h.typeText("delete tvc")
	h.key("enter")
	if d, ok := h.root.dialogs.Top().(*opFormDialog); !ok || d.spec.op != "delete_tvc_deployment" {
		t.Errorf("choosing an operation should open its form:\n%s", h.frame())
	}
}

// enter in the palette and a key typed in the same burst: the key arrives
// before the dialog enter asked for (a command), and must not act on the
// list below (y copies the selected activity's id there).
func TestKeyTypedBeforeThePalettesDialogAppearsActsOnNothing(t *testing.T) {
	for _, tc := range []struct{ palette, command, id string }{
		{"n", "create user tag", "op:create_user_tag"},
		{"n", "get onramp transaction status", "query:onramp"},
		{":", "messages", messagesID},
	} {
		t.Run(tc.command, func(t *testing.T) {
			h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
			h.key(tc.palette)
			if top := h.root.dialogs.Top(); top == nil || top.ID() != paletteID {
				t.Fatalf("%s did not open the palette:\n%s", tc.palette, h.frame())
			}
			h.typeText(tc.command)
			_, open := h.root.Update(keyPress("enter"))
			_, afterY := h.root.Update(keyPress("y")) // typed for the dialog
			h.run(afterY)
			h.run(open) // the dialog arrives after the y
			if top := h.root.dialogs.Top(); top == nil || top.ID() != tc.id {
				t.Fatalf("enter did not open %s:\n%s", tc.id, h.frame())
			}
			if got := h.clipboard(); len(got) != 0 {
				t.Errorf("the y typed for the dialog acted on the list below (copied %q)", got)
			}
		})
	}
}

// n on an operation's confirm and a key typed in the same burst: the key
// arrives before the form No reopens, and must not act on the list below.
func TestKeyTypedBeforeTheReopenedFormAppearsActsOnNothing(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "create invitations")
	h.typeText("dave <dave@example.com>")
	h.key("ctrl+s")
	if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
		t.Fatalf("ctrl+s asked for no confirm:\n%s", h.frame())
	}
	_, no := h.root.Update(keyPress("n"))
	_, afterY := h.root.Update(keyPress("y")) // meant for the form
	h.run(afterY)
	h.run(no)
	if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok {
		t.Fatalf("n did not reopen the form:\n%s", h.frame())
	}
	if got := h.clipboard(); len(got) != 0 {
		t.Errorf("the y typed for the reopened form acted on the list below (copied %q)", got)
	}
}

// The operation forms at both sizes, errors shown. Update with
// go test ./screens -run TestGoldenOperationForms -update.
func TestGoldenOperationForms(t *testing.T) {
	views := []struct {
		name string
		keys []string
	}{
		{"operations", []string{"n"}},
		{"invitations-errors", []string{":", "create invitations", "enter", "ctrl+s"}},
		{"contract-errors", []string{":", "create smart contract", "enter", "ctrl+s"}},
		{"oauth2-secret-typed", []string{":", "update oauth2", "enter", "tab", "tab", "tab", "hunter2", "ctrl+s"}},
		{"wallet-confirm", []string{":", "delete wallet", "enter", "wa-1", "tab", "right", "ctrl+s"}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, v := range views {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], v.name), func(t *testing.T) {
				h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, k := range v.keys {
					switch {
					case len([]rune(k)) == 1 || k == "enter" || k == "tab" || k == "right" || strings.HasPrefix(k, "ctrl+"):
						h.send(keyPressFor(k))
					default:
						h.typeText(k)
					}
				}
				out := screenFrame(h.root)
				if strings.Contains(out, "hunter2") {
					t.Fatal("a hidden field is drawn")
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

func TestOnrampStatusIsAQueryAvailableReadOnly(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, true, 0)
	h.key(":")
	h.typeText("get onramp transaction status")
	h.key("enter")
	h.key("ctrl+s")
	if out := h.frame(); !strings.Contains(out, "Transaction id is required") {
		t.Fatalf("want the required error:\n%s", out)
	}
	h.typeText("tx-1")
	h.key("ctrl+s")
	var messages strings.Builder
	for _, e := range h.root.log.entries {
		messages.WriteString(e.text + "\n")
	}
	if !strings.Contains(messages.String(), `on-ramp transaction "tx-1": the fake has no on-ramp transactions`) ||
		!strings.Contains(h.frame(), `on-ramp transaction "tx-1"`) {
		t.Errorf("the query's answer should be shown and kept, read-only too:\n%s\n%s", h.frame(), messages.String())
	}
}

// TestInvitationTagsWhenNotEveryTagWasRead: an organization with more
// create_user_tag activities than the console reads (api.MaxUserTagPages
// pages) resolves tags as the CLI's --tag does: a name among the tags read is
// taken with a warning in the confirm (an older tag of the same name was not
// looked for), an id that is not among them is sent as given with a warning
// (an older tag may have it), and a name that is not among them is refused,
// asking for the id.
func TestInvitationTagsWhenNotEveryTagWasRead(t *testing.T) {
	read := api.MaxUserTagPages * 100
	acts := make([]api.Activity, 0, read+1)
	for i := range read + 1 { // newest first; the last is never read
		name := fmt.Sprintf("t-%04d", read-i)
		if i == read {
			name = "oldest"
		}
		acts = append(acts, api.Activity{ID: fmt.Sprintf("act-tag-%04d", i), Status: api.StatusCompleted, Type: api.TypeCreateUserTag,
			Intent: api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: name}},
			Result: api.Result{CreateUserTagResult: &api.CreateUserTagResult{UserTagID: fmt.Sprintf("01a20a2b-0000-7000-8000-%012d", i)}}})
	}
	const unreadID = "01a20a2b-0000-7000-8000-000000001000" // "oldest"
	for _, tc := range []struct {
		tags, want string
		confirm    bool
	}{
		{"t-1000", `user tag "t-1000" resolved among the 1000 newest tags read`, true},
		{unreadID, "it is sent as the id given", true},
		{"oldest", `"oldest" is not among the 1000 newest user tags`, false},
	} {
		h := newHarness(t, &fakeClient{activities: acts}, false, 0)
		h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
		if h.root.common.Org.TagNamesComplete {
			t.Fatal("the console believes it read every tag")
		}
		openOperation(h, "create invitations")
		h.typeText("eve <eve@example.com>")
		h.key("tab")
		h.key("tab")
		h.typeText(tc.tags)
		h.key("ctrl+s")
		_, confirmed := h.root.dialogs.Top().(*ConfirmDialog)
		if confirmed != tc.confirm {
			t.Fatalf("%s: confirm %v, want %v:\n%s", tc.tags, confirmed, tc.confirm, h.frame())
		}
		if out := h.plainFrame(); !strings.Contains(out, tc.want) {
			t.Errorf("%s: want %q:\n%s", tc.tags, tc.want, out)
		}
		if confirmed {
			h.key("n") // the fake cannot send invitations
		}
	}
}

// An operation's confirm that cannot show all it submits says so first, as
// the vote dialog the other members read will: the forms bound what can be
// typed, so the intent is built here past what the console shows.
func TestOperationConfirmSaysWhatItCannotShow(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	var spec opSpec
	for _, s := range operationSpecs() {
		if s.op == "delete_wallet_accounts" {
			spec = s
		}
	}
	d := newOpFormDialog(h.root.common, spec)
	ids := make([]string, 6000) // past the lines the console shows
	for i := range ids {
		ids[i] = fmt.Sprintf("wa-%d", i)
	}
	lines, warn := d.outcome(&api.DeleteWalletAccountsParams{WalletAccountIDs: ids})
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "WARNING: this confirm cannot show all") || !warn[0] {
		t.Fatalf("the confirm does not say first that it is cut: %.120q (warned %v)", strings.Join(lines, "\n"), warn[0])
	}
	few, fewWarn := d.outcome(&api.DeleteWalletAccountsParams{WalletAccountIDs: ids[:3]})
	if strings.Contains(strings.Join(few, "\n"), "cannot show all") || fewWarn[0] {
		t.Errorf("a confirm shown whole warns it is not: %.200q", strings.Join(few, "\n"))
	}
}

// A delete confirm restates the ids typed (or pasted) with anything but
// printable ASCII escaped: a pasted id padded with a no-break space, or
// holding a Cyrillic а, does not read as the id it imitates.
func TestDestructiveConfirmMarksIDsThatImitateOthers(t *testing.T) {
	for _, tc := range []struct{ name, id, shown string }{
		{"delete wallet accounts", "w\u0430-1", `"w\u0430-1"`},
		{"delete tvc deployment", "dep\u00a01", `"dep\u00a01"`},
		{"delete tvc deployment", "dep\u28001", `"dep\u28001"`},
	} {
		h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
		openOperation(h, tc.name)
		h.send(tea.PasteMsg{Content: tc.id})
		h.key("ctrl+s")
		if out := h.frame(); !strings.Contains(out, tc.shown) {
			t.Errorf("%s: want %+q shown as %s:\n%s", tc.name, tc.id, tc.shown, out)
		}
		h.key("enter") // No: the fake would panic on a submit
	}
}
