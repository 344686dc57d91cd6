package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A submit whose connection never got past the TLS handshake (it timed out,
// or the caller cancelled) was not sent: safe to run again, not "outcome
// unknown"; and the timeout is said as the handshake's, not as the reply's.
func TestSubmitStuckInTLSHandshakeIsNotSent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accepts and reads, never answering the ClientHello
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	s := newTestService(t, func(int, recorded, http.ResponseWriter) {})
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	tr.TLSHandshakeTimeout = 200 * time.Millisecond
	c, err := NewClient("https://"+ln.Addr().String(), testOrg, s.key, WithHTTPClient(&http.Client{Transport: tr, Timeout: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateUserTag(context.Background(), CreateUserTagParams{UserTagName: "t"})
	if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNotSent) {
		t.Errorf("handshake timeout: err = %v; want not sent", err)
	}
	if err != nil && (!strings.Contains(err.Error(), "TLS handshake") || strings.Contains(err.Error(), "1h0m0s")) {
		t.Errorf("handshake timeout: err = %v; want it named as the handshake's, not the client's 1h limit", err)
	}
	tr.TLSHandshakeTimeout = 0
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = c.CreateUserTag(ctx, CreateUserTagParams{UserTagName: "t"})
	if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNotSent) {
		t.Errorf("cancelled during the handshake: err = %v; want not sent", err)
	}
}

// A submit cancelled while the connection is still being made (a host whose
// firewall drops the SYN) was not sent: net/http then returns the context's
// error, not the dialer's.
func TestSubmitCancelledWhileDialingIsNotSent(t *testing.T) {
	s := newTestService(t, func(int, recorded, http.ResponseWriter) {})
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// net/http may go on dialing in the background after the request gives
	// up, with a context nobody cancels: the test's end lets that dial go.
	testDone := make(chan struct{})
	t.Cleanup(func() { close(testDone); tr.CloseIdleConnections() })
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		select { // as net.Dialer to a blackholed address
		case <-ctx.Done():
			return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
		case <-testDone:
			return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("test over")}
		}
	}
	c, err := NewClient("http://api.example.test", testOrg, s.key, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = c.CreateUserTag(ctx, CreateUserTagParams{UserTagName: "t"})
	if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNotSent) {
		t.Errorf("cancelled while dialing: err = %v; want not sent", err)
	}
}
