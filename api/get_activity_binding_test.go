package api

import (
	"context"
	"net/http"
	"testing"
)

// A get_activity reply about another activity is not the one asked for: a
// wait for act-2 must not end on act-1's COMPLETED (vigil activity wait, and
// the re-read that settles a vote whose reply was lost).
func TestGetActivityAnsweredWithAnotherActivityIsRefused(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, activityReply) })
	c := s.client(t)
	if a, err := c.WaitForActivity(context.Background(), "act-2", nil); err == nil {
		t.Errorf("wait for act-2 ended with activity %s, %s: want an error (the reply is about another activity)", a.ID, a.Status)
	}
	// The same reply read for its own id is accepted.
	if _, err := c.GetActivity(context.Background(), "act-1"); err != nil {
		t.Errorf("get act-1 answered about act-1: %v", err)
	}
}
