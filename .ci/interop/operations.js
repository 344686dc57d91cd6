// Every operation of SPEC.md's "Endpoints" (the twelve submits, the five
// queries) and the ones the console relies on that the official client also
// has (approve/reject, list/get activity, whoami, policies, MFA, boot proof,
// organization configs), each called through @turnkey/http's own method.
// For each reply: the client accepts it (does not throw), every field the
// client's generated types require is present (recursively: activity records
// with their intent, result and votes; query records), and an activity's
// type, intent key and result key are the ones SPEC.md's table names.
"use strict";

const crypto = require("node:crypto");
const { TurnkeyClient } = require("@turnkey/http");
const { ApiKeyStamper } = require("@turnkey/api-key-stamper");
const { decryptCredentialBundle } = require("@turnkey/crypto");

// SPEC.md "Activity operations": path segment, client method, type value,
// intent key, result key.
const SUBMITS = [
  ["oauth", "oauth", "ACTIVITY_TYPE_OAUTH", "oauthIntent", "oauthResult"],
  ["create_invitations", "createInvitations", "ACTIVITY_TYPE_CREATE_INVITATIONS", "createInvitationsIntent", "createInvitationsResult"],
  ["create_smart_contract_interface", "createSmartContractInterface", "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE", "createSmartContractInterfaceIntent", "createSmartContractInterfaceResult"],
  ["set_organization_feature", "setOrganizationFeature", "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE", "setOrganizationFeatureIntent", "setOrganizationFeatureResult"],
  ["update_oauth2_credential", "updateOauth2Credential", "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL", "updateOauth2CredentialIntent", "updateOauth2CredentialResult"],
  ["create_policy", "createPolicy", "ACTIVITY_TYPE_CREATE_POLICY_V3", "createPolicyIntentV3", "createPolicyResult"],
  ["delete_wallet_accounts", "deleteWalletAccounts", "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS", "deleteWalletAccountsIntent", "deleteWalletAccountsResult"],
  ["create_user_tag", "createUserTag", "ACTIVITY_TYPE_CREATE_USER_TAG", "createUserTagIntent", "createUserTagResult"],
  ["delete_api_keys", "deleteApiKeys", "ACTIVITY_TYPE_DELETE_API_KEYS", "deleteApiKeysIntent", "deleteApiKeysResult"],
  ["create_read_only_session", "createReadOnlySession", "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION", "createReadOnlySessionIntent", "createReadOnlySessionResult"],
  ["delete_tvc_deployment", "deleteTvcDeployment", "ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT", "deleteTvcDeploymentIntent", "deleteTvcDeploymentResult"],
  ["create_mfa_policy", "createMfaPolicy", "ACTIVITY_TYPE_CREATE_MFA_POLICY", "createMfaPolicyIntent", "createMfaPolicyResult"],
].map(([op, method, type, intent, result]) => ({ op, method, type, intent, result }));
const byType = new Map(SUBMITS.map((s) => [s.type, s]));
// Votes are not in SPEC.md's table; their intent keys are the client's v1Intent's.
byType.set("ACTIVITY_TYPE_APPROVE_ACTIVITY", { type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", intent: "approveActivityIntent" });
byType.set("ACTIVITY_TYPE_REJECT_ACTIVITY", { type: "ACTIVITY_TYPE_REJECT_ACTIVITY", intent: "rejectActivityIntent" });

const keysOf = (o) => JSON.stringify(Object.keys(o || {}));

async function runOperations(t) {
  const { clients, org, check, missingFields, users, oidcIssuerKeyHex, oauth2CredentialId, tlsFetcherPublicKey } = t;
  const userId = (name) => users.find((u) => u.userName === name).userId;
  const envelope = (type, parameters, extra) => ({ type, timestampMs: String(Date.now()), organizationId: org, parameters, ...extra });

  // call runs one client method; a throw is a FAIL naming the error.
  async function call(what, fn) {
    try {
      return await fn();
    } catch (e) {
      check(false, `${what}: the client accepts the reply`, e && e.message);
      return null;
    }
  }

  function fields(what, value, definition) {
    const m = missingFields(value, definition, what);
    check(m.length === 0, `${what}: every field ${definition} requires is present`, m.join(", "));
  }

  // checkActivity checks one activity record against the client's v1Activity
  // and against SPEC.md's table for its type.
  function checkActivity(what, a, spec) {
    if (!a) return check(false, `${what}: the reply holds an activity`);
    fields(what, a, "v1Activity");
    spec = spec || byType.get(a.type);
    if (!spec) return;
    check(a.type === spec.type, `${what}: type is ${spec.type}`, a.type);
    check(keysOf(a.intent) === JSON.stringify([spec.intent]), `${what}: intent has the one key ${spec.intent}`, keysOf(a.intent));
    if (a.status === "ACTIVITY_STATUS_COMPLETED" && spec.result) {
      check(keysOf(a.result) === JSON.stringify([spec.result]), `${what}: result has the one key ${spec.result}`, keysOf(a.result));
    }
  }

  // submit has `who` submit op's parameters through the client's method and,
  // when the activity waits for consensus, has `approver` approve it with
  // client.approveActivity. It returns the last record.
  async function submit(who, spec, parameters, approver, extra) {
    const what = `${spec.method} by ${who}`;
    const reply = await call(what, () => clients[who][spec.method](envelope(spec.type, parameters, extra)));
    if (!reply) return null;
    const a = reply.activity;
    checkActivity(what, a, spec);
    // SPEC.md: the intent's content repeats the submitted parameters.
    const intent = (a && a.intent && a.intent[spec.intent]) || {};
    const differ = Object.keys(parameters).filter((k) => JSON.stringify(intent[k]) !== JSON.stringify(parameters[k]));
    check(differ.length === 0, `${what}: the intent repeats the parameters sent`, differ.map((k) => `${k}: ${JSON.stringify(intent[k])}`).join(", "));
    if (!a || a.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED" || !approver) return a;
    const vote = await call(`approveActivity by ${approver} of ${spec.op}`, () =>
      clients[approver].approveActivity(envelope("ACTIVITY_TYPE_APPROVE_ACTIVITY", { fingerprint: a.fingerprint })));
    if (!vote) return a;
    // The reply to a vote is the activity voted on (docs/local-service.md).
    const done = vote.activity;
    checkActivity(`approveActivity by ${approver} of ${spec.op}`, done, spec);
    check(done && done.id === a.id && done.status === "ACTIVITY_STATUS_COMPLETED",
      `${spec.op}: a second root member's approveActivity completes it`, done && `${done.id} ${done.status} ${JSON.stringify(done.failure || "")}`);
    check(done && done.votes.some((v) => v.userId === userId(approver) && v.selection === "VOTE_SELECTION_APPROVED"),
      `${spec.op}: the record carries ${approver}'s approval`);
    return done;
  }
  const S = Object.fromEntries(SUBMITS.map((s) => [s.op, s]));
  const completed = {};
  const remember = (op, a) => {
    if (a && a.status === "ACTIVITY_STATUS_COMPLETED") completed[op] = a;
    return a;
  };

  // The demo's history names objects the service has no query for.
  const history = await call("getActivities (history)", () => clients.alice.getActivities({ organizationId: org, paginationOptions: { limit: "100" } }));
  const acts = (history && history.activities) || [];
  const ofType = (type) => acts.filter((a) => a.type === type);
  const deletions = ofType("ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS").flatMap((a) => a.intent.deleteWalletAccountsIntent.walletAccountIds);
  const tvc = ofType("ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT").map((a) => a.intent.deleteTvcDeploymentIntent.deploymentId);
  const operator = users.find((u) => u.userName === "operator");
  const oldKey = operator.apiKeys.find((k) => k.apiKeyName === "operator CI key (old)");

  // --- the twelve submits ---

  // oauth: the script plays the login provider with the local issuer's key
  // (read from the data directory by interop.sh), as MintDemoOIDCToken does.
  const target = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const targetHex = target.publicKey.export({ format: "der", type: "spki" }).subarray(-65).toString("hex");
  if (oidcIssuerKeyHex) {
    const token = mintToken(oidcIssuerKeyHex, org, "operator", crypto.createHash("sha256").update(targetHex).digest("hex"));
    const done = remember("oauth", await submit("operator", S.oauth, { oidcToken: token, targetPublicKey: targetHex, apiKeyName: "interop oauth key" }, "bob"));
    if (done) await loginWithBundle(t, done.result.oauthResult, target, userId("operator"));
  } else {
    check(false, "oauth: no OIDC issuer key (interop.sh reads it with sqlite3)");
  }
  remember("create_invitations", await submit("alice", S.create_invitations, { invitations: [{ receiverUserName: "erin",
    receiverUserEmail: "erin@vigil.demo", receiverUserTags: [], accessType: "ACCESS_TYPE_API", senderUserId: userId("alice") }] }, "bob"));
  remember("create_smart_contract_interface", await submit("alice", S.create_smart_contract_interface, { smartContractAddress: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    smartContractInterface: '[{"type":"function","name":"approve","inputs":[]}]', type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM", label: "interop", notes: "from interop.js" }, "bob"));
  remember("set_organization_feature", await submit("alice", S.set_organization_feature, { name: "FEATURE_NAME_SMS_AUTH", value: "enabled" }, "bob"));
  // update_oauth2_credential: a secret not sealed to the TLS fetcher key is
  // refused in the client's own error type; one sealed to it is accepted.
  const oauth2 = { oauth2CredentialId: oauth2CredentialId || "no-such-credential", provider: "OAUTH2_PROVIDER_X", clientId: "interop" };
  try {
    await clients.alice.updateOauth2Credential(envelope(S.update_oauth2_credential.type, { ...oauth2, encryptedClientSecret: "00" }));
    check(false, "updateOauth2Credential with an unsealed secret is refused");
  } catch (e) {
    check(e && e.name === "TurnkeyRequestError" && e.code === 3, "updateOauth2Credential with an unsealed secret is a TurnkeyRequestError with code 3", e && e.message);
  }
  if (oauth2CredentialId) {
    remember("update_oauth2_credential", await submit("alice", S.update_oauth2_credential,
      { ...oauth2, encryptedClientSecret: sealEnvelope(tlsFetcherPublicKey, "interop-client-secret") }, "bob"));
  } else check(false, "update_oauth2_credential: no OAuth2 credential id (interop.sh reads it with sqlite3)");
  remember("create_policy", await submit("alice", S.create_policy, { policyName: "interop policy", effect: "EFFECT_ALLOW",
    condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", notes: "from interop.js" }, "bob"));
  if (deletions.length > 0) {
    remember("delete_wallet_accounts", await submit("alice", S.delete_wallet_accounts, { walletAccountIds: [deletions[deletions.length - 1]], deleteWithoutExport: true }, "bob"));
  } else check(false, "delete_wallet_accounts: the demo history names a wallet account");
  remember("create_user_tag", await submit("alice", S.create_user_tag, { userTagName: "interop", userIds: [operator.userId] }, "bob", { generateAppProofs: true }));
  if (oldKey) {
    remember("delete_api_keys", await submit("alice", S.delete_api_keys, { userId: operator.userId, apiKeyIds: [oldKey.apiKeyId] }, "bob"));
  } else check(false, "delete_api_keys: operator has the demo's old key");
  remember("create_read_only_session", await submit("operator", S.create_read_only_session, {}, "bob"));
  if (tvc.length > 0) {
    remember("delete_tvc_deployment", await submit("alice", S.delete_tvc_deployment, { deploymentId: tvc[0] }, "bob"));
  } else check(false, "delete_tvc_deployment: the demo history names a deployment");
  remember("create_mfa_policy", await submit("alice", S.create_mfa_policy, { userId: operator.userId, mfaPolicyName: "interop",
    condition: "false", requiredAuthenticationMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] }], order: 5, notes: "never applies" }, "bob"));
  for (const s of SUBMITS) {
    check(completed[s.op] !== undefined, `${s.op}: completed through the official client`);
  }

  // Rejection: two root members reject alice's proposal (quorum 2 of 3).
  const proposal = await submit("alice", S.create_user_tag, { userTagName: "interop-rejected", userIds: [operator.userId] });
  if (proposal) {
    let last = proposal;
    for (const who of ["carol", "bob"]) {
      const r = await call(`rejectActivity by ${who}`, () =>
        clients[who].rejectActivity(envelope("ACTIVITY_TYPE_REJECT_ACTIVITY", { fingerprint: proposal.fingerprint })));
      if (r) {
        checkActivity(`rejectActivity by ${who}`, r.activity, S.create_user_tag);
        last = r.activity;
      }
    }
    check(last.status === "ACTIVITY_STATUS_REJECTED", "rejectActivity by carol and bob rejects alice's proposal", last.status);
  }

  // --- queries ---

  const page = await call("getActivities", () => clients.alice.getActivities({ organizationId: org, paginationOptions: { limit: "100" } }));
  if (page) {
    fields("getActivities", page, "v1GetActivitiesResponse");
    for (const a of page.activities) {
      checkActivity(`getActivities: ${a.type} ${a.id}`, a);
      // Every activity's evaluations (failed, rejected and pending ones too).
      const ev = await call(`getPolicyEvaluations of ${a.id}`, () => clients.alice.getPolicyEvaluations({ organizationId: org, activityId: a.id }));
      if (ev) fields(`getPolicyEvaluations of ${a.type} ${a.id}`, ev, "v1GetPolicyEvaluationsResponse");
    }
  }
  const tag = completed.create_user_tag;
  if (tag) {
    const one = await call("getActivity", () => clients.alice.getActivity({ organizationId: org, activityId: tag.id }));
    if (one) {
      fields("getActivity", one, "v1ActivityResponse");
      checkActivity("getActivity", one.activity, S.create_user_tag);
    }
    const ev = await call("getPolicyEvaluations", () => clients.alice.getPolicyEvaluations({ organizationId: org, activityId: tag.id }));
    if (ev) {
      fields("getPolicyEvaluations", ev, "v1GetPolicyEvaluationsResponse");
      check(ev.policyEvaluations.length > 0, "getPolicyEvaluations lists the evaluations of a voted activity");
    }
    const proofs = await call("getAppProofs", () => clients.alice.getAppProofs({ organizationId: org, activityId: tag.id }));
    if (proofs) {
      fields("getAppProofs", proofs, "v1GetAppProofsResponse");
      check(proofs.appProofs.length > 0, "getAppProofs lists the proofs of an activity submitted with generateAppProofs");
    }
    const mfa = await call("getMfaStatus", () => clients.alice.getMfaStatus({ organizationId: org, activityId: tag.id }));
    if (mfa) fields("getMfaStatus", mfa, "v1GetMfaStatusResponse");
  }
  const policies = await call("getPolicies", () => clients.alice.getPolicies({ organizationId: org }));
  if (policies) {
    fields("getPolicies", policies, "v1GetPoliciesResponse");
    const p = policies.policies[0];
    if (p) {
      const one = await call("getPolicy", () => clients.alice.getPolicy({ organizationId: org, policyId: p.policyId }));
      if (one) fields("getPolicy", one, "v1GetPolicyResponse");
    }
  }
  const key = users.find((u) => u.userName === "alice").apiKeys[0];
  const apiKey = await call("getApiKey", () => clients.alice.getApiKey({ organizationId: org, apiKeyId: key.apiKeyId }));
  if (apiKey) fields("getApiKey", apiKey, "v1GetApiKeyResponse");
  const latest = await call("getLatestBootProof", () => clients.alice.getLatestBootProof({ organizationId: org, appName: "signer" }));
  if (latest) {
    fields("getLatestBootProof", latest, "v1BootProofResponse");
    const one = await call("getBootProof", () => clients.alice.getBootProof({ organizationId: org, ephemeralKey: latest.bootProof.ephemeralPublicKeyHex }));
    if (one) fields("getBootProof", one, "v1BootProofResponse");
  }
  const onramp = await call("getOnRampTransactionStatus", () =>
    clients.alice.getOnRampTransactionStatus({ organizationId: org, transactionId: "onramp-demo-1", refresh: false }));
  if (onramp) fields("getOnRampTransactionStatus", onramp, "v1GetOnRampTransactionStatusResponse");
  const mfaPolicy = completed.create_mfa_policy && completed.create_mfa_policy.result.createMfaPolicyResult.mfaPolicyId;
  if (mfaPolicy) {
    const one = await call("getMfaPolicy", () => clients.alice.getMfaPolicy({ organizationId: org, userId: operator.userId, mfaPolicyId: mfaPolicy }));
    if (one) fields("getMfaPolicy", one, "v1GetMfaPolicyResponse");
  }
  const who = await call("getWhoami", () => clients.bob.getWhoami({ organizationId: org }));
  if (who) {
    fields("getWhoami", who, "v1GetWhoamiResponse");
    check(who.userId === userId("bob") && who.username === "bob", "getWhoami names the stamping user", `${who.username}`);
  }
  const configs = await call("getOrganizationConfigs", () => clients.alice.getOrganizationConfigs({ organizationId: org }));
  if (configs) fields("getOrganizationConfigs", configs, "v1GetOrganizationConfigsResponse");
}

// loginWithBundle does what an app does with an oauth result: opens the
// credential bundle with @turnkey/crypto's decryptCredentialBundle and the
// target key's private half, stamps with the key inside through
// @turnkey/api-key-stamper, and asks whoami and get_api_key with it.
async function loginWithBundle(t, result, target, operatorId) {
  const { check, clients, org } = t;
  let privateHex = "";
  try {
    privateHex = decryptCredentialBundle(result.credentialBundle, Buffer.from(target.privateKey.export({ format: "jwk" }).d, "base64url").toString("hex"));
  } catch (e) {
    return check(false, "oauth: @turnkey/crypto's decryptCredentialBundle opens the credential bundle", e && e.message);
  }
  check(/^[0-9a-f]{64}$/.test(privateHex), "oauth: the credential bundle holds a 32-byte P-256 private key", `${privateHex.length / 2} bytes`);
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(privateHex, "hex"));
  const client = new TurnkeyClient({ baseUrl: clients.operator.config.baseUrl },
    new ApiKeyStamper({ apiPublicKey: ecdh.getPublicKey("hex", "compressed"), apiPrivateKey: privateHex }));
  try {
    const who = await client.getWhoami({ organizationId: org });
    check(who.userId === operatorId, "oauth: the key in the credential bundle stamps as the user the token named", who.username);
    const key = await client.getApiKey({ organizationId: org, apiKeyId: result.apiKeyId });
    check(key.apiKey.credential.type === "CREDENTIAL_TYPE_OAUTH_KEY_P256" && key.apiKey.expirationSeconds === "900",
      "oauth: get_api_key shows the new key as an OAuth key with the default 15-minute lifetime", JSON.stringify(key.apiKey.credential.type) + " " + key.apiKey.expirationSeconds);
  } catch (e) {
    check(false, "oauth: requests stamped with the key in the credential bundle are accepted", e && e.message);
  }
}

// mintToken signs an ES256 JWT from the local issuer (server/oauth.go).
function mintToken(keyHex, org, subject, nonce) {
  const key = crypto.createPrivateKey({ key: Buffer.from(keyHex, "hex"), format: "der", type: "sec1" });
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const signing = b64({ alg: "ES256", typ: "JWT" }) + "." + b64({ iss: "https://oidc.vigil.local", sub: subject, aud: org,
    iat: now, exp: now + 600, jti: crypto.randomBytes(16).toString("hex"), nonce });
  const sig = crypto.sign("sha256", Buffer.from(signing), { key, dsaEncoding: "ieee-p1363" });
  return signing + "." + sig.toString("base64url");
}

// sealEnvelope encrypts plaintext to a P-256 key as keys.EnvelopeEncrypt does
// (the Borsh envelope {nonce, ephemeral public key, ciphertext}, in hex).
function sealEnvelope(targetHex, plaintext) {
  const target = Buffer.from(targetHex, "hex");
  const eph = crypto.createECDH("prime256v1");
  const ephPub = eph.generateKeys();
  const shared = eph.computeSecret(target);
  const key = crypto.createHmac("sha512", Buffer.concat([ephPub, target, shared])).update("qos_encryption_hmac_message").digest().subarray(0, 32);
  const nonce = crypto.randomBytes(12);
  const gcm = crypto.createCipheriv("aes-256-gcm", key, nonce);
  gcm.setAAD(Buffer.concat([ephPub, Buffer.from([ephPub.length]), target, Buffer.from([target.length])]));
  const ct = Buffer.concat([gcm.update(plaintext, "utf8"), gcm.final(), gcm.getAuthTag()]);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(ct.length);
  return Buffer.concat([nonce, ephPub, len, ct]).toString("hex");
}

module.exports = { runOperations };
