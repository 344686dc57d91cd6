package policy

import (
	"reflect"
	"testing"
)

func TestReferencedIDsNamesTagsAndUsersAndFlagsUnknownIDs(t *testing.T) {
	const (
		tag     = "01a22133-8b86-76f3-83c1-234ad42ced22"
		user    = "01a22133-8b86-76f3-83c1-234ad42ced23"
		unknown = "01a22133-8b86-76f3-83c1-234ad42ced24"
	)
	tags := map[string]string{tag: "operator"}
	users := map[string]string{user: "carol"}
	src := "approvers.any(u, u.tags.contains('" + tag + "')) && approvers.any(u, u.id == \"" + user + "\")" +
		" && approvers.any(u, u.tags.contains('" + unknown + "')) && activity.type == 'ACTIVITY_TYPE_X'" +
		" && approvers.any(u, u.tags.contains('" + tag + "'))"
	got := ReferencedIDs(src, tags, users)
	want := []IDRef{{ID: tag, Kind: IDTag, Name: "operator"}, {ID: user, Kind: IDUser, Name: "carol"}, {ID: unknown, Kind: IDUnknown}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReferencedIDs:\n got %+v\nwant %+v", got, want)
	}
	if got := ReferencedIDs("activity.type == '"+tag, tags, users); len(got) != 0 {
		t.Errorf("an unterminated literal resolved to %+v", got)
	}
}
