// Drives `vigil serve --demo` with the unmodified official TypeScript client
// (@turnkey/http + @turnkey/api-key-stamper from npm) and checks:
//   1. users read through the client carry every field the client's own
//      generated types mark required (checked against those types,
//      recursively, with each field's type: string, boolean, number, enum);
//   2. getMfaPolicies lists a user's MFA policies;
//   3. a body signed by the official stamper with a duplicated key is a 400;
//   4. a request with two X-Stamp headers is a 401;
//   5. (operations.js) every operation of SPEC.md's Endpoints and the ones the
//      console relies on that the client has, each through the client's own
//      method: the client accepts the reply, every required field is there
//      (activity records with intent, result and votes; query records), an
//      activity's type/intent/result keys are SPEC.md's, the intent repeats
//      the parameters, a second root member's approveActivity completes a
//      proposal and two rejectActivity calls reject one; the oauth result's
//      credentialBundle opens with @turnkey/crypto's decryptCredentialBundle
//      and the key inside stamps whoami and get_api_key.
//
// Usage: node interop.js DATA_DIR   (the --data directory of vigil serve --demo)
// VIGIL_OIDC_ISSUER_KEY_HEX: the local OIDC issuer's key (DER, hex), for the
// oauth activity's token; VIGIL_OAUTH2_CREDENTIAL_ID: the demo's OAuth2
// credential, which no query lists. interop.sh reads both from the store.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const http = require("node:http");
const { TurnkeyClient, TurnkeyRequestError } = require("@turnkey/http");
const { ApiKeyStamper } = require("@turnkey/api-key-stamper");
const { runOperations } = require("./operations.js");

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("usage: node interop.js DATA_DIR");
  process.exit(2);
}

// --- the demo profile written by vigil serve --demo ---

function profile(name) {
  const toml = fs.readFileSync(path.join(dataDir, "config.toml"), "utf8");
  const section = toml.split(/^\s*\[profiles\.([^\]]+)\]\s*$/m);
  for (let i = 1; i < section.length; i += 2) {
    if (section[i].replace(/"/g, "") !== name) continue;
    const get = (key) => {
      const m = section[i + 1].match(new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m"));
      if (!m) throw new Error(`config.toml: profile ${name} has no ${key}`);
      return m[1];
    };
    return { baseUrl: get("base_url"), organizationId: get("organization_id"), tlsFetcherPublicKey: get("tls_fetcher_public_key") };
  }
  throw new Error(`config.toml: no profile ${name}`);
}

function stamper(name) {
  const read = (ext) => fs.readFileSync(path.join(dataDir, "keys", `${name}.${ext}`), "utf8").trim();
  return new ApiKeyStamper({ apiPublicKey: read("public"), apiPrivateKey: read("private") });
}

// --- required fields, from the official client's generated types ---

// The package does not export the .d.ts path; it sits beside its main file.
const typesFile = path.join(
  path.dirname(require.resolve("@turnkey/http")),
  "__generated__/services/coordinator/public/v1/public_api.types.d.ts",
);
const typesSource = fs.readFileSync(typesFile, "utf8");

// fieldsOf parses `    name: { ... };` in `definitions` into
// [{name, required, ref, array, type}], type being the TypeScript type text.
function fieldsOf(definition) {
  const start = typesSource.indexOf(`\n    ${definition}: {\n`);
  if (start < 0) return null; // an enum or a scalar alias
  const end = typesSource.indexOf("\n    };", start);
  const fields = [];
  for (const line of typesSource.slice(start, end).split("\n").slice(2)) {
    const m = line.match(/^ {8}(\w+)(\??): (.*);$/);
    if (!m) continue;
    const ref = m[3].match(/^definitions\["(\w+)"\](\[\])?$/);
    fields.push({ name: m[1], required: m[2] === "", ref: ref && ref[1], array: m[3].endsWith("[]"), type: m[3] });
  }
  return fields;
}

// enumOf lists the values of an enum: a definition (`    v1X: "A" | "B";`)
// or a field's inline union; null when it is not one.
function enumOf(definitionOrUnion) {
  let union = definitionOrUnion;
  if (/^\w+$/.test(definitionOrUnion)) {
    const m = typesSource.match(new RegExp(`\\n {4}${definitionOrUnion}: ("[^\\n]*");\\n`));
    if (!m) return null;
    union = m[1];
  }
  if (!/^"[^"]*"( \| "[^"]*")*$/.test(union)) return null;
  return union.split(" | ").map((v) => JSON.parse(v));
}

// wrongType says how v differs from a scalar field's declared type, or "".
function wrongType(v, f) {
  const scalar = f.array ? f.type.slice(0, -2) : f.type;
  const items = f.array ? v : [v];
  for (const item of items) {
    if (["string", "boolean", "number"].includes(scalar) && typeof item !== scalar) return `is ${JSON.stringify(item)}, not a ${scalar}`;
    const values = enumOf(f.ref || scalar);
    if (values && !values.includes(item)) return `is ${JSON.stringify(item)}, not one of the ${values.length} values the client knows`;
  }
  return "";
}

// missingFields lists every required field absent from value, and every
// field whose value is not of the declared type (string, boolean, number, an
// enum's values), recursively.
function missingFields(value, definition, where) {
  const fields = fieldsOf(definition);
  if (!fields) return [];
  const missing = [];
  for (const f of fields) {
    const v = value[f.name];
    if (v === undefined || v === null) {
      if (f.required) missing.push(`${where}.${f.name}`);
      continue;
    }
    if (f.array && !Array.isArray(v)) {
      missing.push(`${where}.${f.name} (not an array)`);
      continue;
    }
    const wrong = wrongType(v, f);
    if (wrong) missing.push(`${where}.${f.name} ${wrong}`);
    if (!f.ref) continue;
    const items = f.array ? v : [v];
    items.forEach((item, i) => {
      if (item && typeof item === "object") {
        missing.push(...missingFields(item, f.ref, f.array ? `${where}.${f.name}[${i}]` : `${where}.${f.name}`));
      }
    });
  }
  return missing;
}

// --- raw requests (the cases the client itself would never send) ---

function post(url, body, stamps) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST" }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => resolve({ status: res.statusCode, body: data }));
    });
    req.on("error", reject);
    req.setHeader("Content-Type", "application/json");
    // An array value sends one header line per element.
    req.setHeader(stamps[0].stampHeaderName, stamps.map((s) => s.stampHeaderValue));
    req.end(body);
  });
}

