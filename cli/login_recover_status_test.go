package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// --recover run before the login was approved must not say the login made no
// API key: the service makes it on approval, and only the target key opens
// it, so a user who deleted the target key on that word would lose the login.
// Only a FAILED or REJECTED login made none.
func TestFinishOAuthSaysMadeNoKeyOnlyForFailedOrRejected(t *testing.T) {
	kept := errors.New("the target key stays")
	for _, status := range []string{api.StatusConsensusNeeded, api.StatusPending, api.StatusCreated, "ACTIVITY_STATUS_SOMETHING_NEW", api.StatusFailed, api.StatusRejected} {
		act := &api.Activity{ID: "act-1", Type: api.TypeOauth, Status: status}
		err := finishOAuth(context.Background(), proc{}, Profile{}, keys.Store{Dir: t.TempDir()}, "carol", nil, act, nil,
			func() { t.Errorf("%s: the target key was dropped", status) }, time.Now().Add(time.Hour), time.Hour,
			func(cause error) error { return errors.Join(kept, cause) })
		madeNone := status == api.StatusFailed || status == api.StatusRejected
		if said := err != nil && strings.Contains(err.Error(), "made no API key"); said != madeNone {
			t.Errorf("%s: says it made no API key: %v, want %v (%v)", status, said, madeNone, err)
		}
		if !madeNone && !errors.Is(err, kept) {
			t.Errorf("%s: the error does not keep the target key: %v", status, err)
		}
	}
}

// The service makes an oauth login's API key when the activity is approved,
// and the key's lifetime runs from then. --recover of a login submitted long
// before its approval (here the activity says it was created two hours
// before the key; the key lives one hour) must take the expiry from the
// key's own record, not refuse a key the service accepts as "expired".
func TestRecoverTakesTheExpiryFromTheAPIKeyNotTheSubmission(t *testing.T) {
	e := newVerbEnv(t)
	const early = 2 * 3600 // seconds the activity claims to predate its key
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/v1/submit/oauth": // recorded and completed, but the reply is lost
			proxy.ServeHTTP(httptest.NewRecorder(), r)
			http.Error(w, "bad gateway", http.StatusBadGateway)
		case "/public/v1/query/get_activity": // submitted long before it was approved
			rec := httptest.NewRecorder()
			proxy.ServeHTTP(rec, r)
			var reply map[string]map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil || reply["activity"] == nil {
				t.Errorf("get_activity reply: %v %s", err, rec.Body.String())
				return
			}
			created := reply["activity"]["createdAt"].(map[string]any)
			secs, _ := strconv.ParseInt(created["seconds"].(string), 10, 64)
			created["seconds"] = strconv.FormatInt(secs-early, 10)
			json.NewEncoder(w).Encode(reply)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(gw.Close)
	e.configVia(gw.URL, e.config)

	if _, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", "late", "--expiration", "1h"}, 0)
	}); err == nil {
		t.Fatalf("the login with its reply lost succeeded:\n%s", errOut)
	}
	acts := listOAuthActivities(t, e)
	if len(acts) != 1 || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity: %+v", acts)
	}
	record, err := e.client("carol").GetAPIKey(context.Background(), acts[0].Result.OauthResult.APIKeyID)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "login", "oauth", "--recover", acts[0].ID, "--target-key", "late-target", "--name", "late")
	wantExit(t, "login oauth --recover", code, 0, out, errOut)
	if got := signedInAs(t, e, "late"); got != e.userID("carol") {
		t.Errorf("the recovered key signs in as %s, want carol %s", got, e.userID("carol"))
	}
	want := record.CreatedAt.Time().Add(time.Hour).UTC().Format(time.RFC3339)
	if !strings.Contains(out, want) {
		t.Errorf("the recovered key's expiry is not the key's own (%s):\n%s", want, out)
	}
}
