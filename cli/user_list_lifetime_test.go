package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A key whose lifetime cannot be read (here expirationSeconds "abc", as
// another service might send) may have expired: user get shows it as
// unknown and counts it as unable to sign. user list counts it with the
// expired keys, saying why, where it counted it as a live key.
func TestUserListCountsKeysOfUnknownLifetimeAsUnableToSign(t *testing.T) {
	const org = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	const dave = "01a21fb6-ea79-73f6-a3ca-8c0d3aa16271"
	const erin = "01a21fb6-ea79-73f6-a3ca-8c0d3aa16272"
	key := func(id, expiration string) string {
		return fmt.Sprintf(`{"apiKeyId":%q,"apiKeyName":"k","credential":{"type":"CREDENTIAL_TYPE_API_KEY_P256","publicKey":"02aa"},"expirationSeconds":%q,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}`, id, expiration)
	}
	users := fmt.Sprintf(`{"users":[`+
		`{"userId":%q,"userName":"dave","userEmail":"","userTags":[],"apiKeys":[%s,%s],"authenticators":[],"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}},`+
		`{"userId":%q,"userName":"erin","userEmail":"","userTags":[],"apiKeys":[%s,%s,%s],"authenticators":[],"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}]}`,
		dave, key("k1", "abc"), key("k2", "0"),
		erin, key("k3", "abc"), key("k4", "1"), key("k5", "0"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, users)
	}))
	defer srv.Close()
	c, out, errOut := waitEnv(t, srv.URL, org)
	if code := exitCode(errOut, userList(context.Background(), c, nil)); code != 0 {
		t.Fatalf("user list: exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
	want := map[string]string{
		dave: "2 (1 cannot sign: lifetime unknown)",
		erin: "3 (2 cannot sign: 1 EXPIRED, 1 lifetime unknown)",
	}
	for id, count := range want {
		found := false
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, id) {
				found = true
				if !strings.Contains(line, count) {
					t.Errorf("user list does not count the key of unknown lifetime as unable to sign (want %q):\n%s", count, line)
				}
			}
		}
		if !found {
			t.Errorf("user %s not listed:\n%s", id, out.String())
		}
	}
}
