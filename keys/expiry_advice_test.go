package keys

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// The new name an expired key's refusal advises is one a login takes, also
// for a key whose name is already as long as a name may be.
func TestExpiredKeyAdvisesANameWithinTheLimit(t *testing.T) {
	advised := regexp.MustCompile(`--name (\S+) …`)
	for _, name := range []string{"ops", strings.Repeat("n", MaxNameLen-1), strings.Repeat("n", MaxNameLen), strings.Repeat("n", MaxNameLen-2) + "-2"} {
		err := expiredAt(name, time.Unix(1, 0), time.Unix(2, 0), "")
		if err == nil {
			t.Fatalf("%d-character name: an expired key is not refused", len(name))
		}
		m := advised.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("%d-character name: no new name advised: %v", len(name), err)
		}
		if m[1] == name {
			t.Errorf("%d-character name: the advised name is the expired key's own", len(name))
		}
		if verr := ValidateName(m[1]); verr != nil {
			t.Errorf("%d-character name: the advised name %q is refused: %v", len(name), m[1], verr)
		}
	}
}
