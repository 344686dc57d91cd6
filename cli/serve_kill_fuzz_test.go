package cli

// A seeded, machine-driven crash-consistency and concurrency fuzz of
// 'vigil serve' (from audit 209): mixed submits and racing votes by the
// three root members, a key deletion racing its owner's requests, webhook
// deliveries, and kill -9 at random moments; after each restart every
// acknowledged reply is checked. The default run is short (killFuzzRounds);
// longer and reproducible:
//
//	VIGIL_FUZZ_SEED=n VIGIL_FUZZ_ROUNDS=k [VIGIL_FUZZ_VERBOSE=1] go test ./cli -run TestServeKeepsEveryAcknowledgedWriteAcrossKills -v

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

type fuzzAck struct {
	id, fp, typ, status, by string
	name                    string // unique name carried (tag, policy, invitee)
}

type fuzzVote struct {
	activityID, user, selection, status string
}

// TestServeKeepsEveryAcknowledgedWriteAcrossKills checks that nothing the
// service acknowledged is lost or done twice across kill -9: activities,
// votes, results executed once, list agreeing with get, a deleted key
// staying deleted, unknown outcomes resent without duplicates, and every
// acknowledged status delivered to the webhook.
func TestServeKeepsEveryAcknowledgedWriteAcrossKills(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("VIGIL_FUZZ_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("VIGIL_FUZZ_SEED: %v", err)
		}
	}
	rounds, traffic := killFuzzRounds, killFuzzTraffic
	if s := os.Getenv("VIGIL_FUZZ_ROUNDS"); s != "" {
		var err error
		if rounds, err = strconv.Atoi(s); err != nil || rounds < 1 {
			t.Fatalf("VIGIL_FUZZ_ROUNDS=%q: want a number of rounds, 1 or more", s)
		}
		traffic = 1500 * time.Millisecond // the audit's: more traffic per kill
	}
	t.Logf("seed %d rounds %d", seed, rounds)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("reproduce the choices with VIGIL_FUZZ_SEED=%d VIGIL_FUZZ_ROUNDS=%d (the kill times still vary)", seed, rounds)
		}
	})
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var rngMu sync.Mutex
	rint := func(n int) int { rngMu.Lock(); defer rngMu.Unlock(); return rng.IntN(n) }

	// Webhook receiver: activity id -> statuses delivered.
	var hookMu sync.Mutex
	delivered := map[string]map[string]bool{}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var a struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		if json.Unmarshal(b, &a) == nil && a.ID != "" {
			hookMu.Lock()
			if delivered[a.ID] == nil {
				delivered[a.ID] = map[string]bool{}
			}
			delivered[a.ID][a.Status] = true
			hookMu.Unlock()
		}
		w.WriteHeader(200)
	}))
	defer hook.Close()

	bin := vigilBinary(t)
	dir := t.TempDir()
	addr, proxyAddr := freeAddrPair(t)
	base := "http://" + addr
	var logs bytes.Buffer
	var logsMu sync.Mutex
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "serve", "--demo", "--data", dir, "--addr", addr, "--auth-proxy-addr", proxyAddr)
		w := &lockedWriter{mu: &logsMu, w: &logs}
		cmd.Stdout, cmd.Stderr = w, w
		if err := startChild(cmd); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				cmd.Process.Kill()
				cmd.Wait()
			}
		})
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if resp, err := http.Get(base + api.JWKSPath); err == nil {
				resp.Body.Close()
				return cmd
			}
		}
		logsMu.Lock()
		defer logsMu.Unlock()
		t.Fatalf("vigil serve did not start: %s", logs.String())
		return nil
	}
	cmd := start()
	cfg, err := loadConfig(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	orgID := cfg.Profiles["operator"].OrganizationID
	names := []string{"alice", "bob", "carol", "operator"}
	clients := map[string]*api.Client{}
	userIDs := map[string]string{}
	who := map[string]string{} // user id -> name
	ctx0 := context.Background()
	for _, n := range names {
		k, err := keys.Store{Dir: filepath.Join(dir, "keys")}.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.NewClient(base, orgID, k)
		if err != nil {
			t.Fatal(err)
		}
		clients[n] = c
		w, err := c.Whoami(ctx0)
		if err != nil {
			t.Fatal(err)
		}
		userIDs[n], who[w.UserID] = w.UserID, n
	}
	roots := []string{"alice", "bob", "carol"}

	// Webhook on: alice proposes, bob approves.
	fa, err := clients["alice"].SetOrganizationFeature(ctx0, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: hook.URL + "/hooks"})
	if err != nil {
		t.Fatal(err)
	}
	if fa, err = clients["bob"].ApproveActivity(ctx0, fa.Fingerprint); err != nil || fa.Status != api.StatusCompleted {
		t.Fatalf("webhook feature: %v %v", err, fa)
	}

	var mu sync.Mutex
	var acks []fuzzAck
	var votes []fuzzVote
	var deletedKey atomic.Bool // operator's key deletion acknowledged COMPLETED, or found done after a restart
	var opsOK, opsErr, kills, refusedVotes, unknownCount, unknownRecorded int64
	var afterDeleteAccepted []string
	var fails []fuzzFail

	operatorKeyID := ""
	{
		u, err := clients["alice"].GetUser(ctx0, userIDs["operator"])
		if err != nil {
			t.Fatal(err)
		}
		ok, _ := keys.Store{Dir: filepath.Join(dir, "keys")}.Load("operator")
		pub := ok.PublicKeyHex()
		for _, k := range u.APIKeys {
			if k.Credential.PublicKey == pub {
				operatorKeyID = k.APIKeyID
			}
		}
		if operatorKeyID == "" {
			t.Fatal("operator key not found")
		}
	}
	deleteRound := rint(rounds)
	counter := 0
	nextName := func(p string) string {
		mu.Lock()
		defer mu.Unlock()
		counter++
		return fmt.Sprintf("fz%d-%s-%d", seed%1000, p, counter)
	}

	submitOne := func(ctx context.Context) error {
		// Only a request sent after the deletion was acknowledged must be
		// refused: one sent before may be served before the deletion commits.
		deletedBefore := deletedKey.Load()
		by := names[rint(len(names))]
		c := clients[by]
		var act *api.Activity
		var err error
		var name string
		switch rint(4) {
		case 0:
			name = nextName("tag")
			act, err = c.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{userIDs["operator"]}})
		case 1:
			name = nextName("pol")
			act, err = c.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: name, Effect: api.EffectDeny,
				Condition: "activity.type == 'ACTIVITY_TYPE_" + "NONE'", Notes: "fuzz"})
		case 2:
			name = nextName("inv")
			act, err = c.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
				ReceiverUserName: name, ReceiverUserEmail: name + "@fuzz.test", ReceiverUserTags: []string{},
				AccessType: api.AccessTypeAPI, SenderUserID: userIDs[by]}}})
		case 3:
			act, err = c.CreateReadOnlySession(ctx)
		}
		if err != nil {
			if name != "" {
				kind := "definite"
				switch {
				case errors.Is(err, api.ErrNotSent):
					kind = "not-sent"
				case errors.Is(err, api.ErrOutcomeUnknown):
					kind = "unknown"
				}
				var oe *api.OutcomeUnknownError
				errors.As(err, &oe)
				mu.Lock()
				fails = append(fails, fuzzFail{name: name, kind: kind, err: err.Error(), by: by, oe: oe})
				mu.Unlock()
			}
			return err
		}
		mu.Lock()
		acks = append(acks, fuzzAck{id: act.ID, fp: act.Fingerprint, typ: act.Type, status: act.Status, by: by, name: name})
		if by == "operator" && deletedBefore {
			afterDeleteAccepted = append(afterDeleteAccepted, act.ID)
		}
		mu.Unlock()
		return nil
	}
	voteOne := func(ctx context.Context) error {
		mu.Lock()
		var pending []fuzzAck
		for _, a := range acks {
			if a.status == api.StatusConsensusNeeded {
				pending = append(pending, a)
			}
		}
		mu.Unlock()
		if len(pending) == 0 {
			time.Sleep(time.Millisecond)
			return errNoop
		}
		a := pending[rint(len(pending))]
		voter := roots[rint(3)]
		sel := api.VoteApproved
		var act *api.Activity
		var err error
		if rint(5) == 0 {
			sel = api.VoteRejected
			act, err = clients[voter].RejectActivity(ctx, a.fp)
		} else {
			act, err = clients[voter].ApproveActivity(ctx, a.fp)
		}
		if err != nil {
			var ae *api.Error
			if errors.As(err, &ae) && ae.StatusCode/100 == 4 {
				atomic.AddInt64(&refusedVotes, 1)
				return errNoop // refused vote (already voted, terminal...): not acknowledged
			}
			return err
		}
		mu.Lock()
		votes = append(votes, fuzzVote{activityID: act.ID, user: userIDs[voter], selection: sel, status: act.Status})
		for i := range acks {
			if acks[i].id == act.ID && statusRank(act.Status) >= statusRank(acks[i].status) {
				acks[i].status = act.Status
			}
		}
		mu.Unlock()
		return nil
	}

	for round := range rounds {
		ctx, cancel := context.WithCancel(context.Background())
		var killed atomic.Bool
		var wg sync.WaitGroup
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					var err error
					if w%2 == 0 {
						err = submitOne(ctx)
					} else {
						err = voteOne(ctx)
					}
					if errors.Is(err, errNoop) {
						continue
					}
					if err != nil {
						atomic.AddInt64(&opsErr, 1)
						if killed.Load() {
							return
						}
						var ae *api.Error
						if errors.As(err, &ae) && ae.StatusCode/100 == 4 {
							if os.Getenv("VIGIL_FUZZ_VERBOSE") != "" {
								t.Logf("4xx: %v", err)
							}
							continue
						}
						t.Errorf("round %d: before the kill: %v", round, err)
						return
					}
					atomic.AddInt64(&opsOK, 1)
				}
			}()
		}
		if round == deleteRound && !deletedKey.Load() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(rint(300)) * time.Millisecond)
				d, err := clients["bob"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: userIDs["operator"], APIKeyIDs: []string{operatorKeyID}})
				if err != nil {
					return
				}
				mu.Lock()
				acks = append(acks, fuzzAck{id: d.ID, fp: d.Fingerprint, typ: d.Type, status: d.Status, by: "bob"})
				mu.Unlock()
				// alice and carol race to approve
				var vw sync.WaitGroup
				for _, v := range []string{"alice", "carol"} {
					vw.Add(1)
					go func() {
						defer vw.Done()
						a, err := clients[v].ApproveActivity(ctx, d.Fingerprint)
						if err != nil {
							return
						}
						mu.Lock()
						votes = append(votes, fuzzVote{activityID: a.ID, user: userIDs[v], selection: api.VoteApproved, status: a.Status})
						for i := range acks {
							if acks[i].id == a.ID && statusRank(a.Status) >= statusRank(acks[i].status) {
								acks[i].status = a.Status
							}
						}
						mu.Unlock()
						if a.Status == api.StatusCompleted {
							deletedKey.Store(true)
						}
					}()
				}
				vw.Wait()
			}()
		}
		time.Sleep(traffic/5 + time.Duration(rint(int(traffic*4/5/time.Millisecond)))*time.Millisecond)
		killed.Store(true)
		cmd.Process.Signal(syscall.SIGKILL)
		kills++
		cmd.Wait()
		cancel()
		wg.Wait()
		cmd = start()
		if !deletedKey.Load() && !operatorKeyRegistered(t, clients["alice"], userIDs["operator"], operatorKeyID) {
			// The deletion completed, its reply lost to the kill: from now on
			// the operator's key is gone, and its unknown outcomes cannot be
			// resent with it.
			deletedKey.Store(true)
		}
		fuzzCheck(t, round, clients, roots, userIDs, who, acks, votes, deletedKey.Load(), afterDeleteAccepted)
		present := fuzzNames(t, clients["alice"])
		for _, f := range fails {
			if present[f.name] && f.kind != "unknown" {
				t.Errorf("seed %d round %d: submit of %s answered %s (%s) but it was recorded", seed, round, f.name, f.kind, f.err)
			}
			if f.kind == "unknown" {
				unknownCount++
				if present[f.name] {
					unknownRecorded++
				}
				if f.oe != nil && !(f.by == "operator" && deletedKey.Load()) {
					a, err := clients[f.by].Resubmit(context.Background(), f.oe)
					if err != nil {
						t.Errorf("seed %d round %d: resubmit of %s (recorded %v): %v", seed, round, f.name, present[f.name], err)
					} else {
						mu.Lock()
						acks = append(acks, fuzzAck{id: a.ID, fp: a.Fingerprint, typ: a.Type, status: a.Status, by: f.by, name: f.name})
						mu.Unlock()
					}
				}
			}
		}
		fails = nil
	}
	// Webhooks: every acknowledged status reaches the receiver (at least once).
	deadline := time.Now().Add(20 * time.Second)
	for {
		hookMu.Lock()
		var missing []string
		mu.Lock()
		for _, a := range acks {
			if !delivered[a.id][a.status] {
				missing = append(missing, a.id+" "+a.status)
			}
		}
		mu.Unlock()
		hookMu.Unlock()
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("seed %d: %d acknowledged statuses never delivered to the webhook, e.g. %v", seed, len(missing), missing[:min(5, len(missing))])
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("seed %d: %d refused votes; %d unknown outcomes, %d of them recorded", seed, refusedVotes, unknownCount, unknownRecorded)
	t.Logf("seed %d: %d ops acknowledged, %d errors, %d acked activities, %d acked votes, %d kills, key deleted %v",
		seed, opsOK, opsErr, len(acks), len(votes), kills, deletedKey.Load())
}

