package webhook

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The event type header is not signed. A receiver that dispatches on the
// event type of a verified delivery must never get a genuine body under a
// type someone on the path renamed it to: anything but the one type the
// service sends is refused, before the body is read and by every Verify.
func TestVerifyRefusesRewrittenEventType(t *testing.T) {
	ring, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	h, err := ring.Sign(testOrg, "act-1:ACTIVITY_STATUS_COMPLETED", now, testBody)
	if err != nil {
		t.Fatal(err)
	}
	sent := h.Get(HeaderEventType)
	if _, err := VerifyForOrganization(context.Background(), testOrg, h, testBody, ring, now, 0); err != nil {
		t.Fatalf("the delivery as signed (event type %q) does not verify: %v", sent, err)
	}
	for _, typ := range []string{"BALANCE_CONFIRMED_UPDATES", "ACTIVITY_DELETED", "activity_updates", sent + "_V2", " " + sent} {
		hh := h.Clone()
		hh.Set(HeaderEventType, typ)
		d, err := VerifyForOrganization(context.Background(), testOrg, hh, testBody, ring, now, 0)
		if !errors.Is(err, ErrMalformed) || d != nil {
			t.Errorf("event type rewritten to %q: VerifyForOrganization = %+v, %v; want ErrMalformed", typ, d, err)
		}
		if d, err := Verify(hh, testBody, ring, now, 0); !errors.Is(err, ErrMalformed) {
			t.Errorf("event type rewritten to %q: Verify = %+v, %v; want ErrMalformed", typ, d, err)
		}
		if err := CheckHeaders(testOrg, hh, now, 0); !errors.Is(err, ErrMalformed) {
			t.Errorf("event type rewritten to %q: CheckHeaders = %v; want ErrMalformed", typ, err)
		}
	}
}
