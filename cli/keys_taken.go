package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// keyNameTaken explains a key name a keys verb found taken (err an
// *keys.ExistsError) when 'vigil login oauth' is involved: the name is one a
// login keeps its target key under (NAME-target), or NAME-target lies beside
// it. That target key may be the only key that opens an API key the service
// made, so the message says how to finish the login before anything is
// removed. Any other error is returned as it is.
func keyNameTaken(verb string, store keys.Store, name, profileName string, err error) error {
	var taken *keys.ExistsError
	if !errors.As(err, &taken) {
		return err
	}
	profileFlag := ""
	if profileName != "" {
		profileFlag = " --profile " + profileName
	}
	find := fmt.Sprintf("find its activity with 'vigil activity list%s --type oauth --limit 5'", profileFlag)
	finish := func(login, target string) string {
		return fmt.Sprintf("'vigil login oauth%s --recover ACTIVITY_ID --target-key %s --name %s'", profileFlag, target, login)
	}

	if login, ok := strings.CutSuffix(name, targetSuffix); ok && login != "" && !taken.Placeholder {
		return fmt.Errorf("%s: key %q already exists (%s): it is where 'vigil login oauth --name %s' keeps the target key of a login that did not finish, which may be the only key that opens an API key the service made; %s and, if it COMPLETED, finish that login with %s; choose another name, or, once no login needs it, remove its files: %s",
			verb, name, taken.Path, login, find, finish(login, name), store.RemoveCommand(name))
	}

	kept := targetName(name)
	if keys.CheckName(kept) != nil {
		return err
	}
	if keptPriv, _, _ := store.Paths(kept); !exists(keptPriv) {
		return err
	}
	if taken.Placeholder {
		return fmt.Errorf("%s: key %q is reserved: %s holds no key, only the placeholder of a 'vigil login oauth --name %s' that is running now or did not finish, and that login kept its target key as %s, so it may have sent; %s and, if it COMPLETED, finish that login with %s (that saves the API key as %s and removes the placeholder); else choose another name",
			verb, name, taken.Path, name, kept, find, finish(name, kept), name)
	}
	return fmt.Errorf("%s: %w; beside it is %s, the target key a 'vigil login oauth --name %s' kept: it opens nothing once that login is finished, so then remove its files: %s",
		verb, taken, kept, name, store.RemoveCommand(kept))
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
