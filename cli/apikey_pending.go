package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// refusePendingDeletion refuses to propose the deletion of a key that a
// delete_api_keys waiting for votes already names, as the console's d does:
// once both complete, the second FAILS (the key is gone) after the quorum
// voted on it, and meanwhile the two split the votes.
func refusePendingDeletion(ctx context.Context, client *api.Client, users []api.User, owner string, ids []string) error {
	pending, err := api.PendingKeyDeletions(ctx, client, owner)
	if err != nil {
		return fmt.Errorf("check no deletion of these keys already waits for votes: %w", err)
	}
	keys := map[string]bool{}
	for _, u := range users {
		if u.UserID == owner {
			for _, k := range u.APIKeys {
				keys[k.APIKeyID] = true
			}
		}
	}
	willDelete, _ := api.SortKeyDeletions(pending, keys)
	var named []string
	var first string
	for _, id := range ids {
		if a, ok := willDelete[id]; ok {
			named = append(named, fmt.Sprintf("%s by activity %s", api.SanitizeID(id), api.SanitizeID(a.ID)))
			if first == "" {
				first = a.ID
			}
		}
	}
	if len(named) == 0 {
		return nil
	}
	return fmt.Errorf("the deletion of API key %s already waits for votes; nothing was submitted: approve it instead with 'vigil activity approve %s'",
		strings.Join(named, ", API key "), api.SanitizeID(first))
}
