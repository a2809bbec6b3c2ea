/**
 * Which URLs the web tools may ask for, decided before any byte leaves: http and https only
 * (file:, data:, javascript: and every other scheme refused by name), no credentials in the URL,
 * a host on the `web_domains` allowlist when one is set, and no IP literal of a private address
 * unless `web_allow_private`. Names are resolved and checked by the transport; every redirect
 * target passes this check again.
 */
import type { EngineSettings } from '../settings.ts';
import { isIpLiteral, isPrivateAddress } from './address.ts';

export type UrlCheck =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly text: string; readonly rule: string };

const MAX_URL_CHARS = 4096;

function refuse(rule: string, text: string): UrlCheck {
  return { ok: false, rule, text };
}

/** True when `host` is `domain` or one of its subdomains. */
function underDomain(host: string, domain: string): boolean {
  const d = domain
    .trim()
    .toLowerCase()
    .replace(/^\.+|\.+$/g, '');
  return d !== '' && (host === d || host.endsWith(`.${d}`));
}

/** Checks `text` as a URL the web tools may request under `settings`. */
export function checkUrl(text: string, settings: EngineSettings): UrlCheck {
  if (text.length > MAX_URL_CHARS)
    return refuse('url-length', `the URL is ${text.length} characters long; give one under ${MAX_URL_CHARS}.`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return refuse(
      'url-syntax',
      `${JSON.stringify(text.slice(0, 200))} is not an absolute URL; give one starting with https:// (for example https://example.com/page).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refuse(
      'url-scheme',
      `the ${url.protocol} scheme is not fetched — only http:// and https:// pages are. ` +
        `A file in the workspace is read with ws_read; data:, file: and javascript: URLs are never opened.`,
    );
  }
  if (url.username || url.password)
    return refuse('url-credentials', 'the URL carries a user name or password; give it without credentials.');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const allow = settings.web_domains.filter((d) => d.trim() !== '');
  if (allow.length && !allow.some((d) => underDomain(host, d))) {
    return refuse(
      'url-domain',
      `${host} is not on this session's web_domains allowlist (${allow.join(', ')}); fetch a page from one of those hosts.`,
    );
  }
  if (!settings.web_allow_private && (host === 'localhost' || host.endsWith('.localhost'))) {
    return refuse('private-address', privateText(host, '127.0.0.1'));
  }
  if (!settings.web_allow_private && isIpLiteral(host) && isPrivateAddress(host)) {
    return refuse('private-address', privateText(host, host));
  }
  return { ok: true, url };
}

/** The refusal of a private or loopback address (the transport uses it for resolved names too). */
export function privateText(host: string, address: string): string {
  const at = host === address ? address : `${host} (${address})`;
  return (
    `${at} is a loopback or private-network address, which the web tools do not reach — ` +
    `they read the public web only. A person can allow it with the setting web_allow_private: true.`
  );
}
