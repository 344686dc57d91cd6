package api

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// FreeTextShown is how many characters of a free-text field (a name, notes,
// an interface's ABI) IntentLines shows; the rest is noted, not shown.
const FreeTextShown = 120

// IntentLines are the fields of an intent, one a line ("effect: EFFECT_DENY"),
// for a person deciding whether to approve it; the fields of a nested record
// or list follow it, indented two spaces. The person decides on what they
// read, so every field that decides what the activity does (an effect, a
// condition, consensus, ids, addresses, amounts, types) is shown whole,
// however long: a caller may wrap a line, never cut it. Only free text longer
// than FreeTextShown characters is shortened, and says so ("… (256
// characters, 120 shown)"); a secret (an OIDC token, an encrypted client
// secret) is named, not shown. Under an OIDC token come the issuer, subject
// and email its payload claims, marked unverified (OIDCTokenLines): they say
// whose account an oauth activity touches. The fields come in their wire order, under
// their wire names; an empty or absent field shows as "(none)", or, where
// the service reads it as a default or as false, "(none: …)" saying what it
// does then (absentFieldText); a policy expression of only white space, which
// the engine reads as none, says so too (ExprAbsentText).
//
// in must hold exact strings (as the service sent them): they are escaped
// here, once. Text is quoted as Quote quotes names (so a value cannot end its
// own quotes, and a real newline reads \n where one typed as text reads \\n);
// ids as SanitizeID shows them; a value of a fixed list (EFFECT_DENY) as it
// is when it is in the field's list, else quoted and marked unknown, as
// EffectText shows one (intentFixedLists); numbers and booleans as they
// are. A policy expression holding line breaks shows each
// of its lines quoted on a line of its own, under the first (addText), so
// that a `// comment` cannot seem to hide the code after it. Every line is
// safe to print on a terminal.
func IntentLines(in Intent) []string { return IntentLinesWithUsers(in, nil) }

// An intent holding several operations shows each under its own key, after
// a warning; one too deep, too long or with too long a key is cut, visibly
// (ShowIntent says why the lines are then not the whole intent).
//
// IntentLinesWithUsers are IntentLines that also name, under an OIDC token,
// the user of users linked to its subject (or say none is): users are the
// organization's, as list_users gives them; nil leaves the line out.
//
// An intent of a type this client does not know (Intent.Other) is shown too,
// generically: its key, then its JSON field by field, under the same
// conventions. Nil means the intent holds nothing at all.
func IntentLinesWithUsers(in Intent, users []User) []string {
	return ShowIntent(in, users).Lines
}

// intentLister gathers IntentLines, within bounds (intentshown.go).
type intentLister struct {
	lines  []string
	users  []User // to name the user an OIDC token signs in; nil: not named
	bytes  int    // of lines
	full   bool   // the bounds are reached: nothing more is added
	doubts []string
}

// appendFields appends a line for each field of the struct v, the labels
// aligned, and under a record or list field the lines of what it holds.
func (l *intentLister) appendFields(v reflect.Value, depth int) {
	t := v.Type()
	type shown struct {
		label string
		value reflect.Value
	}
	var fields []shown
	width := 0
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || !t.Field(i).IsExported() {
			continue
		}
		fields = append(fields, shown{name, v.Field(i)})
		width = max(width, len(name))
	}
	indent := indentOf(depth)
	for _, f := range fields {
		head := indent + f.label + ":"
		if text, ok := absentFieldText(t, f.label, f.value); ok {
			l.add(head + padTo(width, len(f.label)) + " " + text)
			continue
		}
		l.appendValue(head, padTo(width, len(f.label)), f.label, fixedListOf(t, f.label), f.value, depth)
	}
}

