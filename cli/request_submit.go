package cli

import "github.com/vigil-console/vigil/api"

// submitRanFailed is the end of a raw submit (not a vote) whose 2xx reply
// was taken for its outcome, as the typed submit verbs end one
// (printSubmitted, failedRun): exit 1 when the reply's activity ran and
// FAILED, so that a script gets the same answer from 'vigil request' as
// from the verb. A reply that names the activity but does not decode as
// one (cmdRequest checked it names it) is judged by the status it names.
func submitRanFailed(op string, reply []byte) error {
	a, err := decodeShownActivity("submit/"+op, reply)
	if err != nil {
		id, status, ok := replyActivity(reply)
		if !ok {
			return nil
		}
		return failedRun(&api.Activity{ID: id, Status: status})
	}
	return failedRun(a.Activity)
}
