package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// An error reply with a megabyte-long detail code and a hundred thousand
// details: the error line the terminal shows stays short, keeps the first
// codes and says how many were left out.
func TestErrorDetailsAreBounded(t *testing.T) {
	long := strings.Repeat("A", 1<<20)
	body := `{"code":3,"message":"bad","details":[{"@type":"x","errorCode":"` + long + `"},{"@type":"x","errorCode":"SECOND"}` +
		strings.Repeat(`,{"@type":"x","errorCode":"DETAIL"}`, 100000) + `]}`
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 400, body) })
	_, err := s.client(t).Whoami(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v; want an *Error", err)
	}
	text := err.Error()
	if len(text) > 4<<10 {
		t.Errorf("the error text the terminal is shown is %d bytes", len(text))
	}
	if !strings.Contains(text, "AAAA") || !strings.Contains(text, "SECOND") {
		t.Errorf("the first details should be kept, cut short: %.300s", text)
	}
	if kept := len(apiErr.Details); !strings.Contains(text, fmt.Sprintf("and %d more details left out", 100002-kept)) {
		t.Errorf("the error should say how many details were left out: %.300s", text)
	}
}

// The local service's 503 BUSY is still recognised among bounded details.
func TestBoundedDetailsStillSayNotRecorded(t *testing.T) {
	body := `{"code":14,"message":"busy","details":[{"@type":"x","errorCode":"BUSY"}` + strings.Repeat(`,{"@type":"x","errorCode":"X"}`, 50) + `]}`
	if ReplyMayHaveRecorded(503, []byte(body)) {
		t.Error("a 503 BUSY with many details should still say nothing was recorded")
	}
}
