package servertest

import (
	"context"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// LargeInterfaceBytes is the most bytes of a smart contract interface SPEC.md
// allows.
const LargeInterfaceBytes = 400_000

// LargeInterface is a smart contract interface of LargeInterfaceBytes, the
// most SPEC.md allows, made of escaped quotes, so that every reply repeating
// it (each listed activity repeats its intent) carries twice that.
func LargeInterface() string {
	return InterfaceOfSize(LargeInterfaceBytes)
}

// InterfaceOfSize is a smart contract interface of about size bytes made,
// like LargeInterface, of escaped quotes: a test that lowers the client's
// reply bound below the least a real client takes can use one a fraction
// of LargeInterface's size to show the same, at a fraction of the bytes.
func InterfaceOfSize(size int) string {
	return `["` + strings.Repeat(`\"`, (size-4)/2) + `"]`
}

// SubmitLargeInterfaces has the members, in turn, submit n
// create_smart_contract_interface activities of LargeInterface, labelled
// "large", and returns them as the service answered.
func (d *Demo) SubmitLargeInterfaces(n int, members ...string) []*api.Activity {
	d.t.Helper()
	return d.SubmitInterfaces(n, LargeInterface(), members...)
}

// SubmitInterfaces is SubmitLargeInterfaces with the interface given.
func (d *Demo) SubmitInterfaces(n int, iface string, members ...string) []*api.Activity {
	d.t.Helper()
	out := make([]*api.Activity, 0, n)
	for i := range n {
		act, err := d.Client(members[i%len(members)]).CreateSmartContractInterface(context.Background(), api.CreateSmartContractInterfaceParams{
			SmartContractAddress: "0xabc", SmartContractInterface: iface, Type: api.SmartContractInterfaceEthereum, Label: "large"})
		if err != nil {
			d.t.Fatalf("submit interface %d of %d bytes as %s: %v", i, len(iface), members[i%len(members)], err)
		}
		out = append(out, act)
	}
	return out
}
