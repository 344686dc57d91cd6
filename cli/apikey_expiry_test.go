package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// An expired API key signs nothing: user get, user list and apikey get say
// so, with the expiry as a UTC date (the CLI's times), where they showed an
// expired key like a live one, or its lifetime as raw seconds. --json keeps
// the service's expirationSeconds.
func TestExpiredAPIKeyShowsAsExpired(t *testing.T) {
	e := newVerbEnv(t)
	target, token := e.signInAtProvider("carol")
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "login", "oauth", "--target-key", target, "--provider-token", tokenFile, "--name", "brief", "--expiration", "1s")
	wantExit(t, "login oauth", code, 0, out, errOut)
	time.Sleep(1100 * time.Millisecond) // the key's whole lifetime

	carol, err := e.client("alice").GetUser(t.Context(), e.userID("carol"))
	if err != nil {
		t.Fatal(err)
	}
	var expiredID, liveID string
	for _, k := range carol.APIKeys {
		if k.ExpirationSeconds == "1" {
			expiredID = k.APIKeyID
		} else {
			liveID = k.APIKeyID
		}
	}
	if expiredID == "" || liveID == "" {
		t.Fatalf("carol's keys: %+v", carol.APIKeys)
	}

	code, js, errOut := e.run("", "apikey", "get", "--json", expiredID)
	wantExit(t, "apikey get --json", code, 0, js, errOut)
	var reply struct {
		APIKey struct {
			ExpirationSeconds string `json:"expirationSeconds"`
			CreatedAt         struct {
				Seconds string `json:"seconds"`
			} `json:"createdAt"`
		} `json:"apiKey"`
	}
	if err := json.Unmarshal([]byte(js), &reply); err != nil || reply.APIKey.ExpirationSeconds != "1" {
		t.Fatalf("--json does not keep the service's expirationSeconds (%v):\n%s", err, js)
	}
	created, err := strconv.ParseInt(reply.APIKey.CreatedAt.Seconds, 10, 64)
	if err != nil {
		t.Fatalf("createdAt %q: %v", reply.APIKey.CreatedAt.Seconds, err)
	}
	expiry := time.Unix(created+1, 0).UTC().Format("2006-01-02 15:04")

	code, out, errOut = e.run("", "apikey", "get", expiredID)
	wantExit(t, "apikey get", code, 0, out, errOut)
	if !strings.Contains(out, "expires:") || !strings.Contains(out, "EXPIRED "+expiry) {
		t.Errorf("apikey get does not say the key EXPIRED at %s:\n%s", expiry, out)
	}
	if strings.Contains(out, "expires after") {
		t.Errorf("apikey get still prints the raw lifetime:\n%s", out)
	}

	code, out, errOut = e.run("", "user", "get", e.userID("carol"))
	wantExit(t, "user get", code, 0, out, errOut)
	if !strings.Contains(out, "EXPIRES") {
		t.Errorf("user get has no EXPIRES column:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(line, expiredID) && !strings.Contains(line, "EXPIRED "+expiry):
			t.Errorf("user get does not mark the expired key EXPIRED at %s:\n%s", expiry, line)
		case strings.Contains(line, liveID) && strings.Contains(line, "EXPIRED"):
			t.Errorf("user get marks the live key EXPIRED:\n%s", line)
		}
	}
	if strings.Contains(out, "no credential that can sign") {
		t.Errorf("carol still has a live key, but user get says she has none that can sign:\n%s", out)
	}

	code, out, errOut = e.run("", "user", "list")
	wantExit(t, "user list", code, 0, out, errOut)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, e.userID("carol")) && !strings.Contains(line, "(1 EXPIRED)") {
			t.Errorf("user list does not count carol's expired key:\n%s", line)
		}
	}
}
