package servertest

import (
	"context"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// LargeInterface is a smart contract interface of 400,000 bytes, the most
// SPEC.md allows, made of escaped quotes, so that every reply repeating it
// (each listed activity repeats its intent) carries twice that.
func LargeInterface() string {
	return `["` + strings.Repeat(`\"`, (400_000-4)/2) + `"]`
}

// SubmitLargeInterfaces has the members, in turn, submit n
// create_smart_contract_interface activities of LargeInterface, labelled
// "large", and returns them as the service answered.
func (d *Demo) SubmitLargeInterfaces(n int, members ...string) []*api.Activity {
	d.t.Helper()
	big := LargeInterface()
	out := make([]*api.Activity, 0, n)
	for i := range n {
		act, err := d.Client(members[i%len(members)]).CreateSmartContractInterface(context.Background(), api.CreateSmartContractInterfaceParams{
			SmartContractAddress: "0xabc", SmartContractInterface: big, Type: api.SmartContractInterfaceEthereum, Label: "large"})
		if err != nil {
			d.t.Fatalf("submit large interface %d as %s: %v", i, members[i%len(members)], err)
		}
		out = append(out, act)
	}
	return out
}
