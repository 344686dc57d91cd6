// Command faultproxy runs faultproxy in front of a service; the mode is read
// from a control file on every request: "off", "hang", "fuzz", or a fault name.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/vigil-console/vigil/internal/faultproxy"
)

func main() {
	target := flag.String("target", "", "service base URL")
	seed := flag.Uint64("seed", 1, "seed")
	rate := flag.Int("rate", 50, "percent")
	ctl := flag.String("ctl", "/tmp/faultproxy.mode", "control file")
	flag.Parse()
	p, err := faultproxy.New(*target, *seed, *rate)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faultproxy:", err)
		os.Exit(1)
	}
	fmt.Println(p.URL)
	mode := ""
	for {
		b, _ := os.ReadFile(*ctl)
		m := strings.TrimSpace(string(b))
		if m != mode {
			mode = m
			switch {
			case m == "off" || m == "":
				p.Off(true)
				p.Rules = nil
			case m == "fuzz":
				p.Off(false)
				p.Only = ""
				p.Faults = faultproxy.All
				p.Hang = false
			case strings.Contains(m, ","):
				p.Off(false)
				rules := map[string]string{}
				for _, r := range strings.Split(m, ",") {
					f, only, _ := strings.Cut(r, "@")
					rules[only] = f
				}
				p.Rules = rules
				p.Only = "\x00never"
			default:
				p.Off(false)
				p.Rules = nil
				f, only, _ := strings.Cut(m, "@")
				p.Faults = []string{f}
				p.Only = only
				p.Hang = false
			}
			fmt.Fprintln(os.Stderr, "mode", m)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
