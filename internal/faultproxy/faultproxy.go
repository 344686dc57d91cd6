// Package faultproxy is a seeded, fault-injecting HTTP proxy for tests: it
// sits between a client and a real service and, per request, injects a
// transport fault chosen by a seeded RNG.
package faultproxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault names.
const (
	Pass         = "pass"
	RefuseBefore = "reset-before-request"   // closed with RST before the request is read
	ResetAfter   = "reset-after-recorded"   // forwarded, reply dropped with RST
	Truncate     = "truncated-body"         // forwarded, half the body then close
	Delay        = "delayed"                // forwarded, reply after a delay
	SlowDrip     = "slow-drip"              // forwarded, reply a few bytes at a time
	TooMany      = "429"                    // not forwarded, 429 with a Retry-After variant
	GatewayNot   = "5xx-html-not-forwarded" // 502/503/504 HTML, service never saw it
	GatewayAfter = "5xx-html-after-recorded"
	Redirect     = "redirect"        // 301/307/308 to another host, not forwarded
	Swapped      = "swapped"         // forwarded, but the reply of an earlier, different request
	SwappedSame  = "swapped-same-op" // forwarded, but the reply of the previous request to the same path
	Garbage      = "garbage"         // not forwarded, non-HTTP bytes
	DateJump     = "date-jump"
	HangForever  = "hang" // forwarded, never answered (only when enabled)
)

// All is every fault the fuzz picks from (HangForever only if Hang is set).
var All = []string{Pass, RefuseBefore, ResetAfter, Truncate, Delay, SlowDrip, TooMany, GatewayNot, GatewayAfter, Redirect, Swapped, SwappedSame, Garbage, DateJump}

// Event is one request's fate.
type Event struct {
	Fault, Detail, Method, Path string
	Forwarded                   bool
	Status                      int
	Body                        []byte
	Request                     []byte
}

// Proxy is the proxy.
type Proxy struct {
	URL    string
	target string
	ln     net.Listener
	mu     sync.Mutex
	rng    *rand.Rand
	rate   int
	Faults []string
	Hang   bool
	// Only, when set, limits faults to requests whose path contains it.
	Only string
	// Rules, when set, maps a path substring to the fault every request to
	// such a path gets (checked before anything else).
	Rules   map[string]string
	Log     []Event
	Tally   map[string]int
	last    map[string][]byte // last reply body per path
	lastAny []byte
	off     bool
	tr      *http.Transport
}

// New starts a proxy in front of target (a base URL such as http://127.0.0.1:1234).
func New(target string, seed uint64, rate int) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{URL: "http://" + ln.Addr().String(), target: strings.TrimSuffix(target, "/"), ln: ln,
		rng: rand.New(rand.NewPCG(seed, 99)), rate: rate, Faults: All, Tally: map[string]int{}, last: map[string][]byte{},
		tr: &http.Transport{DisableKeepAlives: true}}
	go p.serve()
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() { p.ln.Close() }

// Off stops injecting faults (everything passes).
func (p *Proxy) Off(off bool) { p.mu.Lock(); p.off = off; p.mu.Unlock() }

// Events returns a copy of the log.
func (p *Proxy) Events() []Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Event(nil), p.Log...)
}

func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.conn(c)
	}
}

func (p *Proxy) pick(path string) (string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.rng.IntN(1 << 30)
	for sub, f := range p.Rules {
		if !p.off && strings.Contains(path, sub) {
			return f, r
		}
	}
	if p.off || (p.Only != "" && !strings.Contains(path, p.Only)) || p.rng.IntN(100) >= p.rate {
		return Pass, r
	}
	faults := p.Faults
	if p.Hang {
		faults = append(append([]string(nil), faults...), HangForever)
	}
	return faults[p.rng.IntN(len(faults))], r
}

