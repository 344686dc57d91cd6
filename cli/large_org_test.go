package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// `vigil user list` on a large organization: 1,300 users, each with 4 API
// keys, 3 passkeys and 3 tags, make list_users one reply of about 4.7 MB (a
// real organization of 5,000 makes 18 MB, over the 16 MiB bound of an
// ordinary reply: api's TestListUsersPastTheOrdinaryReplyBound shows a list
// is read past it; 1,300 keep this test cheap under the race detector). It
// lists them all. A profile whose max_list_reply_mib is under the list is
// refused with an error naming the setting and the file, and the other
// lists still work.
func TestUserListOnALargeOrganization(t *testing.T) {
	e := newVerbEnv(t)
	const n = 1300
	e.demo.AddOrdinaryUsers(n)
	code, out, errOut := e.run("", "user", "list")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("user-%05d", n-1)) {
		t.Errorf("user list on %d users: exit %d, stderr %q, %d bytes of output", n, code, errOut, len(out))
	}

	cfg, err := os.ReadFile(e.config)
	if err != nil {
		t.Fatal(err)
	}
	tight := fmt.Sprintf("%s[profiles.tight]\nbase_url = %q\norganization_id = %q\nkey = \"alice\"\nkeys_dir = %q\nmax_list_reply_mib = 4\n",
		cfg, e.demo.URL, e.demo.Info.OrganizationID, e.demo.KeysDir)
	if err := os.WriteFile(e.config, []byte(tight), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = e.run("", "user", "list", "--profile", "tight")
	if code == 0 || !strings.Contains(errOut, "max_list_reply_mib") || !strings.Contains(errOut, e.config) {
		t.Errorf("user list over max_list_reply_mib: exit %d, stderr %q; want the setting and %s named", code, errOut, e.config)
	}
	if code, _, errOut = e.run("", "policy", "list", "--profile", "tight"); code != 0 {
		t.Errorf("policy list with a small max_list_reply_mib: exit %d, stderr %q", code, errOut)
	}
}

// `vigil mfa list` takes every user's MFA policies from list_users, whose
// records carry them, instead of one request per user; a service whose
// records leave them out is asked user by user, with the same answer.
func TestMfaListFromTheUserRecords(t *testing.T) {
	e := newVerbEnv(t)
	var perUser atomic.Int64
	count := func(op string, _, reply []byte) []byte {
		if op == "query/get_mfa_policies" {
			perUser.Add(1)
		}
		return reply
	}
	withRecords := e.configVia(e.demo.Rewriting(count), e.config+".records")
	code, fromRecords, errOut := e.run("", "mfa", "list", "--config", withRecords)
	if code != 0 || !strings.Contains(fromRecords, "Passkey for policy changes") {
		t.Fatalf("mfa list: exit %d, stderr %q, output:\n%s", code, errOut, fromRecords)
	}
	if got := perUser.Load(); got != 0 {
		t.Errorf("mfa list sent %d get_mfa_policies; the list_users records carry them", got)
	}

	strip := func(op string, req, reply []byte) []byte {
		count(op, req, reply)
		if op != "query/list_users" {
			return reply
		}
		var r struct{ Users []map[string]json.RawMessage }
		if err := json.Unmarshal(reply, &r); err != nil {
			t.Errorf("list_users reply: %v", err)
			return reply
		}
		for _, u := range r.Users {
			delete(u, "mfaPolicies")
		}
		out, _ := json.Marshal(map[string]any{"users": r.Users})
		return out
	}
	without := e.configVia(e.demo.Rewriting(strip), e.config+".without")
	code, perUserOut, errOut := e.run("", "mfa", "list", "--config", without)
	if code != 0 || perUserOut != fromRecords {
		t.Errorf("mfa list from records without mfaPolicies: exit %d, stderr %q, output:\n%s\nwant:\n%s", code, errOut, perUserOut, fromRecords)
	}
	if perUser.Load() == 0 {
		t.Errorf("records without mfaPolicies: no get_mfa_policies was sent")
	}
}
