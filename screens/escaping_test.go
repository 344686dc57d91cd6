package screens

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/ui/theme"
)

// invisible are characters that hide or act: zero-width space, RLO, ESC, NEL
// (C1), zero-width no-break space, zero-width joiner, soft hyphen. shown is how
// every region must show them: escaped the one way api.Sanitize escapes.
const (
	invisible = "\u200b\u202e\x1b\u0085\ufeff\u200d\u00ad"
	shown     = `\u200b\u202e\u001b\u0085\ufeff\u200d\u00ad`
)

// regionServer serves one activity, the organization and a boot proof whose
// strings each carry a region's marker followed by the invisible characters.
func regionServer(t *testing.T) *httptest.Server {
	t.Helper()
	ts := map[string]string{"seconds": "1795000000", "nanos": "0"}
	act := map[string]any{
		"id": "act-1", "organizationId": "org-1", "status": api.StatusConsensusNeeded,
		"type": "ACTIVITY_TYPE_CREATE_POLICY_V3" + invisible,
		"intent": map[string]any{"createPolicyIntentV3": map[string]any{
			"policyName": "intentname" + invisible, "effect": "EFFECT_ALLOW", "condition": "true", "consensus": "true", "notes": "jsonnote" + invisible}},
		"result": map[string]any{}, "fingerprint": "sha256:aa", "canApprove": true, "canReject": true,
		"createdAt": ts, "updatedAt": ts,
		"failure": map[string]any{"code": 3, "message": "failmsg" + invisible},
		"votes": []any{map[string]any{"id": "v1", "userId": "u-bob",
			"user":      map[string]any{"userId": "u-bob", "userName": "bo" + invisible},
			"selection": api.VoteApproved, "message": "votemsg" + invisible, "createdAt": ts}},
	}
	bp := fixtureBootProof(t)
	bp.Owner, bp.DeploymentLabel = "bootowner"+invisible, "bootlabel"+invisible
	boot, err := json.Marshal(api.BootProofResponse{BootProof: *bp})
	if err != nil {
		t.Fatal(err)
	}
	replies := map[string]any{
		"list_activities": map[string]any{"activities": []any{act}},
		"get_activity":    map[string]any{"activity": act},
		"whoami": map[string]any{"organizationId": "org-1", "organizationName": "orgname" + invisible,
			"userId": "u-alice", "username": "username" + invisible},
		"get_organization_configs": map[string]any{"configs": map[string]any{
			"features": []any{map[string]any{"name": "FEATURE_NAME_WEBHOOK" + invisible, "value": "featvalue" + invisible}},
			"quorum":   map[string]any{"threshold": 1, "userIds": []string{"u-bob"}}}},
		"list_users": map[string]any{"users": []any{map[string]any{"userId": "u-bob", "userName": "quorumname" + invisible}}},
		"list_policies": map[string]any{"policies": []any{map[string]any{"policyId": "p1", "policyName": "evalname" + invisible,
			"effect": api.EffectAllow, "condition": "true", "consensus": "true", "notes": ""}}},
		"get_policy_evaluations": map[string]any{"policyEvaluations": []any{map[string]any{
			"id": "e1", "activityId": "act-1", "organizationId": "org-1", "voteId": "v1",
			"policyEvaluations": []any{map[string]any{"policyId": "p1", "outcome": "OUTCOME_ALLOW"}},
			"createdAt":         ts}}},
		"list_app_proofs": map[string]any{"appProofs": []any{}},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		op := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		if op == "get_latest_boot_proof" {
			w.Write(boot)
			return
		}
		reply, ok := replies[op]
		if !ok { // votes: an error whose message carries the invisibles
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(map[string]any{"code": 7, "message": "toastmsg" + invisible})
			return
		}
		json.NewEncoder(w).Encode(reply)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// regionClient is the console's client of the region server: exact strings, as
// cmd_console builds it, or the api's default, which escapes when decoding.
func regionClient(t *testing.T, url string, exact bool) *api.Client {
	t.Helper()
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	opts := []api.Option{api.WithRetryPolicy(0, time.Millisecond, time.Millisecond)}
	if exact {
		opts = append(opts, api.WithExactStrings())
	}
	c, err := api.NewClient(url, "org-1", k, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// assertShown checks that each marker shows followed by the escaped invisibles,
// and that no invisible character reaches the frame raw.
func assertShown(t *testing.T, region, frame string, markers ...string) {
	t.Helper()
	assertShownAs(t, region, frame, shown, markers...)
}

// assertShownAs is assertShown with the escapes expected after each marker.
func assertShownAs(t *testing.T, region, frame, escapes string, markers ...string) {
	t.Helper()
	plain := ansi.Strip(frame)
	for _, m := range markers {
		if !strings.Contains(plain, m+escapes) {
			t.Errorf("%s: %q does not show as %s:\n%s", region, m, m+escapes, plain)
		}
	}
	for _, r := range invisible {
		if r == 0x1b {
			continue // the theme's own colours; notSGR in checkClean covers escapes
		}
		if strings.ContainsRune(frame, r) {
			t.Errorf("%s: %U reached the frame raw", region, r)
		}
	}
	checkClean(t, region, frame)
}

// Every region shows zero-width, bidi and control characters the same visible
// way, so two names that differ only by invisible characters never look alike.
func TestInvisibleCharactersShowTheSameEscapedInEveryRegion(t *testing.T) {
	srv := regionServer(t)
	for _, exact := range []bool{true, false} {
		c := regionClient(t, srv.URL, exact)
		r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true},
			Now: func() time.Time { return testNow }, Static: true,
			Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
			Proofs: ProofSettings{Apps: []string{"signer"}}})
		h := &harness{t: t, root: r}
		h.send(tea.WindowSizeMsg{Width: 240, Height: 120})
		h.run(r.Init())

		// A quoted name (api.Quote) shows its backslashes escaped, so from a
		// client that escaped the invisibles already, their escapes show
		// escaped once more: still visible, never raw.
		quoted := shown
		if !exact {
			quoted = strings.ReplaceAll(shown, `\`, `\\`)
		}
		assertShownAs(t, "list cells", h.root.Render(), quoted, "intentname")
		assertShown(t, "status bar", h.root.Render(), "orgname")
		assertShownAs(t, "status bar user name", h.root.Render(), quoted, "username")
		h.key("enter")
		detail := h.root.Render()
		assertShown(t, "detail lines", detail, "failmsg", "votemsg")
		assertShownAs(t, "voter names", detail, quoted, "bo")
		assertShownAs(t, "intent summary", detail, quoted, "intentname")
		assertShownAs(t, "evaluation names", detail, quoted, "evalname")
		if exact {
			// Inside the intent JSON the same escapes are JSON's own spelling.
			assertShown(t, "intent JSON", detail, "jsonnote")
		}
		h.key("a")
		h.key("y") // the service refuses with a message carrying the invisibles
		assertShown(t, "toast", h.root.Render(), "toastmsg")
		h.key("esc")
		h.key("2")
		assertShown(t, "boot proofs list", h.root.Render())
		h.key("enter")
		assertShown(t, "boot proof detail", h.root.Render(), "bootowner", "bootlabel")
		h.key("esc")
		h.key("3")
		assertShown(t, "organization", h.root.Render(), "orgname", "WEBHOOK")
		// Feature values are quoted as the approval view quotes them.
		assertShownAs(t, "organization names and feature values", h.root.Render(), quoted, "username", "quorumname", "featvalue")
		assertShown(t, "window title", h.root.View().WindowTitle, "orgname")
	}
}