function errorCode(reply) {
  try {
    const b = JSON.parse(reply.body);
    return (b.details || []).map((d) => d.errorCode).join(",");
  } catch {
    return "(not JSON)";
  }
}

let failures = 0;
function check(ok, what, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) failures++;
}

async function main() {
  const alice = profile("alice");
  const client = new TurnkeyClient({ baseUrl: alice.baseUrl }, stamper("alice"));
  const org = alice.organizationId;

  // 1. Users with every required field.
  const { users } = await client.getUsers({ organizationId: org });
  check(Array.isArray(users) && users.length >= 4, "getUsers lists the demo users", `${users && users.length} users`);
  for (const u of users) {
    const missing = missingFields(u, "v1User", `user ${u.userName}`);
    check(missing.length === 0, `getUsers: ${u.userName} has every field v1User requires`, missing.join(", "));
  }
  const bob = users.find((u) => u.userName === "bob");
  const { user } = await client.getUser({ organizationId: org, userId: bob.userId });
  const missing = missingFields(user, "v1User", "getUser bob");
  check(missing.length === 0, "getUser: bob has every field v1User requires", missing.join(", "));

  // 2. MFA policies under the official name.
  const aliceUser = users.find((u) => u.userName === "alice");
  const { mfaPolicies } = await client.getMfaPolicies({ organizationId: org, userId: aliceUser.userId });
  check(Array.isArray(mfaPolicies) && mfaPolicies.length >= 2, "getMfaPolicies lists alice's MFA policies", `${mfaPolicies && mfaPolicies.length} policies`);
  for (const p of mfaPolicies || []) {
    const m = missingFields(p, "v1MfaPolicy", `MFA policy ${p.mfaPolicyName}`);
    check(m.length === 0, `getMfaPolicies: "${p.mfaPolicyName}" has every field v1MfaPolicy requires`, m.join(", "));
  }
  check(
    JSON.stringify(aliceUser.mfaPolicies.map((p) => p.mfaPolicyId)) === JSON.stringify(mfaPolicies.map((p) => p.mfaPolicyId)),
    "the user record's mfaPolicies are getMfaPolicies' policies",
  );

  // 3. A duplicated key in a body the official stamper signed: 400.
  const url = alice.baseUrl + "/public/v1/query/get_user";
  const dup = `{"organizationId":"${org}","userId":"${bob.userId}","userId":"${aliceUser.userId}"}`;
  const dupReply = await post(url, dup, [await stamper("alice").stamp(dup)]);
  check(dupReply.status === 400 && errorCode(dupReply) === "DUPLICATE_KEY", "a signed body with a duplicated key is refused with 400",
    `HTTP ${dupReply.status} ${errorCode(dupReply)}`);

  // 4. Two X-Stamp headers, each valid on its own: 401.
  const signed = await client.stampGetUser({ organizationId: org, userId: bob.userId });
  const second = await stamper("bob").stamp(signed.body);
  const twoReply = await post(signed.url, signed.body, [signed.stamp, second]);
  check(twoReply.status === 401, "two X-Stamp headers are refused with 401", `HTTP ${twoReply.status} ${errorCode(twoReply)}`);
  const oneReply = await post(signed.url, signed.body, [signed.stamp]);
  check(oneReply.status === 200, "the same request with one X-Stamp is accepted", `HTTP ${oneReply.status}`);

  // The client's own error type for a refusal the service names.
  try {
    await client.getMfaPolicies({ organizationId: org, userId: "no-such-user" });
    check(false, "getMfaPolicies of an unknown user fails");
  } catch (e) {
    check(e instanceof TurnkeyRequestError && e.code === 5, "getMfaPolicies of an unknown user is a TurnkeyRequestError with code 5 (NotFound)", `${e.message}`);
  }

  // 5. Every operation of SPEC.md, and the console's, through the client's methods.
  const clients = Object.fromEntries(["alice", "bob", "carol", "operator"].map((n) =>
    [n, new TurnkeyClient({ baseUrl: alice.baseUrl }, stamper(n))]));
  await runOperations({ clients, org, check, missingFields, users, oidcIssuerKeyHex: process.env.VIGIL_OIDC_ISSUER_KEY_HEX,
    oauth2CredentialId: process.env.VIGIL_OAUTH2_CREDENTIAL_ID, tlsFetcherPublicKey: alice.tlsFetcherPublicKey });

  if (failures > 0) {
    console.error(`interop: ${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("interop: the official client works against vigil serve");
}

main().catch((e) => {
  console.error("interop:", e && e.stack ? e.stack : e);
  process.exit(1);
});
