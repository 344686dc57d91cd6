package screens

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

const consoleKey = "02aa00000000000000000000000000000000000000000000000000000000000001"

func apiKey(id, name, pub string, created time.Time, expiry string) api.APIKey {
	return api.APIKey{APIKeyID: id, APIKeyName: name, CreatedAt: api.NewTime(created), ExpirationSeconds: expiry,
		Credential: api.Credential{PublicKey: pub, Type: "CREDENTIAL_TYPE_API_KEY_P256"}}
}

// governanceUsers: alice (root) holds the console's key and an expired one; bob
// (root) has one key and nothing else; operator is tagged ops.
func governanceUsers() []api.User {
	return []api.User{
		{UserID: "u-alice", UserName: "alice", UserEmail: "alice@acme.test",
			APIKeys: []api.APIKey{
				apiKey("k-alice-console", "console", consoleKey, testNow.Add(-48*time.Hour), ""),
				apiKey("k-alice-old", "old laptop", "02bb01", testNow.Add(-72*time.Hour), "3600"),
			},
			Authenticators: []api.Authenticator{{AuthenticatorID: "au-1", AuthenticatorName: "yubikey",
				Credential: api.Credential{Type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR"}}},
			MfaPolicies: []api.MfaPolicy{{MfaPolicyName: "second", Order: 2}, {MfaPolicyName: "first", Order: 1}}},
		{UserID: "u-bob", UserName: "bob", UserTags: []string{"tag-ops"},
			APIKeys: []api.APIKey{apiKey("k-bob", "bob cli", "02cc02", testNow.Add(-time.Hour), "86400")}},
		{UserID: "u-carol", UserName: "carol"},
		{UserID: "u-operator", UserName: "operator", UserTags: []string{"tag-ops", "tag-unnamed"}},
	}
}

func tagActivity() api.Activity {
	return api.Activity{ID: "act-tag", Status: api.StatusCompleted, Type: api.TypeCreateUserTag,
		Intent: api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "ops", UserIDs: []string{"u-bob"}}},
		Result: api.Result{CreateUserTagResult: &api.CreateUserTagResult{UserTagID: "tag-ops"}}}
}

func usersHarness(t *testing.T, readOnly bool) (*harness, *fakeClient) {
	t.Helper()
	return usersHarnessWith(t, readOnly, governanceUsers())
}

func usersHarnessWith(t *testing.T, readOnly bool, users []api.User) (*harness, *fakeClient) {
	t.Helper()
	fake := &fakeClient{users: users, activities: []api.Activity{tagActivity()}}
	var sub Submitter = fake
	if readOnly {
		sub = nil
	}
	h := newHarnessWith(t, fake, sub, theme.Options{Dark: true, NoColor: true}, 0)
	h.root.common.OwnPublicKey = consoleKey
	h.fake = fake
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("Users")
	return h, fake
}

func TestUsersListResolvesTagsCountsAndMarksRoot(t *testing.T) {
	h, _ := usersHarness(t, false)
	out := h.frame()
	checks := map[string][]string{
		"alice":    {"alice@acme.test", "2", "1", "root"},
		"bob":      {"ops", "1", "0", "root"},
		"operator": {"ops, tag-unnamed"},
	}
	for user, wants := range checks {
		row := rowOf(t, out, user+" ")
		for _, w := range wants {
			if !strings.Contains(row, w) {
				t.Errorf("%s's row %q lacks %q", user, row, w)
			}
		}
	}
	if strings.Contains(rowOf(t, out, "operator"), "root") {
		t.Error("operator is marked root")
	}
}

// EMAIL, the Grow column, takes no more than its addresses need while TAGS is
// cut: a user's tags past TAGS' 30 cells show when the width holds them.
func TestUsersTagsTakeTheWidthEmailDoesNotNeed(t *testing.T) {
	users := governanceUsers()
	users[2].UserTags = []string{"tag-treasury-approvers-emea", "tag-treasury-approvers-apac"}
	fake := &fakeClient{users: users, activities: []api.Activity{tagActivity()}}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.gotoScreen("Users")
	if row := rowOf(t, h.frame(), "carol"); !strings.Contains(row, "tag-treasury-approvers-apac, tag-treasury-approvers-emea") {
		t.Errorf("carol's second tag is cut at 120 columns: %q", row)
	}
}

// Keys expire and ages count up on the root's clock: the preview's count of
// expired keys, the open detail's EXPIRED flag and ages. The clock does not
// move the detail scrolled away from the key under the cursor.
func TestUsersExpiryAndAgesFollowTheClock(t *testing.T) {
	fake := &fakeClient{users: governanceUsers(), activities: []api.Activity{tagActivity()}}
	h, now := newClockedHarness(t, fake)
	tick := func(d time.Duration) {
		*now = now.Add(d)
		h.send(clockMsg{})
	}
	h.gotoScreen("Users")
	h.key("j") // bob: his key expires 23 h from now
	if out := h.frame(); strings.Contains(out, "expired API key") {
		t.Fatalf("bob's key has expired already:\n%s", out)
	}
	tick(24 * time.Hour)
	if out := h.frame(); !strings.Contains(out, "1 expired API key(s)") {
		t.Errorf("a day later the preview does not say bob's key expired:\n%s", out)
	}
	h.key("enter")
	if out := h.frame(); !strings.Contains(out, "EXPIRED") || !strings.Contains(out, "UTC (25h ago)") {
		t.Fatalf("bob's detail lacks EXPIRED or the key's age:\n%s", out)
	}
	tick(2 * time.Hour)
	if out := h.frame(); !strings.Contains(out, "UTC (27h ago)") {
		t.Errorf("two hours later the open detail still says:\n%s", out)
	}

	h.key("esc")
	h.key("k") // alice: a detail longer than a short window
	h.send(tea.WindowSizeMsg{Width: 100, Height: 20})
	h.key("enter")
	h.key("pgdown")
	before := h.frame()
	tick(time.Hour)
	after := h.frame()
	if strings.Contains(before, "▸ [ ] console") {
		t.Fatalf("page down did not scroll past the key under the cursor:\n%s", before)
	}
	if strings.Contains(after, "▸ [ ] console") {
		t.Errorf("the clock scrolled the detail back to the key under the cursor:\n%s", after)
	}
}

func TestUsersDetailShowsKeysExpiryAndPolicies(t *testing.T) {
	h, _ := usersHarness(t, false)
	h.key("enter") // alice
	out := h.frame()
	for _, want := range []string{"this console's key", "EXPIRED", "2026-11-18 13:00 UTC", "CREDENTIAL_TYPE_API_KEY_P256",
		"yubikey", consoleKey, `"first" — 0 step(s)`, `"second" — 0 step(s)`} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "first") > strings.Index(out, "second") {
		t.Error("MFA policies are not in order")
	}
	h.key("j")
	h.key("i")
	if !strings.Contains(h.frame(), "get_api_key: old laptop") {
		t.Errorf("i did not show get_api_key for the key under the cursor:\n%s", h.frame())
	}
}

