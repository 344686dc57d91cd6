package policy

import (
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// CompileMfaCondition compiles a stored MFA policy's condition as the
// service judges it (CompileStored): a client that used the checks for new
// submissions (Compile) would make a condition an earlier vigil or another
// service stored apply to everything (fail closed) where the service says
// it applies to nothing. Every client reading stored MFA policies uses it.
func CompileMfaCondition(cond string) (*Compiled, error) {
	return CompileStored(Source{Condition: cond})
}

// ApplicableMfaPolicy is the first of ps, in order, whose condition holds for
// in: the MFA policy a vote on the activity must satisfy, nil when none does.
// A condition that does not compile or fails to evaluate applies (fail
// closed: the MFA it asks for is required rather than silently skipped), and
// why is returned beside it, for a log. compile is CompileMfaCondition or a cache of it.
func ApplicableMfaPolicy(ps []api.MfaPolicy, in Input, compile func(condition string) (*Compiled, error)) (*api.MfaPolicy, error) {
	for i, p := range ps {
		c, err := compile(p.Condition)
		if err != nil {
			return &ps[i], fmt.Errorf("the condition does not compile: %w", err)
		}
		holds, _, err := c.Evaluate(in)
		if err != nil {
			return &ps[i], fmt.Errorf("the condition failed: %w", err)
		}
		if holds {
			return &ps[i], nil
		}
	}
	return nil, nil
}
