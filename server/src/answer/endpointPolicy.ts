// Where the passages, and an API key, may be sent. An OpenAI-compatible endpoint receives the
// retrieved passages; over plain http to another machine anyone on the network path can read
// them, and a bearer token with them. So plain http is allowed only to this machine (loopback)
// unless the user opts in, and an API key is never sent over plain http off the machine, opt-in
// or not. The check is made on the URL alone, before any connection is opened.

import { isIPv4 } from 'node:net';
import { ProviderError } from './provider.ts';

const OPT_IN = '--allow-insecure-endpoint (RELATA_LLM_ALLOW_INSECURE=1; in the editor, the user setting relata.answers.allowInsecureEndpoint)';

/**
 * localhost, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address). A URL's hostname is already
 * normalised: "127.1" and "2130706433" arrive as "127.0.0.1", IPv6 in brackets and lower case.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIPv4(host)) return host.startsWith('127.');
  return host === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host) || /^::ffff:127\./.test(host);
}

export interface TransportOptions {
  /** The user opted in to plain http off this machine. */
  allowInsecure: boolean;
  /** An API key would be sent as a bearer token. */
  hasApiKey: boolean;
}

/** Throws ProviderError, naming the endpoint and the fix, when sending to `url` would expose the passages or the key. */
export function checkEndpointTransport(url: URL, { allowInsecure, hasApiKey }: TransportOptions): void {
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
  const secure = `https://${url.host}${url.pathname}`;
  if (hasApiKey) {
    throw new ProviderError(
      `refusing to send the API key (RELATA_LLM_API_KEY) over plain http to ${url.origin}, which is not this machine: ` +
        `anyone on the network could read it. Use ${secure}; the opt-in for insecure endpoints never covers an API key.`,
    );
  }
  if (!allowInsecure) {
    throw new ProviderError(
      `refusing to send passages over plain http to ${url.origin}, which is not this machine: anyone on the network could read them. ` +
        `Use https:// (${secure}), run the model server on this machine, or, if the network is trusted, opt in with ${OPT_IN}.`,
    );
  }
}