// appendValue appends the line(s) of one field: head is its label (with its
// indent and colon), pad aligns its value with its siblings', name is its wire
// name, which says what kind of text it holds; list is its fixed list of
// values, if it has one.
func (l *intentLister) appendValue(head, pad, name string, list *fixedList, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			l.add(head + pad + " (none)")
			return
		}
		l.appendValue(head, pad, name, list, v.Elem(), depth)
	case reflect.Struct:
		l.add(head)
		l.appendFields(v, depth+1)
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			l.add(head + pad + " (none)")
			return
		}
		l.add(head + pad + fmt.Sprintf(" (%d)", v.Len()))
		indent := indentOf(depth + 1)
		for i := range v.Len() {
			if l.full {
				return
			}
			item := v.Index(i)
			if item.Kind() == reflect.Pointer && !item.IsNil() {
				item = item.Elem()
			}
			label := fmt.Sprintf("%s[%d]", indent, i+1)
			if item.Kind() == reflect.Struct {
				l.add(label)
				l.appendFields(item, depth+2)
				continue
			}
			l.appendValue(label, "", name, list, item, depth+1)
		}
	case reflect.String:
		if list != nil {
			l.add(head + pad + " " + list.text(v.String()))
			return
		}
		l.addText(head+pad+" ", name, v.String(), fieldText)
		if name == "oidcToken" && v.String() != "" {
			indent := indentOf(depth + 1)
			for _, t := range OIDCTokenLines(v.String(), l.users) {
				l.add(indent + t)
			}
		}
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		l.add(head + pad + " " + fmt.Sprint(v.Interface()))
	default:
		// No params type holds anything else; were one to, say so rather
		// than leave the field out.
		l.add(head + pad + " (a " + v.Kind().String() + "; see the activity's JSON)")
	}
}

// freeTextFields are the wire names of the fields that only name or describe
// (what the activity does does not depend on them), so that a long one may be
// shortened; any other field decides, and is shown whole.
var freeTextFields = map[string]bool{
	"policyName": true, "mfaPolicyName": true, "userTagName": true, "apiKeyName": true,
	"receiverUserName": true, "label": true, "notes": true,
	"smartContractInterface": true, // an ABI of up to 400 kB is not read in a terminal
}

// enumFields are the wire names that, in an intent of a type vigil does not
// know (rawFieldText), may hold a value of a fixed list: a value that reads
// like one is shown bare there. In a known intent only a value in the
// field's own list is (intentFixedLists); any other text is quoted, even
// when it reads like one ("EFFECT_DENY" as a label), so that free text
// cannot pass for a decision.
var enumFields = map[string]bool{"type": true, "name": true, "provider": true, "effect": true, "accessType": true}

// secretFields are the wire names of the fields whose value is a secret: it
// is named, with its length, never shown.
var secretFields = map[string]bool{"oidcToken": true, "encryptedClientSecret": true}

// WithSecretsHidden returns a copy of params (a pointer to an operation's
// parameters, as Intent.Params gives them) whose secret fields (an OIDC
// token, an encrypted client secret) read "(a secret of N characters; not
// shown)", for a summary printed on a terminal; params is not changed.
// Anything else is returned as it is.
func WithSecretsHidden(params any) any {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return params
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	st := cp.Elem()
	for i := range st.NumField() {
		f := st.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if secretFields[name] && f.Type.Kind() == reflect.String && st.Field(i).String() != "" {
			st.Field(i).SetString(fieldText(name, st.Field(i).String()))
		}
	}
	return cp.Interface()
}

// fieldText is a string field's value as IntentLines shows it (see there).
func fieldText(name, s string) string {
	switch {
	case s == "":
		return "(none)" // a text shown is quoted: this cannot be one
	case secretFields[name]:
		return fmt.Sprintf("(a secret of %d characters; not shown)", utf8.RuneCountInString(s))
	case idField(strings.ToUpper(name[:1]) + name[1:]):
		return SanitizeID(s)
	case freeTextFields[name]:
		if n := utf8.RuneCountInString(s); n > FreeTextShown {
			return Quote(string([]rune(s)[:FreeTextShown])) + fmt.Sprintf("… (%d characters%s", n, shortenedMark)
		}
	}
	return Quote(s)
}

// shortenedMark ends a line of IntentLines whose free text is shortened.
var shortenedMark = fmt.Sprintf(", %d shown)", FreeTextShown)

// IsShortened reports whether a line of IntentLines holds free text that is
// shortened (not the whole of it): it ends "… (N characters, 120 shown)". A
// secret's "(… not shown)" is not shortened text. A quoted text cannot end
// with the mark, as it ends in its quote.
func IsShortened(line string) bool {
	rest, ok := strings.CutSuffix(line, shortenedMark)
	if !ok {
		return false
	}
	i := strings.LastIndex(rest, "… (")
	if i < 0 {
		return false
	}
	n, ok := strings.CutSuffix(rest[i+len("… ("):], " characters")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// isEnumValue reports a value such as EFFECT_DENY: upper-case ASCII letters,
// digits and underscores, which read only as themselves.
func isEnumValue(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
