package cli

import (
	"errors"
	"fmt"
)

// inviteeFlags collects invitation create's --name and --email in the order
// given: each invitee is a --name and an --email next to each other, in
// either order, so that several invitees go in one create_invitations.
type inviteeFlags struct {
	given []inviteeValue
}

type inviteeValue struct{ flag, value string }

type invitee struct{ name, email string }

// field is the flag.Value of one of the two flags ("--name" or "--email").
func (f *inviteeFlags) field(flagName string) *inviteeField {
	return &inviteeField{flags: f, flag: flagName}
}

type inviteeField struct {
	flags *inviteeFlags
	flag  string
}

func (v *inviteeField) repeatable() {}

func (v *inviteeField) String() string { return "" }

func (v *inviteeField) Set(s string) error {
	if s == "" {
		// As for every string flag (refuseEmptyValues).
		return errors.New("empty (an unset shell variable?); give a value, or leave the flag out")
	}
	v.flags.given = append(v.flags.given, inviteeValue{v.flag, s})
	return nil
}

// pairs returns the invitees. A single invitee may lack a field: the
// invitation's own check then says which is missing. Among several, a
// --name must sit next to its --email, or which e-mail is whose would be a
// guess.
func (f *inviteeFlags) pairs() ([]invitee, error) {
	var out []invitee
	var pending *inviteeValue
	for i := range f.given {
		v := f.given[i]
		if pending == nil {
			pending = &v
			continue
		}
		if pending.flag == v.flag {
			return nil, fmt.Errorf("%s %q has no %s before the next %s %q; give each invitee as --name NAME --email ADDRESS, one pair after another",
				pending.flag, pending.value, other(pending.flag), v.flag, v.value)
		}
		out = append(out, newInvitee(*pending, v))
		pending = nil
	}
	if pending != nil {
		if len(out) > 0 {
			return nil, fmt.Errorf("%s %q has no %s; give each invitee as --name NAME --email ADDRESS, one pair after another",
				pending.flag, pending.value, other(pending.flag))
		}
		out = append(out, newInvitee(*pending, inviteeValue{}))
	}
	if len(out) == 0 {
		out = append(out, invitee{})
	}
	return out, nil
}

func other(flag string) string {
	if flag == "--name" {
		return "--email"
	}
	return "--name"
}

func newInvitee(a, b inviteeValue) invitee {
	var inv invitee
	for _, v := range []inviteeValue{a, b} {
		switch v.flag {
		case "--name":
			inv.name = v.value
		case "--email":
			inv.email = v.value
		}
	}
	return inv
}
