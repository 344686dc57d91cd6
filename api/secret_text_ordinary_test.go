package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Ordinary names and notes that hold what reads as a key but is none are
// sent: a contract labelled by its 0x address or its program id, an image
// pinned by its digest, a policy named after the manifest hash its
// condition pins (the condition sends that hash anyway).
func TestFreeTextHoldingPublicValuesIsSent(t *testing.T) {
	demo := servertest.StartDemo(t)
	client := demo.Client("alice")
	ctx := context.Background()
	const manifestHash = "3f2a5c1e9b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a"
	types := api.SmartContractInterfaceTypes()
	sent := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v; want it sent", what, err)
		}
	}
	const usdc = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	_, err := client.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: usdc,
		SmartContractInterface: "[]", Type: types[0], Label: usdc})
	sent("a contract labelled by its 0x address", err)
	const tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
	_, err = client.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: tokenProgram,
		SmartContractInterface: "{}", Type: types[1], Label: "SPL Token " + tokenProgram})
	sent("a program labelled by its program id", err)
	_, err = client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "allow manifest " + manifestHash, Effect: api.EffectDeny,
		Condition: "activity.type == '" + manifestHash + "'", Notes: "deploy ghcr.io/acme/api@sha256:" + manifestHash})
	sent("a policy named after the hash its condition pins, notes naming an image by digest", err)
	_, err = client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectDeny, Notes: "9fceb02d0ae598e95dc970b74767f19372d61af8"})
	sent("notes that are a 40-hex commit", err)

	// The same name with a condition that does not hold the hex is refused:
	// 64 hex digits alone may be a key. The refusal claims no shell history
	// where none may have been involved.
	_, err = client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "allow manifest " + manifestHash, Effect: api.EffectDeny, Condition: "true"})
	if !errors.Is(err, api.ErrNotSent) {
		t.Fatalf("a name holding 64 hex digits no other field holds: %v; want it refused", err)
	}
	if strings.Contains(err.Error(), "(it may be in shell history)") {
		t.Errorf("the refusal says the key may be in shell history as if typed on a command line: %v", err)
	}
}
