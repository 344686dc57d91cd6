package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
)

// A gateway's 5xx other than 500/502/503/504 (a CDN's 520-524, a proxy's
// 501/507/599) to a submit may come after the service recorded it: the
// outcome is unknown and the request is kept for Resubmit, as for a 502.
// Following "try again later" instead would create a second activity.
func TestGatewayAny5xxToSubmitIsOutcomeUnknown(t *testing.T) {
	for _, status := range []int{501, 505, 507, 520, 521, 522, 523, 524, 598, 599} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(status)
				fmt.Fprintf(w, "<html>error code: %d</html>", status)
			})
			_, err := s.client(t).CreateUserTag(context.Background(), CreateUserTagParams{UserTagName: "t", UserIDs: []string{"u"}})
			var unknown *OutcomeUnknownError
			if !errors.As(err, &unknown) || unknown.body == nil {
				t.Errorf("HTTP %d to a submit: err = %v; want an outcome unknown that keeps the request for Resubmit", status, err)
			}
			if NotRecorded(err) {
				t.Errorf("HTTP %d to a submit: NotRecorded says a new run is safe", status)
			}
			if !ReplyMayHaveRecorded(status, []byte("<html>error code</html>")) {
				t.Errorf("HTTP %d: ReplyMayHaveRecorded (vigil request) disagrees with the typed submit", status)
			}
		})
	}
}

// The local service's own 503 BUSY and STORAGE_FAILED say nothing was
// recorded: they stay a plain error, safe to send again.
func TestServiceNotRecorded503StaysNotRecorded(t *testing.T) {
	for _, code := range []string{"BUSY", "STORAGE_FAILED"} {
		body := `{"code":14,"message":"m","details":[{"@type":"x","errorCode":"` + code + `"}]}`
		s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 503, body) })
		_, err := s.client(t).CreateUserTag(context.Background(), CreateUserTagParams{UserTagName: "t", UserIDs: []string{"u"}})
		if errors.Is(err, ErrOutcomeUnknown) || !NotRecorded(err) {
			t.Errorf("503 %s: err = %v; want a plain error that says nothing was recorded", code, err)
		}
		if ReplyMayHaveRecorded(503, []byte(body)) {
			t.Errorf("503 %s: ReplyMayHaveRecorded says it may have been recorded", code)
		}
	}
}
