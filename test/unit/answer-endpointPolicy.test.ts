// Where passages and an API key may go: plain http only to this machine unless the user opts in,
// and an API key never over plain http to another machine. The refusal happens before any
// connection: nothing here opens a socket (the addresses are documentation ranges, RFC 5737/3849).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProvider, modelSettingsFrom } from '../../server/src/answer/choice.ts';
import { checkEndpointTransport, isLoopbackHost } from '../../server/src/answer/endpointPolicy.ts';
import { ProviderError } from '../../server/src/answer/provider.ts';

test('loopback is localhost, 127.0.0.0/8 and ::1, however the URL spells them', () => {
  for (const url of ['http://localhost:11434/v1', 'http://LOCALHOST/v1', 'http://127.0.0.1:8080', 'http://127.5.6.7', 'http://127.1/', 'http://2130706433/', 'http://[::1]:8080', 'http://[::ffff:127.0.0.1]/']) {
    assert.equal(isLoopbackHost(new URL(url).hostname), true, url);
  }
  for (const url of ['http://192.0.2.10/v1', 'http://10.0.0.1', 'http://0.0.0.0', 'http://[2001:db8::1]', 'http://localhost.example.com', 'http://127.0.0.1.example.com', 'http://models.example.org']) {
    assert.equal(isLoopbackHost(new URL(url).hostname), false, url);
  }
});

test('plain http to another machine is refused, naming the endpoint and the fix', () => {
  assert.throws(
    () => checkEndpointTransport(new URL('http://192.0.2.10:8080/v1/chat/completions'), { allowInsecure: false, hasApiKey: false }),
    (error: unknown) =>
      error instanceof ProviderError &&
      /http:\/\/192\.0\.2\.10:8080/.test(error.message) &&
      /https:\/\//.test(error.message) &&
      /--allow-insecure-endpoint/.test(error.message) &&
      /RELATA_LLM_ALLOW_INSECURE=1/.test(error.message) &&
      /relata\.answers\.allowInsecureEndpoint/.test(error.message),
  );
  assert.doesNotThrow(() => checkEndpointTransport(new URL('http://192.0.2.10/v1'), { allowInsecure: true, hasApiKey: false }));
});

test('an API key is never sent over plain http to another machine, even with the opt-in', () => {
  for (const allowInsecure of [false, true]) {
    assert.throws(
      () => checkEndpointTransport(new URL('http://192.0.2.10/v1'), { allowInsecure, hasApiKey: true }),
      (error: unknown) => error instanceof ProviderError && /API key/.test(error.message) && /RELATA_LLM_API_KEY/.test(error.message) && /https:\/\/192\.0\.2\.10/.test(error.message),
    );
  }
});

test('https anywhere, and http on this machine, are allowed, with or without a key', () => {
  for (const url of ['https://models.example.org/v1', 'https://192.0.2.10/v1', 'http://127.0.0.1:1234/v1', 'http://localhost/v1', 'http://[::1]/v1']) {
    assert.doesNotThrow(() => checkEndpointTransport(new URL(url), { allowInsecure: false, hasApiKey: true }), url);
  }
});

test('the check runs when the provider is chosen, before it could connect; opt-in from the flag or the environment', () => {
  const remote = 'http://192.0.2.10/v1';
  assert.throws(() => createProvider(modelSettingsFrom({ endpoint: remote }, {})), ProviderError);
  assert.throws(() => createProvider(modelSettingsFrom({ endpoint: remote }, { RELATA_LLM_ALLOW_INSECURE: '1', RELATA_LLM_API_KEY: 'k' })), /API key/);
  assert.throws(() => createProvider(modelSettingsFrom({}, { RELATA_LLM_ENDPOINT: remote })), ProviderError);
  assert.ok(createProvider(modelSettingsFrom({ endpoint: remote, allowInsecureEndpoint: true }, {})));
  assert.ok(createProvider(modelSettingsFrom({ endpoint: remote }, { RELATA_LLM_ALLOW_INSECURE: '1' })));
  assert.throws(() => createProvider(modelSettingsFrom({ endpoint: remote }, { RELATA_LLM_ALLOW_INSECURE: 'yes please' })), ProviderError, 'only "1" opts in');
});
