package cli

import (
	"bytes"
	"strings"
	"testing"
)

// A result is not voted on, so one of a known operation holding a member
// vigil does not know is still read: `vigil activity get` prints its known
// fields, then the unknown ones (escaped like everything else), rather than
// no result line at all.
func TestActivityGetShowsAResultOfAnUnknownShape(t *testing.T) {
	raw := `{"activity":{"id":"act-1","organizationId":"org-1","status":"ACTIVITY_STATUS_COMPLETED","type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":{"createUserTagIntent":{"userTagName":"ops","userIds":[]}},"result":{"createUserTagResult":{"userTagId":"tag-42","userIds":[]}},"votes":[],"fingerprint":"sha256:00","canApprove":false,"canReject":false,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`
	for _, result := range []string{
		`{"createUserTagResult":{"userTagId":"tag-42"}}`,
		`{"createUserTagResult":{"userTagId":"tag-42","createdBy":"u-root"}}`,
	} {
		r := strings.Replace(raw, `{"createUserTagResult":{"userTagId":"tag-42","userIds":[]}}`, result, 1)
		shown, err := decodeShownActivity("query/get_activity", []byte(r))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := printActivity(&out, shown); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "tag-42") {
			t.Errorf("result %s: the completed activity's result is not printed, and nothing says so:\n%s", result, out.String())
		}
	}
	// The member vigil does not know is shown after the known ones, escaped:
	// a bidi override and an escape sequence sent by the service (or a proxy)
	// never reach the terminal raw.
	r := strings.Replace(raw, `"userTagId":"tag-42","userIds":[]}}`, `"userTagId":"tag-42","userIds":[],"createdBy":"u-root\u202e\u001b[2J"}}`, 1)
	shown, err := decodeShownActivity("query/get_activity", []byte(r))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := printActivity(&out, shown); err != nil {
		t.Fatal(err)
	}
	line := ""
	for l := range strings.Lines(out.String()) {
		if strings.HasPrefix(l, "result:") {
			line = l
		}
	}
	if !strings.Contains(line, "tag-42") || !strings.Contains(line, "fields vigil does not know: createUserTagResult.createdBy=") || !strings.Contains(line, "u-root") {
		t.Errorf("the result line does not show the known fields and then the unknown one:\n%s", out.String())
	}
	if strings.ContainsAny(out.String(), "\u202e\x1b") {
		t.Errorf("an unknown result field reaches the terminal raw: %q", out.String())
	}
}

// A completed oauth result holding one member more than vigil knows
// (userId, apiKeyId, credentialBundle + anything) is still an oauth result:
// `vigil login oauth` must find its credential bundle there, or the API key
// the service made is lost to its user.
func TestOauthResultWithAnExtraMemberIsRead(t *testing.T) {
	raw := `{"activity":{"id":"act-1","organizationId":"org-1","status":"ACTIVITY_STATUS_COMPLETED","type":"ACTIVITY_TYPE_OAUTH","intent":{},"result":{"oauthResult":{"userId":"u","apiKeyId":"k","credentialBundle":"b","expiresAt":"2027-01-01T00:00:00Z"}},"votes":[],"fingerprint":"sha256:00","createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`
	shown, err := decodeShownActivity("submit/oauth", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if res := shown.exact.Result.OauthResult; res == nil || res.CredentialBundle != "b" || res.APIKeyID != "k" {
		t.Errorf("a completed oauth result with one extra member reads as no oauth result (kept in Result.Other: %v); login oauth would fail and drop its target key", len(shown.exact.Result.Other))
	}
}
