package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A 503 whose body encoding/json reads as BUSY ("nothing was recorded")
// while jq or Python read another detail must not be believed: the submit
// may have been recorded (here it was: the gateway answers after the
// service), so the outcome is unknown and Resubmit finds the activity,
// where "not recorded" would have a user send a second one. An unambiguous
// BUSY keeps saying nothing was recorded, and ReplyMayHaveRecorded (vigil
// request) agrees with the typed submit in both cases.
func TestSubmit503BusyReadTwoWaysIsOutcomeUnknown(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		twoWays    bool
	}{
		{"DETAILS after details", `{"code":14,"message":"m","details":[{"errorCode":"INTERNAL"}],"DETAILS":[{"errorCode":"BUSY"}]}`, true},
		{"details twice", `{"code":14,"message":"m","details":[{"errorCode":"INTERNAL"}],"details":[{"errorCode":"BUSY"}]}`, true},
		{"ErrorCode in a detail", `{"code":14,"message":"m","details":[{"errorCode":"INTERNAL","ErrorCode":"BUSY"}]}`, true},
		{"plain BUSY", `{"code":14,"message":"m","details":[{"@type":"` + api.ErrorDetailType + `","errorCode":"BUSY"}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			demo := servertest.StartDemo(t)
			g := demo.Gateway()
			g.FailBody.Store(&tc.body)
			g.FailSubmits.Store(true)
			client := demo.ClientAt(g.URL, "alice")
			tag := "two-ways-" + strings.ReplaceAll(tc.name, " ", "-")
			params := api.CreateUserTagParams{UserTagName: tag, UserIDs: []string{demo.Info.Members[0].UserID}}
			_, err := client.CreateUserTag(context.Background(), params)
			g.FailSubmits.Store(false)
			mayHave := api.ReplyMayHaveRecorded(http.StatusServiceUnavailable, []byte(tc.body))
			if !tc.twoWays {
				if errors.Is(err, api.ErrOutcomeUnknown) || !api.NotRecorded(err) {
					t.Errorf("unambiguous 503 BUSY: err = %v; want a plain error saying nothing was recorded", err)
				}
				if mayHave {
					t.Errorf("unambiguous 503 BUSY: ReplyMayHaveRecorded disagrees with the typed submit")
				}
				return
			}
			var unknown *api.OutcomeUnknownError
			if !errors.As(err, &unknown) || api.NotRecorded(err) {
				t.Fatalf("err = %v; want an unknown outcome, kept for Resubmit", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "read two ways") {
				t.Errorf("message does not say the reply could be read two ways: %q", msg)
			}
			if !mayHave {
				t.Errorf("ReplyMayHaveRecorded trusts the BUSY of a body read two ways")
			}
			wantResubmitGivesTheOneRecorded(t, demo, client, unknown, tag)
		})
	}
}

// The code of an error body read two ways maps to no sentinel: a caller
// acting on ErrAlreadyExists ("use the existing one") would act on what
// encoding/json read ("CODE":6 last) while a script reads code 3.
func TestErrorCodeReadTwoWaysGivesNoSentinel(t *testing.T) {
	demo := servertest.StartDemo(t)
	g := demo.Gateway()
	body := `{"code":3,"message":"m","CODE":6}`
	g.FailBody.Store(&body)
	g.FailStatus.Store(http.StatusBadRequest)
	g.FailSubmits.Store(true)
	params := api.CreateUserTagParams{UserTagName: "two-ways-code", UserIDs: []string{demo.Info.Members[0].UserID}}
	_, err := demo.ClientAt(g.URL, "alice").CreateUserTag(context.Background(), params)
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		t.Fatalf("err = %v; want the 400", err)
	}
	if errors.Is(err, api.ErrAlreadyExists) || apiErr.Code != 0 {
		t.Errorf("err = %v (code %d); the code of a body read two ways was trusted", err, apiErr.Code)
	}
	if !strings.Contains(err.Error(), "read two ways") {
		t.Errorf("message does not say the reply could be read two ways: %q", err)
	}
}
