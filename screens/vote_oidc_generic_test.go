package screens

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// An operation the console does not know that links an OIDC identity to a
// user (the real service's create_oauth_providers) shows, in the vote
// dialog, whose identity it links, not only "a secret".
func TestVoteDialogUnknownIntentShowsWhoseOIDCIdentity(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	token := enc([]byte(`{"alg":"ES256"}`)) + "." + enc([]byte(`{"iss":"https://accounts.google.com","sub":"attacker-sub-42","email":"mallory@evil.example"}`)) + "." + enc([]byte("sig"))
	raw, err := json.Marshal(map[string]any{"userId": "u-alice", "oauthProviders": []any{map[string]any{"providerName": "google", "oidcToken": token}}})
	if err != nil {
		t.Fatal(err)
	}
	act := pendingActivity("act-oidc", "bob", time.Minute,
		api.Intent{Other: map[string]json.RawMessage{"createOauthProvidersIntent": raw}}, "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS")
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 140, Height: 50})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{api.UnverifiedClaimsLabel, `"attacker-sub-42"`, `"mallory@evil.example"`} {
		if !strings.Contains(flat, want) {
			t.Errorf("the approve dialog lacks %q (whose identity the token links):\n%s", want, flat)
		}
	}
	if strings.Contains(flat, strings.Split(token, ".")[1]) {
		t.Errorf("the dialog draws the token:\n%s", flat)
	}
}
