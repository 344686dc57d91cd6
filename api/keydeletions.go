package api

import (
	"context"
	"fmt"
)

// MaxPendingDeletionPages bounds the pages of pending delete_api_keys read
// to tell which keys they name.
const MaxPendingDeletionPages = 10

// PendingKeyDeletions lists the delete_api_keys activities waiting for votes
// that name userID, newest first. The console's Users screen and
// `vigil apikey delete` both read them, so that neither proposes a deletion
// that is already waiting for votes.
func PendingKeyDeletions(ctx context.Context, l ActivityLister, userID string) ([]Activity, error) {
	out := []Activity{}
	opts := ListActivitiesOptions{Types: []string{TypeDeleteAPIKeys}, Statuses: []string{StatusConsensusNeeded}}
	err := WalkActivities(ctx, l, opts, MaxPendingDeletionPages, func(a Activity) {
		in := a.Intent.DeleteAPIKeysIntent
		if in != nil && a.Status == StatusConsensusNeeded && in.UserID == userID {
			out = append(out, a)
		}
	})
	if err != nil {
		return out, fmt.Errorf("list pending delete_api_keys activities: %w", err)
	}
	return out, nil
}

// DoomedKeyDeletion is a pending delete_api_keys that cannot succeed: the
// service deletes its keys one by one in one transaction and fails the whole
// activity on an id that is not a key of the user (or is named twice), so
// none of its keys is deleted. Anyone can file one to make a key look as good
// as deleted.
type DoomedKeyDeletion struct {
	Activity  Activity
	Strangers []string // ids it names that are not keys of the user
	Twice     []string // ids it names more than once
}

// SortKeyDeletions splits pending (newest first, as PendingKeyDeletions
// lists them) by what each would do to the user's keys: willDelete maps a
// key to the newest activity that would delete it, doomed to those that name
// it but would fail.
func SortKeyDeletions(pending []Activity, keys map[string]bool) (willDelete map[string]Activity, doomed map[string][]DoomedKeyDeletion) {
	willDelete, doomed = map[string]Activity{}, map[string][]DoomedKeyDeletion{}
	for _, a := range pending {
		ids := a.Intent.DeleteAPIKeysIntent.APIKeyIDs
		strangers, twice := deletionMisfits(ids, keys)
		for _, id := range ids {
			switch _, seen := willDelete[id]; {
			case !keys[id]:
			case len(strangers) > 0 || len(twice) > 0:
				doomed[id] = append(doomed[id], DoomedKeyDeletion{Activity: a, Strangers: strangers, Twice: twice})
			case !seen:
				willDelete[id] = a
			}
		}
	}
	return willDelete, doomed
}

// deletionMisfits are the ids of a delete_api_keys that make it fail
// against the user's keys.
func deletionMisfits(ids []string, keys map[string]bool) (strangers, twice []string) {
	named := map[string]bool{}
	for _, id := range ids {
		switch {
		case named[id]:
			twice = append(twice, id)
		case !keys[id]:
			strangers = append(strangers, id)
		}
		named[id] = true
	}
	return strangers, twice
}
