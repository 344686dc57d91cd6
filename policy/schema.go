package policy

import (
	"sort"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
)

// The struct types of the language, with the fields and types of the real
// service's documentation (features/policies/language.mdx, "Struct" and
// "Nested structs"). A type is written as in that table: string, int, uint,
// bool, list<T>, map<string,T>, dyn (ContractArgument, JSON values) or the
// name of another struct. Numbers of either width are the checker's int
// (see number.go).
var schema = map[string][]string{
	// Consensus.
	typeUser:       {"id:string", "name:string", "alias:string", "email:string", "tags:list<string>"},
	typeCredential: {"id:string", "user_id:string", "type:string", "credential_id:string", "public_key:string"},

	// Condition.
	typeActivity:      {"type:string", "kind:string", "resource:string", "action:string", "params:map<string,dyn>"},
	typeWallet:        {"id:string", "imported:bool", "exported:bool", "label:string"},
	typeWalletAccount: {"address:string"},
	// The secret an export reads (features/secrets.mdx): its static
	// properties are the only field the docs show to policies.
	typeSecret:     {"static_properties:map<string,string>"},
	typePrivateKey: {"id:string", "tags:list<string>", "imported:bool", "exported:bool", "label:string"},
	typeEth:        {"tx:EthereumTransaction", "eip_712:Eip712TypedData", "eip_7702_authorization:Eip7702Authorization"},
	typeSolana:     {"tx:SolanaTransaction"},
	typeTron:       {"tx:TronTransaction"},
	typeBitcoin:    {"tx:BitcoinTransaction"},
	typeTempo:      {"tx:TempoTransaction"},

	"EthereumTransaction": {"from:string", "to:string", "data:string", "value:int", "gas:int", "gas_price:int",
		"chain_id:int", "nonce:int", "max_fee_per_gas:int", "max_priority_fee_per_gas:int", "max_fee_per_blob_gas:int",
		"type:string", "function_name:string", "function_signature:string", "contract_call_args:map<string,dyn>"},
	"Eip712TypedData":      {"primary_type:string", "domain:Eip712Domain", "message:map<string,dyn>"},
	"Eip712Domain":         {"name:string", "version:string", "chain_id:uint", "verifying_contract:string"},
	"Eip7702Authorization": {"address:string", "chain_id:number", "nonce:number"}, // "number": the docs do not say int

	"SolanaTransaction": {"account_keys:list<string>", "program_keys:list<string>", "instructions:list<Instruction>",
		"transfers:list<Transfer>", "recent_blockhash:string", "spl_transfers:list<SPLTransfer>",
		"address_table_lookups:list<AddressTableLookup>"},
	"Instruction": {"program_key:string", "accounts:list<Account>", "instruction_data_hex:string",
		"address_table_lookups:list<AddressTableLookup>", "parsed_instruction_data:SolanaParsedInstructionData"},
	"Transfer":           {"from:string", "to:string", "amount:int"},
	"SPLTransfer":        {"from:string", "to:string", "amount:int", "owner:string", "signers:list<string>", "token_mint:string"},
	"Account":            {"account_key:string", "signer:bool", "writable:bool"},
	"AddressTableLookup": {"address_table_key:string", "writable_indexes:list<int>", "readonly_indexes:list<int>"},
	"SolanaParsedInstructionData": {"instruction_name:string", "discriminator:string", "named_account:map<string,string>",
		"named_accounts:map<string,string>", "program_call_args:map<string,dyn>"},

	"TronTransaction": {"ref_block_bytes:string", "ref_block_hash:string", "expiration:int", "timestamp:int",
		"data:string", "fee_limit:int", "contract:list<TronContract>"},
	"TronContract": {"type:string", "permission_id:int", "owner_address:string", "to_address:string", "amount:int",
		"contract_address:string", "call_value:int", "data:string", "call_token_value:int", "token_id:int",
		"resource:string", "balance:int", "receiver_address:string", "lock:bool", "lock_period:int",
		"frozen_balance:int", "unfreeze_balance:int", "owner:TronPermission", "witness:TronPermission",
		"actives:list<TronPermission>"},
	"TronPermission": {"type:string", "id:int", "permission_name:string", "threshold:int", "parent_id:int",
		"operations:string", "keys:list<TronKey>"},
	"TronKey": {"address:string", "weight:int"},

	"BitcoinTransaction": {"version:string", "inputs:list<BitcoinTxInput>", "outputs:list<BitcoinTxOutput>",
		"locktime:BitcoinTxLocktime", "fee:int"},
	"BitcoinTxInput":    {"tx_id:string", "vout:int", "sequence:int"},
	"BitcoinTxOutput":   {"value:int", "script_pubkey:string", "address:string", "address_type:string"},
	"BitcoinTxLocktime": {"amount:int", "type:string"},

	"TempoTransaction": {"chain_id:int", "from:string", "nonce:int", "gas_limit:int", "max_fee_per_gas:int",
		"max_priority_fee_per_gas:int", "fee_token:string", "valid_before:int", "valid_after:int", "calls:list<TempoCall>"},
	"TempoCall": {"to:string", "input:string", "function_signature:string"},

	// The Spark parameters (activity.params.signatures, transfer, claim,
	// lightning_receive; language.mdx §Spark). Their struct fields always
	// read as a struct (sparkStructs).
	"SparkSignatureRequest": {"derivation:SparkKeyDerivation", "message:string", "verifying_key:string",
		"operator_commitments:list<SparkFrostCommitment>", "adaptor_public_key:string"},
	"SparkKeyDerivation": {"type:string", "signing_leaf:SparkSigningLeafDerivation",
		"static_deposit:SparkStaticDepositDerivation"},
	"SparkSigningLeafDerivation":   {"leaf_id:string"},
	"SparkStaticDepositDerivation": {"index:int"},
	"SparkFrostCommitment":         {"id:string", "hiding:string", "binding:string"},
	"SparkTransferPackage": {"transfer_id:string", "leaves:list<SparkTransferLeaf>", "threshold:int",
		"operator_recipients:list<SparkOperatorRecipient>", "receiver_public_key:string"},
	"SparkTransferLeaf": {"leaf_id:string", "old_leaf_derivation:SparkKeyDerivation",
		"new_leaf_derivation:SparkKeyDerivation", "refund_signature:string", "direct_refund_signature:string",
		"direct_from_cpfp_refund_signature:string"},
	"SparkOperatorRecipient": {"operator_id:string", "encryption_public_key:string"},
	"SparkClaimPackage": {"leaves:list<SparkClaimLeaf>", "threshold:int",
		"operator_recipients:list<SparkOperatorRecipient>", "transfer_id:string", "sender_identity_public_key:string"},
	"SparkClaimLeaf":               {"leaf_id:string", "ciphertext:string", "sender_signature:string"},
	"SparkLightningReceivePackage": {"threshold:int", "operator_recipients:list<SparkOperatorRecipient>"},

	// Time.
	typeTime: {"now:timestamp"},
}

