// Command loadgen drives a running `vigil serve` with stamped traffic — whoami
// queries, the console's pending list, and durable submits — from many
// clients, and prints throughput, p50 and p99 for each, with the server's CPU
// per request and its memory when it knows the server's process.
//
// Against a service you started yourself (its demo organization, or any
// organization whose keys you hold):
//
//	vigil serve --demo --data /tmp/vigil
//	go run ./bench/loadgen --data /tmp/vigil --pid $(pgrep -n vigil)
//
// Or let it seed organizations of several sizes, start `vigil serve` on each
// and report the ratios of issue 15 (run from the repository root; it builds
// vigil unless --vigil names a binary):
//
//	go run ./bench/loadgen --sizes 1000,10000,100000
//
// The machine's other work moves throughput between phases; --rounds 3 runs
// the phases three times in turn and reports each phase's median round.
package main

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
)

const usage = `Usage:
  go run ./bench/loadgen --data DIR [--url URL] [--pid PID] [flags]
  go run ./bench/loadgen --sizes 1000,10000,100000 [flags]

With --data, loadgen drives the service already running for DIR (a data
directory of "vigil serve --demo": it reads DIR/config.toml and DIR/keys/).
--pid names the server's process, for its CPU and memory.

With --sizes, for each size loadgen creates a fresh data directory, seeds the
demo organization with that many activities (10 of them pending) straight into
the store, starts "vigil serve" on it, drives it, stops it, and at the end
prints the ratios the performance goals are stated in.

Flags:
`

type options struct {
	data, url, vigil    string
	pid                 int
	sizes               []int
	clients             int
	duration            time.Duration
	pending             int
	queryKey, submitKey string
	keep                bool
	phases              string
	rounds              int
}

