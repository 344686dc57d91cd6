package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SignedTimeTolerance is how far a vote's createdAt may be from the
// timestampMs its message signed (and an activity's createdAt from its
// submission's): the service refuses a body more than 5 minutes off its
// clock (docs/local-service.md), so a genuine vote is recorded within 5
// minutes of its signed time; the rest is a margin for a service's clock
// steps. A vote further off was signed at another time than it is shown
// cast: an earlier round's approval re-dated into this one.
const SignedTimeTolerance = 10 * time.Minute

// signedTimeDiff is "" when the signed timestampMs ts is within
// SignedTimeTolerance of shown, else why not ("signed at T, shown as
// cast at T2"); what names the shown time ("cast", "submitted").
func signedTimeDiff(ts string, shown Time, what string) string {
	ms, err := ParseDecimal(ts)
	if err != nil {
		return "the message's timestampMs is not a number of epoch milliseconds"
	}
	if shown.IsZero() {
		return "the message is signed at " + fmtSigned(ms) + " but shown with no time " + what + ", so its round cannot be told"
	}
	signed := time.UnixMilli(ms)
	if d := shown.Time().Sub(signed); d > SignedTimeTolerance || d < -SignedTimeTolerance {
		return "signed at " + fmtSigned(ms) + ", shown as " + what + " at " + shown.Time().UTC().Format(time.RFC3339) +
			" (more than " + SignedTimeTolerance.String() + " apart: an older signed request re-dated)"
	}
	return ""
}

func fmtSigned(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

// intentDiff compares the intent a shows with the one its submission's
// parameters (params, of type typ) make, as the service makes it
// (IntentFor). It returns the first parameter that differs ("" when none),
// or, when the two cannot be compared, why not (notCompared): an operation
// vigil does not know; an intent of this operation holding fields vigil
// does not know (a newer service's: an honest vote must not read as
// forged, so it is said to be not compared, never verified as compared);
// or an intent escaped for the terminal as it was decoded (a client
// without WithExactStrings), which differs from the signed parameters only
// as they would be escaped. The service may fill its documented defaults
// (intentdefaults.go) into a field the submission left out; only those are
// tolerated.
func intentDiff(a Activity, typ string, params json.RawMessage) (field, notCompared string) {
	const unknownOperation = "its parameters, of an operation vigil cannot read, are not compared with the intent shown"
	p, ok := NewParams(typ)
	if !ok || json.Unmarshal(params, p) != nil {
		return "", unknownOperation
	}
	if _, err := IntentFor(typ, p); err != nil {
		return "", unknownOperation
	}
	shownTyp, shown := a.Intent.Params()
	if shown == nil {
		op, _ := OperationByType(typ)
		if keys := a.Intent.Keys(); len(keys) == 1 && keys[0] == op.IntentKey {
			return knownFieldsDiff(p, typ, a.Intent.Other[op.IntentKey])
		}
	}
	if shown == nil || shownTyp != typ {
		return "the operation it holds", ""
	}
	withDefaults(p, shown)
	// Compared exactly: a shows the intent as sent (decoded without
	// sanitising), as a signed line break and the text \n differ.
	if field = firstFieldDiff(p, shown); field == "" || !a.escaped {
		return field, ""
	}
	SanitizeValue(p)
	if firstFieldDiff(p, shown) == "" {
		return "", "the intent shown was escaped for the terminal as it was decoded, so it was compared only as escaped; read the activity with exact strings to compare it exactly"
	}
	return field, ""
}

// knownFieldsDiff compares signed params (of type typ) with an intent of
// that operation that also holds fields vigil does not know (raw, as sent:
// a newer service's). The fields vigil knows are compared exactly, so
// adding an unknown field cannot hide a changed known one; the unknown ones
// are said to be not compared. An intent that two JSON readers could read
// differently (a key twice, or in another case than a field's) differs.
func knownFieldsDiff(p any, typ string, raw json.RawMessage) (field, notCompared string) {
	shown, _ := NewParams(typ)
	if CheckReplyJSON(raw, shown) != nil {
		return "its fields, which can be read two ways", ""
	}
	if json.Unmarshal(raw, shown) != nil {
		return "its fields, which vigil cannot read", ""
	}
	withDefaults(p, shown)
	if field = firstFieldDiff(p, shown); field != "" {
		return field, ""
	}
	return "", "the intent shown also holds fields vigil does not know, which are not compared with the signed parameters"
}

// withDefaults fills into signed params the service's documented defaults
// (intentdefaults.go) where signed leaves the field out and shown holds
// exactly that default.
func withDefaults(signed, shown any) {
	switch s := signed.(type) {
	case *OauthParams:
		w := shown.(*OauthParams)
		if s.APIKeyName == "" && strings.HasPrefix(w.APIKeyName, DefaultOauthKeyName) {
			s.APIKeyName = w.APIKeyName
		}
		if s.ExpirationSeconds == "" && w.ExpirationSeconds == strconv.Itoa(DefaultOauthKeySeconds) {
			s.ExpirationSeconds = w.ExpirationSeconds
		}
		if s.InvalidateExisting == nil && w.InvalidateExisting != nil && !*w.InvalidateExisting {
			s.InvalidateExisting = w.InvalidateExisting
		}
	case *DeleteWalletAccountsParams:
		w := shown.(*DeleteWalletAccountsParams)
		if s.DeleteWithoutExport == nil && w.DeleteWithoutExport != nil && !*w.DeleteWithoutExport {
			s.DeleteWithoutExport = w.DeleteWithoutExport
		}
	}
}

// firstFieldDiff is the JSON name of the first field (in name order) whose
// encoding differs between two params of one type, "" when none does. A
// field encoded null and one encoded [] or {} are the same: none.
func firstFieldDiff(x, y any) string {
	fields := func(v any) map[string]json.RawMessage {
		b, _ := json.Marshal(v)
		m := map[string]json.RawMessage{}
		_ = json.Unmarshal(b, &m)
		return m
	}
	fx, fy := fields(x), fields(y)
	var names []string
	for k := range fx {
		names = append(names, k)
	}
	for k := range fy {
		if _, ok := fx[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	none := func(r json.RawMessage) bool {
		s := string(r)
		return s == "" || s == "null" || s == "[]" || s == "{}"
	}
	for _, k := range names {
		if !bytes.Equal(fx[k], fy[k]) && !(none(fx[k]) && none(fy[k])) {
			return k
		}
	}
	if reflect.TypeOf(x) != reflect.TypeOf(y) {
		return "the operation it holds"
	}
	return ""
}

// copiedReason is the FAILED reason of a vote copied under another user.
const copiedReason = "the same signed vote is also shown as another member's vote: one signature is one vote, and neither copy can be told to be this member's (both copies fail)"

// CheckVotes is CheckVote of each of a's votes, in their order, each
// signature verified once: CheckActivityVotes with no user list. A caller
// that shows the checks shows CheckActivityVotes' IntentCheck too.
func CheckVotes(a Activity) []VoteCheck {
	checks, _ := CheckActivityVotes(a, nil)
	return checks
}