// operatorKeyRegistered reports whether the service still holds the
// operator's API key keyID, read as another member.
func operatorKeyRegistered(t *testing.T, c *api.Client, operatorID, keyID string) bool {
	t.Helper()
	u, err := c.GetUser(context.Background(), operatorID)
	if err != nil {
		t.Fatalf("read the operator after the restart: %v", err)
	}
	return slices.ContainsFunc(u.APIKeys, func(k api.APIKey) bool { return k.APIKeyID == keyID })
}

type fuzzFail struct {
	name, kind, err, by string
	oe                  *api.OutcomeUnknownError
}

func fuzzNames(t *testing.T, c *api.Client) map[string]bool {
	present := map[string]bool{}
	if err := api.WalkActivities(context.Background(), c, api.ListActivitiesOptions{}, 1000, func(a api.Activity) {
		if i := a.Intent.CreateUserTagIntent; i != nil {
			if present[i.UserTagName] {
				t.Errorf("two activities named %s", i.UserTagName)
			}
			present[i.UserTagName] = true
		}
		if i := a.Intent.CreatePolicyIntentV3; i != nil {
			present[i.PolicyName] = true
		}
		if i := a.Intent.CreateInvitationsIntent; i != nil && len(i.Invitations) > 0 {
			present[i.Invitations[0].ReceiverUserName] = true
		}
	}); err != nil {
		t.Fatal(err)
	}
	return present
}

