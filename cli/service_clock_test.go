package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The service's clock is 3 hours ahead of this machine's: an API key made
// with a 1-hour lifetime has expired by the service's clock, though this
// machine's would give it an hour more. user get, user list and apikey get
// judge it by the service's clock, from its replies' Date header.
func TestAPIKeyLifetimeIsJudgedByTheServiceClock(t *testing.T) {
	e, offset := withCarolsHourKey(t)
	offset.Store(int64(3 * time.Hour))

	carol, err := e.client("alice").GetUser(t.Context(), e.userID("carol"))
	if err != nil {
		t.Fatal(err)
	}
	var hourID string
	var created int64
	for _, k := range carol.APIKeys {
		if k.ExpirationSeconds == "3600" {
			hourID = k.APIKeyID
			created, _ = strconv.ParseInt(k.CreatedAt.Seconds, 10, 64)
		}
	}
	if hourID == "" {
		t.Fatalf("carol's keys hold no 1-hour key: %+v", carol.APIKeys)
	}
	expired := "EXPIRED " + time.Unix(created+3600, 0).UTC().Format("2006-01-02 15:04")

	code, out, errOut := e.run("", "apikey", "get", hourID)
	wantExit(t, "apikey get", code, 0, out, errOut)
	if !strings.Contains(out, expired) {
		t.Errorf("apikey get: the key has expired by the service's clock, but it does not say %q:\n%s", expired, out)
	}
	code, out, errOut = e.run("", "user", "get", e.userID("carol"))
	wantExit(t, "user get", code, 0, out, errOut)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, hourID) && !strings.Contains(line, expired) {
			t.Errorf("user get: the key has expired by the service's clock, but its line does not say %q:\n%s", expired, line)
		}
	}
	code, out, errOut = e.run("", "user", "list")
	wantExit(t, "user list", code, 0, out, errOut)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, e.userID("carol")) && !strings.Contains(line, "(1 EXPIRED)") {
			t.Errorf("user list: carol's 1-hour key has expired by the service's clock, but her line does not count it expired:\n%s", line)
		}
	}
}

// withCarolsHourKey starts a verb environment whose service clock runs the
// returned offset ahead of this machine's (0 until a test moves it), and
// signs carol in through OAuth with a key named "hour" that lives one hour.
func withCarolsHourKey(t *testing.T) (*verbEnv, *atomic.Int64) {
	t.Helper()
	offset := new(atomic.Int64) // the service's clock minus this machine's
	e := newVerbEnvOn(t, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
	target, token := e.signInAtProvider("carol")
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "login", "oauth", "--target-key", target, "--provider-token", tokenFile, "--name", "hour", "--expiration", "1h")
	wantExit(t, "login oauth", code, 0, out, errOut)
	return e, offset
}
