package screens

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// FuzzHostileRecord shows activities carrying an arbitrary string in every
// kind of field a compromised service controls (known fields, the vote's
// exact message, unknown intent and result keys and their values, failure
// details, a user and a policy), decoded as the console decodes them (exact strings, no
// client-side sanitising), at any window size: rendering must not panic, and
// no frame may carry a control character, an escape sequence other than the
// theme's SGR, or an invisible (bidi, zero-width…) character.
func FuzzHostileRecord(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, uint8(60), uint8(20))
	}
	f.Add("", uint8(0), uint8(0))
	f.Add("a\u200db\ufe0fc\u2028d", uint8(3), uint8(2))
	f.Add("日本語\u0301\u20e3", uint8(1), uint8(40))
	f.Add(strings.Repeat("w", 300), uint8(255), uint8(3))
	f.Fuzz(func(t *testing.T, s string, w, h uint8) {
		acts := hostileRecords(t, s)
		fake := &fakeClient{activities: acts,
			users: []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-" + s, UserName: s, UserEmail: s, UserTags: []string{s},
				APIKeys: []api.APIKey{{APIKeyName: s}}}},
			policies: []api.Policy{{PolicyID: "p-" + s, PolicyName: s, Effect: api.EffectAllow, Condition: s, Consensus: s, Notes: s}}}
		hs := newHarness(t, fake, false, 0)
		hs.key("v") // every status: the fake filters on the exact one
		hs.send(tea.WindowSizeMsg{Width: int(w), Height: int(h)})
		checkInert(t, "list", hs.root.Render())
		for _, k := range []string{"/", "x", "esc", "enter", "G", "a", "esc", "esc", "j", "enter", "e", "esc", "?"} {
			hs.key(k)
			checkInert(t, "after "+k, hs.root.Render())
		}
		hs.key("?")
		for _, screen := range []string{"@Users", "@Policies"} {
			hs.key(screen)
			checkInert(t, screen, hs.root.Render())
			hs.key("enter")
			checkInert(t, screen+" detail", hs.root.Render())
			hs.key("esc")
		}
	})
}

// hostileRecords decodes activities whose every server-controlled string is s.
func hostileRecords(t *testing.T, s string) []api.Activity {
	t.Helper()
	when := map[string]string{"seconds": "1795000000", "nanos": "0"}
	vote := map[string]any{"id": "v" + s, "userId": "u-" + s, "activityId": "act-" + s,
		"user": map[string]any{"userId": "u-" + s, "userName": s}, "selection": api.VoteApproved,
		"message": s, "publicKey": s, "signature": s, "scheme": s, "createdAt": when}
	acts := []map[string]any{{
		"id": "act-" + s, "organizationId": "org-" + s, "status": api.StatusConsensusNeeded, "type": api.TypeCreatePolicyV3,
		"intent": map[string]any{"createPolicyIntentV3": map[string]any{"policyName": s, "effect": "EFFECT_ALLOW",
			"condition": s, "consensus": s, "notes": s}},
		"fingerprint": "sha256:" + s, "canApprove": true, "canReject": true,
		"createdAt": when, "updatedAt": when, "votes": []any{vote},
	}, {
		"id": s, "organizationId": s, "status": s, "type": s,
		"intent":      map[string]any{"x" + s: map[string]any{s: s, "list": []any{s, map[string]any{s: s}}}},
		"result":      map[string]any{"y" + s: map[string]any{s: s}, "createPolicyResult": map[string]any{"policyId": s, s: s}},
		"fingerprint": s, "createdAt": when, "updatedAt": when, "votes": []any{vote, vote},
		"failure": map[string]any{"code": 3, "message": s, "details": []any{map[string]any{"@type": s, s: s}}},
	}}
	raw, err := json.Marshal(acts)
	if err != nil {
		t.Skip("not JSON text") // invalid UTF-8 is replaced by Marshal: the service sends JSON
	}
	var out []api.Activity
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Skipf("the client refuses the record: %v", err)
	}
	return out
}

// checkInert fails if frame holds anything that would act on the terminal
// or hide text: an escape other than SGR, a control character other than the
// line break, or an invisible character.
func checkInert(t *testing.T, where, frame string) {
	t.Helper()
	if m := notSGR.FindString(frame); m != "" {
		t.Fatalf("%s: escape sequence %q in the frame", where, m)
	}
	for _, r := range sgrSequence.ReplaceAllString(frame, "") {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || api.IsInvisible(r)) {
			t.Fatalf("%s: %U in the frame:\n%s", where, r, frame)
		}
	}
}

// sgrSequence is a plain SGR sequence (colour, bold…), what the theme emits.
var sgrSequence = regexp.MustCompile("\x1b\\[[0-9;:]*m")