// sparkStructs are the structs whose struct-typed fields read as an empty
// struct (whose fields read as zero values) when not set: "inactive variant
// fields evaluate to their type defaults rather than producing an
// evaluation error" (language.mdx §Spark). Elsewhere such a field is absent.
var sparkStructs = map[string]bool{"SparkSignatureRequest": true, "SparkKeyDerivation": true, "SparkTransferLeaf": true}

// caseInsensitive are the string fields the docs call case-insensitive
// (TempoCall input: "hex comparisons work regardless of casing",
// examples/tempo.mdx): their value is lower-cased, and so is the other
// side of a comparison with them (casefold.go).
var caseInsensitive = map[string]map[string]bool{"TempoCall": {"input": true}}

// Names of the keyword types.
const (
	typeUser          = "User"
	typeCredential    = "Credential"
	typeActivity      = "Activity"
	typeWallet        = "Wallet"
	typeWalletAccount = "WalletAccount"
	typeSecret        = "Secret"
	typePrivateKey    = "PrivateKey"
	typeEth           = "Eth"
	typeSolana        = "Solana"
	typeTron          = "Tron"
	typeBitcoin       = "Bitcoin"
	typeTempo         = "Tempo"
	typeTime          = "Time"
)

// fieldSpec is one field of a struct: its CEL type, and the struct name when
// it holds structs (directly or as list elements).
type fieldSpec struct {
	typ      *cel.Type
	elemKind string // "" for a scalar/map, the struct name for a struct, "list:<name>" for a list of structs
	decl     string // the declared type, as in schema
}

// structSpec is a struct's fields, by name, in declaration order.
type structSpec struct {
	names  []string
	fields map[string]fieldSpec
}

// buildSchema parses the schema table once.
func buildSchema() map[string]structSpec {
	out := make(map[string]structSpec, len(schema))
	for name, fields := range schema {
		s := structSpec{fields: make(map[string]fieldSpec, len(fields))}
		for _, f := range fields {
			fname, decl, _ := strings.Cut(f, ":")
			s.names = append(s.names, fname)
			s.fields[fname] = fieldSpec{typ: celTypeOf(decl), elemKind: structOf(decl), decl: decl}
		}
		out[name] = s
	}
	return out
}

func celTypeOf(decl string) *cel.Type {
	switch {
	case decl == "string":
		return cel.StringType
	case decl == "int", decl == "uint":
		return cel.IntType
	case decl == "number":
		return cel.DynType
	case decl == "bool":
		return cel.BoolType
	case decl == "dyn":
		return cel.DynType
	case decl == "timestamp":
		return cel.TimestampType
	case strings.HasPrefix(decl, "list<"):
		return cel.ListType(celTypeOf(strings.TrimSuffix(strings.TrimPrefix(decl, "list<"), ">")))
	case strings.HasPrefix(decl, "map<string,"):
		return cel.MapType(cel.StringType, celTypeOf(strings.TrimSuffix(strings.TrimPrefix(decl, "map<string,"), ">")))
	}
	return cel.ObjectType(decl)
}

// structOf names the struct a field holds: "X" for a struct, "list:X" for a
// list of structs, "" otherwise.
func structOf(decl string) string {
	if inner, ok := strings.CutPrefix(decl, "list<"); ok {
		if s := structOf(strings.TrimSuffix(inner, ">")); s != "" && !strings.HasPrefix(s, "list:") {
			return "list:" + s
		}
		return ""
	}
	if _, ok := schema[decl]; ok {
		return decl
	}
	return ""
}

// allFieldNames lists every field name, sorted (a suggestion among equally
// close names must not depend on a map's order), for "did you mean".
func allFieldNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, fields := range schema {
		for _, f := range fields {
			n, _, _ := strings.Cut(f, ":")
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// schemaStructs is the parsed schema, built once.
var schemaStructs = sync.OnceValue(buildSchema)

// schemaNames are a struct's fields in declaration order.
func schemaNames(st string) []string { return schemaStructs()[st].names }
