package api

import "testing"

// A base URL ending in a bare "?" has an empty query but keeps the "?": every
// request would go to "/?/public/v1/…". It is refused like any query.
func TestBaseURLWithBareQuestionMarkIsRefused(t *testing.T) {
	if _, err := NewClient("https://api.example.com/?", testOrg, nil); err == nil {
		t.Error("base URL https://api.example.com/? accepted")
	}
}