func main() {
	var o options
	var sizes string
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage); fs.PrintDefaults() }
	fs.StringVar(&o.data, "data", "", "data directory of a running `vigil serve --demo`")
	fs.StringVar(&o.url, "url", "", "service URL (default: the demo profile's base_url)")
	fs.IntVar(&o.pid, "pid", 0, "process id of the server, for its CPU time and memory")
	fs.StringVar(&sizes, "sizes", "", "comma-separated organization sizes to seed and measure, e.g. 1000,10000,100000")
	fs.StringVar(&o.vigil, "vigil", "", "vigil binary for --sizes (default: go build . into a temporary directory)")
	fs.IntVar(&o.clients, "clients", 16, "concurrent clients")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "length of each traffic phase")
	fs.IntVar(&o.pending, "pending", 10, "with --sizes: how many seeded activities wait for consensus")
	fs.StringVar(&o.queryKey, "query-key", "operator", "demo member whose key stamps the queries")
	fs.StringVar(&o.submitKey, "submit-key", "operator", "demo member whose key stamps the submits (create_read_only_session)")
	fs.StringVar(&o.phases, "phases", "", "comma-separated phases to run (whoami, get-activity, pending-list, submit); default all")
	fs.IntVar(&o.rounds, "rounds", 1, "run the phases this many times in turn and report the round with the median throughput of each")
	fs.BoolVar(&o.keep, "keep", false, "with --sizes: keep the data directories")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		os.Exit(2)
	}
	for _, s := range strings.Split(sizes, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < o.pending {
			fmt.Fprintf(os.Stderr, "loadgen: --sizes: %q is not a whole number of at least --pending (%d)\n", s, o.pending)
			os.Exit(2)
		}
		o.sizes = append(o.sizes, n)
	}
	if (o.data == "") == (len(o.sizes) == 0) {
		fmt.Fprintln(os.Stderr, "loadgen: give either --data DIR (a running service) or --sizes N,... (loadgen starts the service); see --help")
		os.Exit(2)
	}
	if o.clients < 1 || o.duration <= 0 || o.rounds < 1 {
		fmt.Fprintln(os.Stderr, "loadgen: --clients, --duration and --rounds must be positive")
		os.Exit(2)
	}
	ctx := context.Background()
	var err error
	if o.data != "" {
		_, err = runAgainst(ctx, o, o.data, o.url, o.pid)
	} else {
		err = runSizes(ctx, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// target is the organization traffic goes to.
type target struct {
	url, org            string
	queryKey, submitKey *keys.Key
}

// demoTarget reads DIR/config.toml and DIR/keys/ as `vigil serve --demo` wrote them.
func demoTarget(dir, url string, o options) (target, error) {
	var cfg struct {
		Profiles map[string]struct {
			BaseURL        string `toml:"base_url"`
			OrganizationID string `toml:"organization_id"`
		} `toml:"profiles"`
	}
	path := filepath.Join(dir, "config.toml")
	if _, err := toml.DecodeFile(path, &cfg); err != nil {
		return target{}, fmt.Errorf("read %s (written by vigil serve --demo): %w", path, err)
	}
	p, ok := cfg.Profiles[o.queryKey]
	if !ok {
		return target{}, fmt.Errorf("%s has no profile %q; pick --query-key among the demo members", path, o.queryKey)
	}
	t := target{url: p.BaseURL, org: p.OrganizationID}
	if url != "" {
		t.url = strings.TrimRight(url, "/")
	}
	store := keys.Store{Dir: filepath.Join(dir, "keys")}
	var err error
	if t.queryKey, err = store.Load(o.queryKey); err != nil {
		return target{}, err
	}
	if t.submitKey, err = store.Load(o.submitKey); err != nil {
		return target{}, err
	}
	return t, nil
}

// sizeResult is what one organization size measured.
type sizeResult struct {
	size                          int
	whoami, get, pending, submits phaseResult
	verifyCPU                     time.Duration // one P-256 VerifyASN1 on this machine, now
	peakRSS                       int64
}

func runAgainst(ctx context.Context, o options, dir, url string, pid int) (sizeResult, error) {
	t, err := demoTarget(dir, url, o)
	if err != nil {
		return sizeResult{}, err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.clients * 2}, Timeout: time.Minute}
	r := sizeResult{}
	fmt.Printf("target %s, organization %s, %d clients, %s per phase\n", t.url, t.org, o.clients, o.duration)
	type phase struct {
		name string
		gen  func(n int) ([]stamped, error)
		into *phaseResult
		runs []phaseResult
	}
	phases := []*phase{
		{name: "whoami", gen: func(int) ([]stamped, error) { return whoamiRequests(t, 256) }, into: &r.whoami},
		{name: "get-activity", gen: func(int) ([]stamped, error) { return getActivityRequests(ctx, client, t, 256) }, into: &r.get},
		{name: "pending-list", gen: func(int) ([]stamped, error) { return pendingRequests(t, 256) }, into: &r.pending},
		{name: "submit", gen: func(n int) ([]stamped, error) { return submitRequests(t, n) }, into: &r.submits},
	}
	header := func() { fmt.Printf("%-13s %9s %9s %9s %14s\n", "phase", "req/s", "p50", "p99", "server CPU/req") }
	show := func(name string, res phaseResult) {
		cpu := "-"
		if pid != 0 && res.count > 0 {
			cpu = fmt.Sprintf("%.0f µs", float64(res.serverCPU.Microseconds())/float64(res.count))
		}
		fmt.Printf("%-13s %9.0f %9s %9s %14s\n", name, res.rate(), ms(res.p50), ms(res.p99), cpu)
	}
	var verifies []time.Duration
	for round := 1; round <= o.rounds; round++ {
		if o.rounds > 1 {
			fmt.Printf("round %d of %d\n", round, o.rounds)
		}
		header()
		for _, ph := range phases {
			if o.phases != "" && !strings.Contains(o.phases, ph.name) {
				continue
			}
			// Submits are stamped ahead too (they stay valid for five minutes):
			// enough for this phase at up to 8,000 per second.
			reqs, err := ph.gen(int(o.duration.Seconds()*8000) + 100)
			if err != nil {
				return r, err
			}
			res, err := runPhase(ctx, client, t.url, reqs, o.clients, o.duration, pid, ph.name == "submit")
			if err != nil {
				return r, fmt.Errorf("%s: %w", ph.name, err)
			}
			ph.runs = append(ph.runs, res)
			show(ph.name, res)
		}
		verifies = append(verifies, verifyCost())
	}
	if o.rounds > 1 {
		fmt.Printf("median round of %d, by throughput\n", o.rounds)
		header()
	}
	for _, ph := range phases {
		if len(ph.runs) == 0 {
			continue
		}
		// The round with the median throughput, whole: its latencies and
		// CPU belong to it.
		slices.SortFunc(ph.runs, func(a, b phaseResult) int { return cmp.Compare(a.rate(), b.rate()) })
		*ph.into = ph.runs[len(ph.runs)/2]
		if o.rounds > 1 {
			show(ph.name, *ph.into)
		}
	}
	slices.Sort(verifies)
	r.verifyCPU = verifies[len(verifies)/2]
	if pid != 0 {
		r.peakRSS = peakRSS(pid)
		fmt.Printf("server peak RSS %.0f MB; one P-256 VerifyASN1 here costs %.0f µs of CPU\n", float64(r.peakRSS)/(1<<20), float64(r.verifyCPU.Nanoseconds())/1000)
	}
	return r, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// runSizes seeds, serves and measures each size, then prints the ratios.
func runSizes(ctx context.Context, o options) error {
	bin := o.vigil
	tmp, err := os.MkdirTemp("", "vigil-loadgen-")
	if err != nil {
		return err
	}
	if !o.keep {
		defer os.RemoveAll(tmp)
	}
	if bin == "" {
		bin = filepath.Join(tmp, "vigil")
		fmt.Println("building vigil …")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			return fmt.Errorf("go build (run loadgen from the repository root, or pass --vigil): %v\n%s", err, out)
		}
	}
	var results []sizeResult
	for _, n := range o.sizes {
		dir := filepath.Join(tmp, "org-"+strconv.Itoa(n))
		start := time.Now()
		if err := seed(ctx, dir, n, o.pending); err != nil {
			return err
		}
		fmt.Printf("\n== %d activities (seeded in %s, data in %s)\n", n, time.Since(start).Round(time.Millisecond), dir)
		r, err := serveAndRun(ctx, o, bin, dir)
		if err != nil {
			return err
		}
		r.size = n
		results = append(results, r)
	}
	printGoals(results)
	return nil
}

// seed creates the demo organization in dir, as `vigil serve --demo` does,
// and adds n activities through server.SeedActivities, then writes the
// config.toml that demoTarget reads.
func seed(ctx context.Context, dir string, n, pending int) error {
	srv, err := server.Open(server.Config{DataDir: dir})
	if err != nil {
		return err
	}
	defer srv.Close()
	keysDir := filepath.Join(dir, "keys")
	info, err := server.SeedDemo(ctx, srv, keysDir)
	if err != nil {
		return err
	}
	store := keys.Store{Dir: keysDir}
	member := func(name string) (server.SeedMember, error) {
		for _, m := range info.Members {
			if m.Name == name {
				k, err := store.Load(m.KeyName)
				return server.SeedMember{UserID: m.UserID, Key: k}, err
			}
		}
		return server.SeedMember{}, fmt.Errorf("the demo has no member %s", name)
	}
	alice, err := member("alice")
	if err != nil {
		return err
	}
	bob, err := member("bob")
	if err != nil {
		return err
	}
	// The demo already holds a few activities, some pending; seed the rest.
	if err := srv.SeedActivities(ctx, info.OrganizationID, server.SeedSpec{Activities: n, Pending: pending, Requester: alice, Approver: bob}); err != nil {
		return err
	}
	var cfg strings.Builder
	for _, m := range info.Members {
		fmt.Fprintf(&cfg, "[profiles.%s]\nbase_url = \"\"\norganization_id = %q\nkey = %q\n\n", m.Name, info.OrganizationID, m.KeyName)
	}
	return os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg.String()), 0o600)
}

