package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The signature NoteSignature gives is the one the service records with the
// vote, so api.VoteSince can tell the vote just cast by it.
func TestNoteSignatureIsTheVotesSignature(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := demo.ClientAt(demo.URL, "alice"), demo.ClientAt(demo.URL, "bob")
	a, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "note-sig", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = alice.GetActivity(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	var sig string
	after, err := bob.ApproveActivity(ctx, a.Fingerprint, api.NoteSignature(&sig))
	if err != nil {
		t.Fatal(err)
	}
	if sig == "" {
		t.Fatal("no signature noted")
	}
	found := false
	for _, v := range after.Votes {
		found = found || strings.EqualFold(v.Signature, sig)
	}
	if !found {
		t.Fatalf("no vote carries the signature noted %q: %+v", sig, after.Votes)
	}
}
