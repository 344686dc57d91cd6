package screens

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// countingService is the real local service behind a proxy that counts what
// reaches it, by path prefix.
type countingService struct {
	demo *servertest.Demo
	url  string

	mu      sync.Mutex
	submits []string
	queries []string
}

func startCountingService(t *testing.T) *countingService {
	t.Helper()
	d := servertest.StartDemo(t)
	target, err := url.Parse(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingService{demo: d}
	proxy := httputil.NewSingleHostReverseProxy(target)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.mu.Lock()
		switch {
		case strings.HasPrefix(r.URL.Path, api.SubmitPrefix):
			cs.submits = append(cs.submits, r.URL.Path)
		case strings.HasPrefix(r.URL.Path, api.QueryPrefix):
			cs.queries = append(cs.queries, r.URL.Path)
		}
		cs.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	cs.url = ts.URL
	return cs
}

// client is a client of the demo organization, through the proxy, as member.
func (cs *countingService) client(t *testing.T, member string) *api.Client {
	t.Helper()
	k, err := keys.Store{Dir: cs.demo.KeysDir}.Load(member)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(cs.url, cs.demo.Info.OrganizationID, k, api.WithRetryPolicy(0, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (cs *countingService) counts() (submits, queries int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.submits), len(cs.queries)
}

// submitMethods maps every submit operation of the api package to the Submitter
// method that sends it. An operation added to api.SubmitOperations without a
// method here fails TestSubmitterCoversEverySubmitOperation.
var submitMethods = map[string]string{
	"oauth":                           "OAuth",
	"create_invitations":              "CreateInvitations",
	"create_smart_contract_interface": "CreateSmartContractInterface",
	"set_organization_feature":        "SetOrganizationFeature",
	"update_oauth2_credential":        "UpdateOauth2Credential",
	"create_policy":                   "CreatePolicy",
	"delete_wallet_accounts":          "DeleteWalletAccounts",
	"create_user_tag":                 "CreateUserTag",
	"delete_api_keys":                 "DeleteAPIKeys",
	"create_read_only_session":        "CreateReadOnlySession",
	"delete_tvc_deployment":           "DeleteTvcDeployment",
	"create_mfa_policy":               "CreateMfaPolicy",
	"approve_activity":                "ApproveActivity",
	"reject_activity":                 "RejectActivity",
}

func methodNames(t reflect.Type) []string {
	var out []string
	for m := range t.Methods() {
		out = append(out, m.Name)
	}
	return out
}

// resendMethods are the Submitter's methods that send again a request of any
// operation, rather than one operation of their own.
var resendMethods = []string{"Resubmit"}

func TestSubmitterCoversEverySubmitOperation(t *testing.T) {
	sub := slices.DeleteFunc(methodNames(reflect.TypeFor[Submitter]()), func(m string) bool { return slices.Contains(resendMethods, m) })
	for _, op := range api.SubmitOperations() {
		m, ok := submitMethods[op.Path]
		if !ok {
			t.Errorf("submit operation %s has no Submitter method: add it to Submitter and to submitMethods", op.Path)
			continue
		}
		if !slices.Contains(sub, m) {
			t.Errorf("Submitter lacks %s (operation %s)", m, op.Path)
		}
	}
	if len(sub) != len(submitMethods) {
		t.Errorf("Submitter has %d methods, want one per submit operation (%d): %v", len(sub), len(submitMethods), sub)
	}
}

// A read-only console holds no submitter, and its reader has no submit method,
// not even behind a type assertion, although the client it was built from has.
func TestReadOnlyHasNoSubmitPathByConstruction(t *testing.T) {
	cs := startCountingService(t)
	client := cs.client(t, "alice")
	r := NewRoot(Options{Reader: client, Theme: theme.Options{NoColor: true}, Static: true})
	c := r.common
	if c.Submitter != nil || !c.ReadOnly() {
		t.Fatalf("read-only Common has a submitter: %T", c.Submitter)
	}
	if _, ok := any(c.Reader).(Submitter); ok {
		t.Fatalf("the read-only reader (%T) is a Submitter", c.Reader)
	}
	readerType := reflect.TypeOf(c.Reader)
	for _, name := range methodNames(reflect.TypeFor[Submitter]()) {
		if _, ok := readerType.MethodByName(name); ok {
			t.Errorf("the reader %s has the submit method %s", readerType, name)
		}
		if _, ok := reflect.TypeFor[Reader]().MethodByName(name); ok {
			t.Errorf("the Reader interface has the submit method %s", name)
		}
	}
	// Every method the reader has is a query: called with zero arguments on the
	// real service, each sends a query and none a submit.
	v := reflect.ValueOf(c.Reader)
	for i := range v.NumMethod() {
		m := v.Method(i)
		args := []reflect.Value{reflect.ValueOf(context.Background())}
		for j := 1; j < m.Type().NumIn(); j++ {
			arg := reflect.New(m.Type().In(j)).Elem()
			if arg.Kind() == reflect.String {
				arg.SetString("x") // an empty id is refused before sending
			}
			args = append(args, arg)
		}
		_, queriesBefore := cs.counts()
		m.Call(args)
		submits, queries := cs.counts()
		if submits != 0 {
			t.Fatalf("reader method %s sent a submit: %v", readerType.Method(i).Name, cs.submits)
		}
		if queries == queriesBefore {
			t.Errorf("reader method %s sent no query: is it really one?", readerType.Method(i).Name)
		}
	}
}

// A nil *api.Client passed as the submitter is read-only, not a submitter that
// panics when used.
func TestTypedNilSubmitterIsReadOnly(t *testing.T) {
	var none *api.Client
	r := NewRoot(Options{Reader: &fakeClient{}, Submitter: none, Theme: theme.Options{NoColor: true}, Static: true})
	if !r.common.ReadOnly() || r.common.Submitter != nil {
		t.Errorf("a nil *api.Client submitter gives Submitter %#v", r.common.Submitter)
	}
}

// actionKeys are every key any screen binds, plus the vote and dialog answers,
// from the screens' own key maps.
func actionKeys(r *Root) []string {
	keys := []string{"a", "x", "y", "Y", "enter", "n"}
	for _, s := range r.screens {
		for _, group := range s.Keys().FullHelp() {
			for _, b := range group {
				for _, k := range b.Keys() {
					if k != "q" && k != "ctrl+c" && !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
		}
	}
	return keys
}

// pressEverything presses, on every screen, in its list and in an open detail,
// every action key followed by the answers that would confirm a dialog.
func pressEverything(h *harness) {
	keys := actionKeys(h.root)
	for i := range h.root.screens {
		for _, k := range keys {
			for _, detail := range []bool{false, true} {
				h.key(string(rune('1' + i)))
				if detail {
					h.key("enter")
				}
				h.key(k)
				h.key("y")
				h.key("enter")
				h.key("esc")
				h.key("esc")
			}
		}
	}
}

func newServiceHarness(t *testing.T, r Reader, s Submitter) *harness {
	t.Helper()
	root := NewRoot(Options{Reader: r, Submitter: s, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: time.Now, Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: root}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(root.Init())
	return h
}

func TestReadOnlyKeysSendNoSubmitToTheService(t *testing.T) {
	cs := startCountingService(t)
	client := cs.client(t, "alice")

	// Control: with a submitter, the same presses do vote, so the count below
	// would see a submit if one slipped through.
	h := newServiceHarness(t, client, client)
	pressEverything(h)
	if n, _ := cs.counts(); n == 0 {
		t.Fatal("with a submitter, pressing every key sent no submit: the test would prove nothing")
	}

	cs2 := startCountingService(t)
	ro := cs2.client(t, "alice")
	h = newServiceHarness(t, ro, nil)
	pressEverything(h)
	submits, queries := cs2.counts()
	if submits != 0 {
		t.Errorf("read-only console sent %d submits: %v", submits, cs2.submits)
	}
	if queries == 0 {
		t.Error("read-only console sent no query at all: the keys reached nothing")
	}
	if !toasted(h.msgs, "read-only") {
		t.Error("no key press said read-only")
	}
}
