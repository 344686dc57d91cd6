package screens

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// TestThousandsOfHostileActivities: 3,000 activities whose names are 10,000
// characters of escapes, C1 and bidi controls and wide text (their ids,
// requesters and users hold controls too), browsed with random keys at random
// window sizes: every frame fits the window, and nothing in it or the title
// reaches the terminal as a control (frameFault). Its size under the race
// detector is in console_fuzz_race_test.go.
func TestThousandsOfHostileActivities(t *testing.T) {
	hostile := strings.Repeat("x\u202e\x1b]0;pwned\x07\u009b財", 10000/8)
	var acts []api.Activity
	for i := range 3000 {
		name := fmt.Sprintf("n%d", i) + hostile
		acts = append(acts, pendingActivity(fmt.Sprintf("act-%05d\u202e", i), "bob\x1b[2J", time.Duration(i+1)*time.Second,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{"u-" + name}}},
			api.TypeCreateUserTag))
	}
	fake := &fakeClient{activities: acts, users: []api.User{{UserID: "u-bob", UserName: strings.Repeat("bob\u202e", 3000)}}}
	h := newHarness(t, fake, false, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	keys := strings.Fields("j k G g enter esc a x y n / b o v space down up 1 tab shift+tab")
	sizes := slices.Concat(fuzzOddSizes, fuzzSizes)
	w, hh := 100, 30
	for i := range thousandsSteps {
		if rng.IntN(10) == 0 {
			sz := sizes[rng.IntN(len(sizes))]
			w, hh = sz[0], sz[1]
			h.send(tea.WindowSizeMsg{Width: w, Height: hh})
		}
		k := keys[rng.IntN(len(keys))]
		h.key(k)
		if err := frameFault(h, w, hh); err != nil {
			t.Fatalf("step %d, key %s: %v", i+1, k, err)
		}
	}
}