// serveAndRun starts `vigil serve` on dir, drives it and stops it.
func serveAndRun(ctx context.Context, o options, bin, dir string) (sizeResult, error) {
	addr, err := freeAddr()
	if err != nil {
		return sizeResult{}, err
	}
	proxy, err := freeAddr()
	if err != nil {
		return sizeResult{}, err
	}
	cmd := exec.Command(bin, "serve", "--data", dir, "--addr", addr, "--auth-proxy-addr", proxy)
	logPath := filepath.Join(dir, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return sizeResult{}, err
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return sizeResult{}, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	url := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(url + api.JWKSPath)
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			return sizeResult{}, fmt.Errorf("vigil serve did not start; see %s", logPath)
		}
	}
	return runAgainst(ctx, o, dir, url, cmd.Process.Pid)
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// printGoals prints each goal of issue 15 as measured in this run.
func printGoals(rs []sizeResult) {
	if len(rs) == 0 {
		return
	}
	small, large := rs[0], rs[len(rs)-1]
	fmt.Printf("\n== goals (ratios within this run; %d vs %d activities)\n", large.size, small.size)
	line := func(goal string, v float64, ok bool, detail string) {
		met := "NOT MET"
		if ok {
			met = "met"
		}
		fmt.Printf("%-52s %7.2f  %-7s %s\n", goal, v, met, detail)
	}
	r := float64(large.pending.p50) / float64(small.pending.p50)
	line(fmt.Sprintf("pending list p50 at %d / at %d (≤ 2)", large.size, small.size), r, r <= 2,
		fmt.Sprintf("%s vs %s", ms(large.pending.p50), ms(small.pending.p50)))
	r = float64(large.pending.p50) / float64(large.whoami.p50)
	line(fmt.Sprintf("pending list p50 / whoami p50 at %d (≤ 3)", large.size), r, r <= 3,
		fmt.Sprintf("%s vs %s", ms(large.pending.p50), ms(large.whoami.p50)))
	for _, x := range rs {
		// The "stamped queries" (~4,300/s when it was filed) were
		// get_activity requests; whoami, the cheapest query, is the harder bar.
		queries := []struct {
			name string
			res  phaseResult
		}{{"whoami", x.whoami}, {"get_activity", x.get}}
		for _, q := range queries {
			if q.res.count > 0 && q.res.serverCPU > 0 {
				per := float64(q.res.serverCPU) / float64(q.res.count)
				r = per / float64(x.verifyCPU)
				line(fmt.Sprintf("server CPU per %s / one VerifyASN1, %d (≤ 1.6)", q.name, x.size), r, r <= 1.6,
					fmt.Sprintf("%.0f µs vs %.0f µs", per/1000, float64(x.verifyCPU.Nanoseconds())/1000))
			}
		}
		for _, q := range queries {
			if q.res.count == 0 || x.submits.count == 0 {
				continue
			}
			r = x.submits.rate() / q.res.rate()
			line(fmt.Sprintf("durable submits/s / %s/s at %d (≥ 0.5)", q.name, x.size), r, r >= 0.5,
				fmt.Sprintf("%.0f vs %.0f per second", x.submits.rate(), q.res.rate()))
		}
		mb := float64(x.peakRSS) / (1 << 20)
		line(fmt.Sprintf("server peak RSS MB at %d (< 150)", x.size), mb, mb < 150, "")
	}
}

// verifyCost measures one P-256 VerifyASN1 in this process's CPU time.
func verifyCost() time.Duration {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	d := sha256.Sum256([]byte("loadgen"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, d[:])
	const n = 2000
	c0 := selfCPU()
	for range n {
		ecdsa.VerifyASN1(&k.PublicKey, d[:], sig)
	}
	return (selfCPU() - c0) / n
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