var errNoop = errors.New("nothing done")

func statusRank(s string) int {
	switch s {
	case api.StatusCreated:
		return 0
	case api.StatusPending, api.StatusConsensusNeeded, api.StatusAuthenticatorsNeeded:
		return 1
	}
	return 2
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func fuzzCheck(t *testing.T, round int, clients map[string]*api.Client, roots []string, userIDs, who map[string]string,
	acks []fuzzAck, votes []fuzzVote, deleted bool, afterDelete []string) {
	t.Helper()
	ctx := context.Background()
	c := clients["alice"]
	got := map[string]*api.Activity{}
	for _, a := range acks {
		act, err := c.GetActivity(ctx, a.id)
		if err != nil {
			t.Errorf("round %d: acknowledged activity %s (%s, %s): %v", round, a.id, a.typ, a.status, err)
			continue
		}
		got[a.id] = act
		if statusRank(act.Status) < statusRank(a.status) || (api.IsTerminal(a.status) && act.Status != a.status) {
			t.Errorf("round %d: activity %s acknowledged %s is now %s", round, a.id, a.status, act.Status)
		}
		seen := map[string]bool{}
		app, rej := 0, 0
		for _, v := range act.Votes {
			if seen[v.UserID] {
				t.Errorf("round %d: %s voted twice on %s", round, who[v.UserID], a.id)
			}
			seen[v.UserID] = true
			if slices.Contains(roots, who[v.UserID]) {
				if v.Selection == api.VoteApproved {
					app++
				} else {
					rej++
				}
			}
		}
		if act.Type != "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION" {
			if act.Status == api.StatusCompleted && app < 2 {
				t.Errorf("round %d: %s %s COMPLETED with %d root approvals: %+v", round, a.id, act.Type, app, act.Votes)
			}
			if act.Status == api.StatusRejected && rej < 2 {
				t.Errorf("round %d: %s REJECTED with %d root rejections", round, a.id, rej)
			}
		}
	}
	for _, v := range votes {
		act := got[v.activityID]
		if act == nil {
			continue
		}
		found := false
		for _, x := range act.Votes {
			if x.UserID == v.user && x.Selection == v.selection {
				found = true
			}
		}
		if !found {
			t.Errorf("round %d: acknowledged %s by %s on %s (reply %s) missing; votes now %d, status %s", round, v.selection, who[v.user], v.activityID, v.status, len(act.Votes), act.Status)
		}
	}
	// list agrees with get
	listed := map[string]api.Activity{}
	if err := api.WalkActivities(ctx, c, api.ListActivitiesOptions{}, 1000, func(a api.Activity) { listed[a.ID] = a }); err != nil {
		t.Fatal(err)
	}
	for id, g := range got {
		l, ok := listed[id]
		if !ok {
			t.Errorf("round %d: %s in get_activity, not in list_activities", round, id)
			continue
		}
		if l.Status != g.Status || len(l.Votes) != len(g.Votes) {
			t.Errorf("round %d: %s list says %s/%d votes, get says %s/%d", round, id, l.Status, len(l.Votes), g.Status, len(g.Votes))
		}
	}
	// Results executed exactly once.
	pols, err := c.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	polCount := map[string]int{}
	for _, p := range pols {
		polCount[p.PolicyName]++
	}
	u, err := c.GetUser(ctx, userIDs["operator"])
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acks {
		g := got[a.id]
		if g == nil || a.name == "" {
			continue
		}
		switch g.Type {
		case "ACTIVITY_TYPE_CREATE_POLICY_V3":
			want := 0
			if g.Status == api.StatusCompleted {
				want = 1
				if g.Result.CreatePolicyResult == nil || g.Result.CreatePolicyResult.PolicyID == "" {
					t.Errorf("round %d: completed policy %s has no result", round, a.id)
				}
			}
			if polCount[a.name] != want {
				t.Errorf("round %d: policy %s (%s) exists %d times", round, a.name, g.Status, polCount[a.name])
			}
		case "ACTIVITY_TYPE_CREATE_USER_TAG":
			if g.Status == api.StatusCompleted {
				r := g.Result.CreateUserTagResult
				if r == nil || r.UserTagID == "" {
					t.Errorf("round %d: completed tag %s has no result", round, a.id)
				} else if n := countOf(u.UserTags, r.UserTagID); n != 1 {
					t.Errorf("round %d: tag %s on operator %d times", round, r.UserTagID, n)
				}
			}
		}
	}
	if deleted {
		if _, err := clients["operator"].CreateReadOnlySession(ctx); err == nil {
			t.Errorf("round %d: operator's deleted key still accepted after restart", round)
		}
		if len(afterDelete) > 0 {
			t.Errorf("round %d: operator requests accepted after its key's deletion completed: %v", round, afterDelete)
		}
	}
}

func countOf(s []string, x string) int {
	n := 0
	for _, v := range s {
		if v == x {
			n++
		}
	}
	return n
}
