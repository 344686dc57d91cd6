package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// dialogBody is the text of the dialog in frame between its title and its
// buttons, one entry per line, with the frame, padding and blank lines
// removed; more is the line that says what is hidden ("" if none).
func dialogBody(t *testing.T, frame, title string) (body []string, more string) {
	t.Helper()
	in := false
	for _, l := range strings.Split(frame, "\n") {
		first, last := strings.Index(l, "│"), strings.LastIndex(l, "│")
		if first < 0 || last <= first {
			continue
		}
		text := strings.TrimSpace(l[first+len("│") : last])
		switch {
		case text == title:
			in = true
		case !in || text == "":
		case strings.Contains(text, "(y)"):
			return body, more
		case strings.Contains(text, "more line") || strings.Contains(text, " above") || strings.Contains(text, " below"):
			more = text
		default:
			body = append(body, text)
		}
	}
	t.Fatalf("no dialog %q in\n%s", title, frame)
	return nil, ""
}

// selectActivityID moves the list's cursor to the activity with this id.
func (h *harness) selectActivityID(id string) {
	h.t.Helper()
	for range len(h.activities().items) {
		if h.activities().selected().ID == id {
			return
		}
		h.key("down")
	}
	h.t.Fatalf("activity %s is not listed:\n%s", id, h.frame())
}

// The vote dialog takes the room the window has: on the smallest window the
// console draws (60×18) more than half of its lines show what is being
// confirmed, the help under it is one line, and scrolling shows every word
// of a long condition whole; at 160×48 the whole intent fits (at 80×24 this
// one, whose consensus names bob by id and so has a line naming him, is one
// line too long and scrolls).
// Against the local service.
func TestEndToEndVoteDialogUsesTheRoomOfTheWindow(t *testing.T) {
	d := servertest.StartDemo(t)
	bob := d.Info.Members[1].UserID
	condition := "activity.type in ['ACTIVITY_TYPE_CREATE_INVITATIONS','ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'] && activity.resource == 'USER'"
	consensus := "approvers.any(user, user.id == '" + bob + "') || approvers.count() >= 2"
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Reviewed invitations",
		Effect: api.EffectAllow, Condition: condition, Consensus: consensus})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	alice := d.Client("alice")
	for _, size := range [][2]int{{60, 18}, {80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			w, height := size[0], size[1]
			h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
			h.send(tea.WindowSizeMsg{Width: w, Height: height})
			h.selectActivityID(act.ID)
			h.key("a")
			frame := h.frame()
			lines := strings.Split(frame, "\n")
			if len(lines) != height {
				t.Fatalf("the frame is %d lines in %d:\n%s", len(lines), height, frame)
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("a line is wider than %d: %q", w, l)
				}
			}
			body, more := dialogBody(t, frame, "Approve this activity?")
			// The help is one line, above the status bar, and starts with y.
			if help := lines[len(lines)-2]; !strings.HasPrefix(help, "y yes") || !strings.Contains(help, "ctrl+c") {
				t.Errorf("the help under the dialog is not one line:\n%s", frame)
			}
			if w < 160 {
				if len(body) < height/2 {
					t.Errorf("%d lines of the intent show in a window of %d:\n%s", len(body), height, frame)
				}
				if more == "" {
					t.Fatalf("the dialog does not say lines are hidden:\n%s", frame)
				}
			} else if more != "" {
				t.Errorf("the intent does not fit at %dx%d (%q):\n%s", w, height, more, frame)
			}
			// Read it all, scrolling: every word of the condition that fits
			// on the dialog's line is whole on one line.
			seen := map[string]bool{}
			for range 20 {
				b, _ := dialogBody(t, h.frame(), "Approve this activity?")
				for _, l := range b {
					seen[l] = true
				}
				h.key("down")
			}
			var all []string
			for l := range seen {
				all = append(all, " "+l+" ")
			}
			flat := strings.Join(all, "\n")
			for _, word := range strings.Fields(strings.ReplaceAll(condition+" "+consensus, ",", ", ")) {
				if !strings.Contains(flat, word) {
					t.Errorf("%q is not whole on a line of the dialog:\n%s", word, flat)
				}
			}
		})
	}
}

// An invitee's tags are named — quoted as names are, so a look-alike shows,
// with the id, since two tags may share a name — in the vote dialog and in
// the detail; a tag no activity names is said to be unknown, by id. Against
// the local service.
func TestEndToEndInviteeTagsAreNamed(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	tag := completed(t, d, func(alice *api.Client) (*api.Activity, error) {
		return alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "\u0430uditors", UserIDs: []string{d.Info.Members[0].UserID}})
	})
	tagID := tag.Result.CreateUserTagResult.UserTagID
	act, err := d.Client("carol").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "erin", ReceiverUserEmail: "erin@example.com", ReceiverUserTags: []string{tagID, "tag-nobody-named"},
		AccessType: api.AccessTypeAPI, SenderUserID: d.Info.Members[2].UserID}}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("invite: %+v %v", act, err)
	}
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	h.selectActivityID(act.ID)
	named := `"\u0430uditors" (id ` + tagID + `), unknown tag tag-nobody-named`
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	if flat := strings.Join(strings.Fields(strings.Join(body, " ")), " "); !strings.Contains(flat, "tags: "+named) {
		t.Errorf("the dialog does not name the tags (%s):\n%s", named, strings.Join(body, "\n"))
	}
	h.key("n")
	h.key("enter")
	if flat := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(flat, "invite 1 tags: "+named) {
		t.Errorf("the detail does not name the tags (%s):\n%s", named, h.frame())
	}
	// In colour a tag nobody created (the service takes any id) is a
	// warning, as an unknown sender is.
	hc := newHarnessWith(t, alice, alice, theme.Options{Dark: true}, 0)
	hc.send(tea.WindowSizeMsg{Width: 200, Height: 48})
	hc.selectActivityID(act.ID)
	hc.key("a")
	warnStart, _, _ := strings.Cut(hc.root.common.Theme.Warn.Render("x"), "x")
	if !strings.Contains(hc.root.Render(), warnStart+"  tags:      ") {
		t.Errorf("the tags line with an unknown tag is not drawn as a warning:\n%s", hc.root.Render())
	}
}

// The activity detail shows the intent JSON exactly (it is what was signed),
// and a reviewer reading it is warned of a name with a look-alike letter —
// a Cyrillic "е" in a Latin word — by a line naming the field and showing
// the name as the heading and the vote dialog do. Against the local service.
func TestEndToEndIntentJSONWarnsOfLookalikeNames(t *testing.T) {
	d := servertest.StartDemo(t)
	name := "Ops may delete deploym\u0435nts"
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: name,
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'", Notes: "plain notes"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	h.selectActivityID(act.ID)
	h.key("enter")
	out := h.frame()
	for _, want := range []string{
		`Intent — create ALLOW policy "Ops may delete deploym\u0435nts"`,
		`"policyName": "` + name + `",`, // the JSON as it is
		`⚠ look-alike characters in createPolicyIntentV3.policyName: "Ops may delete deploym\u0435nts"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the detail lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "⚠ look-alike") != 1 {
		t.Errorf("a plain field is flagged too:\n%s", out)
	}
}