func TestUsersDeleteMarkedKeysConfirmsWithWarnings(t *testing.T) {
	h, fake := usersHarness(t, false)
	h.key("enter")
	h.key("space") // console key
	h.key("j")
	h.key("space") // old laptop
	h.key("d")
	out := h.frame()
	for _, want := range []string{"Delete 2 API key(s) of alice", "console", "old laptop", "key this console signs with"} {
		if !strings.Contains(out, want) {
			t.Errorf("confirm lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "would be left") {
		t.Error("alice keeps an authenticator, yet the confirm says she has no credential left")
	}
	h.key("enter") // No
	if len(fake.keyDeletes) != 0 {
		t.Fatal("enter deleted; No must be the default")
	}
	h.key("d")
	h.key("y")
	want := api.DeleteAPIKeysParams{UserID: "u-alice", APIKeyIDs: []string{"k-alice-console", "k-alice-old"}}
	if len(fake.keyDeletes) != 1 || fake.keyDeletes[0].UserID != want.UserID || !slices.Equal(fake.keyDeletes[0].APIKeyIDs, want.APIKeyIDs) {
		t.Fatalf("deleted %+v, want %+v", fake.keyDeletes, want)
	}
	if h.root.ActiveTitle() != "Activities" {
		t.Errorf("a deletion waiting for votes is not followed in Activities (on %s)", h.root.ActiveTitle())
	}
}

func TestUsersDeleteWarnsWhenARootMemberLosesTheLastCredential(t *testing.T) {
	h, _ := usersHarness(t, false)
	h.key("j") // bob (list sorted by name)
	h.key("enter")
	if !strings.Contains(h.frame(), "bob cli") {
		t.Fatalf("bob is not open:\n%s", h.frame())
	}
	h.key("d") // nothing marked: the key under the cursor
	// Root: alice (a passkey), bob (this key), carol (nothing); threshold 2.
	out := h.frame()
	for _, want := range []string{"Delete 1 API key(s) of bob", "bob is a root quorum member and would be left",
		"only 1 of the 3 root", "members could sign (threshold 2)", "The service will FAIL this deletion"} {
		if !strings.Contains(out, want) {
			t.Errorf("confirm lacks %q:\n%s", want, out)
		}
	}
}

// With carol able to sign, bob losing his last key leaves two of three root
// members, the threshold: the confirm says bob loses his vote, not that the
// service will refuse.
func TestUsersDeleteOfALastKeyThatKeepsTheQuorumAbleOnlyWarns(t *testing.T) {
	users := governanceUsers()
	users[2].APIKeys = []api.APIKey{apiKey("k-carol", "carol cli", "02dd03", testNow.Add(-time.Hour), "")}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j") // bob
	h.key("enter")
	h.key("d")
	out := h.frame()
	if !strings.Contains(out, "root quorum member bob (u-bob) would be left") {
		t.Errorf("confirm does not say bob loses his last credential:\n%s", out)
	}
	if strings.Contains(out, "will FAIL") {
		t.Errorf("confirm says the service will refuse, yet alice and carol still sign:\n%s", out)
	}
}

// An expired key signs nothing: carol holding only one does not keep the
// quorum able, and the confirm says the service will refuse.
func TestUsersDeleteCountsAnExpiredKeyAsNothing(t *testing.T) {
	users := governanceUsers()
	users[2].APIKeys = []api.APIKey{apiKey("k-carol", "carol cli", "02dd03", testNow.Add(-2*time.Hour), "3600")}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j") // bob
	h.key("enter")
	h.key("d")
	if out := h.frame(); !strings.Contains(out, "The service will FAIL this deletion") {
		t.Errorf("carol's expired key counted as able to sign:\n%s", out)
	}
}

func TestUsersDeleteRefusedReadOnly(t *testing.T) {
	h, _ := usersHarness(t, true)
	h.key("enter")
	h.key("d")
	if h.root.dialogs.Len() != 0 || !h.toasted("read-only") {
		t.Error("a read-only console offered the deletion")
	}
}

func TestExpiryInLocalTimeAndUTC(t *testing.T) {
	ny := time.FixedZone("EST", -5*3600)
	at := time.Date(2026, 11, 18, 13, 0, 0, 0, time.UTC)
	if got := localAndUTC(testNow.In(ny), at); got != "2026-11-18 08:00 EST · 2026-11-18 13:00 UTC" {
		t.Errorf("got %q", got)
	}
}

// A deletion fails on the service unless every id it names is a key of the
// user, each named once; the note names what is wrong, and no more than a
// few of the ids whoever filed it chose.
func TestWhyDeletionFails(t *testing.T) {
	keys := map[string]bool{"k1": true, "k2": true}
	for _, c := range []struct {
		ids  []string
		want string
	}{
		{[]string{"k1", "k2"}, ""},
		{[]string{"k2"}, ""},
		{[]string{"k1", "x"}, "names x, not a key of this user"},
		{[]string{"x", "k1", "y", "z"}, "names x, y, and 1 more, not keys of this user"},
		{[]string{"k1", "k1"}, "names k1 twice"},
	} {
		act := api.Activity{ID: "a", Intent: api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: "u", APIKeyIDs: c.ids}}}
		got := ""
		_, doomed := api.SortKeyDeletions([]api.Activity{act}, keys)
		if ds := append(doomed["k1"], doomed["k2"]...); len(ds) > 0 {
			got = whyDeletionFails(ds[0])
		}
		if got != c.want {
			t.Errorf("whyDeletionFails(%q) = %q, want %q", c.ids, got, c.want)
		}
	}
}

// The list's preview counts an expired key as nothing: a root member holding
// only one cannot vote.
func TestUsersPreviewSaysARootMemberWithOnlyAnExpiredKeyCannotVote(t *testing.T) {
	users := governanceUsers()
	users[2].APIKeys = []api.APIKey{apiKey("k-carol", "carol cli", "02dd03", testNow.Add(-2*time.Hour), "3600")}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j")
	h.key("j") // carol
	if out := h.frame(); !strings.Contains(out, "root member with no credential that can sign: cannot vote") {
		t.Errorf("carol's preview does not say she cannot vote:\n%s", out)
	}
}
