package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// invitation create --tag NAME compares NAME with the tags' names as the
// service holds them, not as the client escapes them for display: a tag whose
// name holds a real U+202E is given by that name, its escaped spelling typed
// as six plain characters is another name, and the known names are escaped
// once.
func TestInvitationTagResolvedByExactName(t *testing.T) {
	e := newVerbEnv(t)
	real := "ops\u202eadmin" // a real RIGHT-TO-LEFT OVERRIDE
	a := e.submitAndApprove("", "tag", "create", "--name", real)
	if a.Status != api.StatusCompleted {
		t.Fatalf("tag create: %s", a.Status)
	}
	id := a.Result.CreateUserTagResult.UserTagID
	invite := []string{"invitation", "create", "--name", "eve", "--email", "eve@example.com", "--access", "web"}

	// 1. The exact name of the tag should resolve to it.
	code, out, errOut := e.run("", append(invite[:len(invite):len(invite)], "--tag", real)...)
	if code != 0 || !strings.Contains(out, id) {
		t.Errorf("--tag <exact name with U+202E>: exit %d, want 0 and the tag's id %s\nstderr: %s", code, id, errOut)
	}
	// 2. The six typed characters `\u202e` are another name: no tag has it.
	typed := `ops\u202eadmin`
	code, out, errOut = e.run("", append(invite[:len(invite):len(invite)], "--tag", typed)...)
	if code == 0 && strings.Contains(out, id) {
		t.Errorf("--tag %q (typed backslash-u) was resolved to the tag named %q (id %s)", typed, real, id)
	}
	// 3. Listed known names are escaped once: a real U+202E reads \u202e, not \\u202e.
	// (What the user typed, a real backslash, is quoted as \\u202e before it.)
	if _, known, _ := strings.Cut(errOut, "known:"); !strings.Contains(known, `"ops\u202eadmin"`) || strings.Contains(known, `ops\\u202eadmin`) {
		t.Errorf("the known tags list does not escape the name exactly once: %s", errOut)
	}
}
