package screens

import "strings"

// predictedOutcome is the kind of thing a vote's prediction (voteConsequenceAt)
// says happens, without its explanation: two predictions that name
// different approvers may still say the same thing happens.
type predictedOutcome int

const (
	predictsUnknown  predictedOutcome = iota // no prediction, or one the console cannot class
	predictsRuns                             // allowed, and runs now
	predictsFails                            // a policy denies it
	predictsWaits                            // still waits for consensus
	predictsRejected                         // the rejection settles it
	predictsPending                          // the rejection leaves it pending
)

// predictionPrefixes are the words voteConsequenceAt opens each kind of
// prediction with.
var predictionPrefixes = []struct {
	prefix  string
	outcome predictedOutcome
}{
	{"it is allowed and runs now", predictsRuns},
	{"it FAILS", predictsFails},
	{"it still waits", predictsWaits},
	{"it is REJECTED", predictsRejected},
	{"it stays pending", predictsPending},
}

// predictedOutcomeOf is the kind of outcome prediction, a voteConsequenceAt text, says.
func predictedOutcomeOf(prediction string) predictedOutcome {
	for _, p := range predictionPrefixes {
		if strings.HasPrefix(prediction, p.prefix) {
			return p.outcome
		}
	}
	return predictsUnknown
}

// samePrediction reports whether two predictions say the same thing happens:
// the same kind of outcome, or, for predictions the console cannot class,
// the same words.
func samePrediction(a, b string) bool {
	oa, ob := predictedOutcomeOf(a), predictedOutcomeOf(b)
	if oa == predictsUnknown || ob == predictsUnknown {
		return a == b
	}
	return oa == ob
}