func rst(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

func (p *Proxy) record(e Event) {
	p.mu.Lock()
	p.Log = append(p.Log, e)
	p.Tally[e.Fault]++
	p.mu.Unlock()
}

func (p *Proxy) conn(c net.Conn) {
	br := bufio.NewReader(c)
	// Peek whether to refuse before reading anything: we have to read the
	// request line to know the path, so "refuse" closes right after.
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			c.Close()
			return
		}
		body, _ := io.ReadAll(req.Body)
		fault, r := p.pick(req.URL.Path)
		ev := Event{Fault: fault, Method: req.Method, Path: req.URL.Path, Request: body}
		switch fault {
		case RefuseBefore:
			p.record(ev)
			rst(c)
			return
		case TooMany:
			variants := []string{"", "1", "99999999999999999999", "-5", "0", time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat), time.Now().Add(48 * time.Hour).UTC().Format(http.TimeFormat), "soon"}
			v := variants[r%len(variants)]
			ev.Detail = "Retry-After=" + strconv.Quote(v)
			ev.Status = 429
			p.record(ev)
			h := ""
			if v != "" {
				h = "Retry-After: " + v + "\r\n"
			}
			b := `{"code":8,"message":"rate limited"}`
			fmt.Fprintf(c, "HTTP/1.1 429 Too Many Requests\r\n%sContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", h, len(b), b)
			c.Close()
			return
		case GatewayNot:
			st := []int{502, 503, 504}[r%3]
			ev.Status = st
			p.record(ev)
			writeHTML(c, st)
			return
		case Redirect:
			st := []int{301, 307, 308}[r%3]
			ev.Status = st
			p.record(ev)
			fmt.Fprintf(c, "HTTP/1.1 %d Moved\r\nLocation: http://127.0.0.2:1%s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", st, req.URL.Path)
			c.Close()
			return
		case Garbage:
			p.record(ev)
			c.Write([]byte("\x16\x03\x01\x02\x00garbage\x1b]0;pwned\x07\r\n\r\n"))
			c.Close()
			return
		}
		// Forward.
		out, _ := http.NewRequest(req.Method, p.target+req.URL.RequestURI(), bytes.NewReader(body))
		for k, vs := range req.Header {
			out.Header[k] = vs
		}
		out.Header.Del("Accept-Encoding")
		resp, err := p.tr.RoundTrip(out)
		if err != nil {
			ev.Detail = "upstream: " + err.Error()
			p.record(ev)
			rst(c)
			return
		}
		rb, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ev.Forwarded = true
		ev.Status = resp.StatusCode
		ev.Body = rb
		p.mu.Lock()
		prev, swapOK := p.lastAny, p.lastAny != nil
		for k, v := range p.last {
			if k != req.URL.Path {
				prev, swapOK = v, true
				break
			}
		}
		same, sameOK := p.last[req.URL.Path]
		p.last[req.URL.Path] = rb
		p.lastAny = rb
		p.mu.Unlock()
		hdr := resp.Header.Clone()
		hdr.Del("Content-Length")
		hdr.Del("Transfer-Encoding")
		status := resp.StatusCode
		switch fault {
		case ResetAfter:
			p.record(ev)
			rst(c)
			return
		case Truncate:
			p.record(ev)
			writeHead(c, status, hdr, len(rb))
			c.Write(rb[:len(rb)/2])
			rst(c)
			return
		case GatewayAfter:
			st := []int{502, 503, 504}[r%3]
			ev.Detail = "real status " + strconv.Itoa(status)
			ev.Status = st
			p.record(ev)
			writeHTML(c, st)
			return
		case Swapped:
			if swapOK {
				ev.Detail = "swapped"
				rb = prev
			}
		case SwappedSame:
			if sameOK {
				ev.Detail = "swapped with the previous same-path reply"
				rb = same
			}
		case Delay:
			time.Sleep(time.Duration(100+r%400) * time.Millisecond)
		case DateJump:
			jumps := []time.Duration{-400 * 24 * time.Hour, 400 * 24 * time.Hour, -10 * time.Minute, 10 * time.Minute}
			j := jumps[r%len(jumps)]
			ev.Detail = "Date " + j.String()
			hdr.Set("Date", time.Now().Add(j).UTC().Format(http.TimeFormat))
		case HangForever:
			p.record(ev)
			time.Sleep(10 * time.Minute)
			c.Close()
			return
		}
		p.record(ev)
		writeHead(c, status, hdr, len(rb))
		if fault == SlowDrip {
			for i := 0; i < len(rb); i += 64 {
				c.Write(rb[i:min(i+64, len(rb))])
				time.Sleep(2 * time.Millisecond)
			}
		} else {
			c.Write(rb)
		}
	}
}

func writeHead(c net.Conn, status int, hdr http.Header, n int) {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	hdr.Set("Content-Length", strconv.Itoa(n))
	hdr.Write(&b)
	b.WriteString("\r\n")
	c.Write([]byte(b.String()))
}

func writeHTML(c net.Conn, st int) {
	b := fmt.Sprintf("<html><head><title>%d Bad Gateway</title></head><body><h1>%d \x1b[31mgateway\u202e</h1></body></html>", st, st)
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", st, http.StatusText(st), len(b), b)
	c.Close()
}
