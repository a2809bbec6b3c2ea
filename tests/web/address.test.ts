/**
 * Which addresses the web tools treat as private: one row per range, and properties — an IPv4
 * address and each IPv6 form that carries it (mapped, NAT64, 6to4) are judged alike, and every
 * way the URL parser accepts of writing a private IPv4 host is refused by the URL policy.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../support/fast-check-seed.ts';
import { isPrivateAddress, parseIPv4 } from '../../src/engine/web/address.ts';
import { checkUrl } from '../../src/engine/web/url-policy.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';

const ROWS: readonly (readonly [string, boolean])[] = [
  ['127.0.0.1', true],
  ['127.255.1.2', true],
  ['10.1.2.3', true],
  ['172.16.0.1', true],
  ['172.31.255.255', true],
  ['172.32.0.1', false],
  ['192.168.1.1', true],
  ['169.254.169.254', true], // cloud metadata
  ['100.64.0.1', true],
  ['0.0.0.0', true],
  ['224.0.0.1', true],
  ['255.255.255.255', true],
  ['198.18.0.1', true],
  ['8.8.8.8', false],
  ['93.184.216.34', false],
  ['::1', true],
  ['::', true],
  ['[::1]', true],
  ['fe80::1%eth0', true],
  ['fd00::1', true],
  ['fc00::1', true],
  ['ff02::1', true],
  ['2001:db8::1', true],
  ['::ffff:127.0.0.1', true],
  ['::ffff:7f00:1', true],
  ['::ffff:8.8.8.8', false],
  ['64:ff9b::10.0.0.1', true],
  ['2002:c0a8:0101::1', true], // 6to4 of 192.168.1.1
  ['2606:4700:4700::1111', false],
  ['not-an-address', true],
  ['1.2.3', true],
];

describe('isPrivateAddress', () => {
  it.each(ROWS)('%s → private %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
  const hex = (n: number) => n.toString(16);

  it('judges an IPv4 address and every IPv6 form carrying it alike', () => {
    fc.assert(
      fc.property(v4, (a) => {
        const n = parseIPv4(a)!;
        const hi = hex(Math.floor(n / 65536));
        const lo = hex(n % 65536);
        const want = isPrivateAddress(a);
        expect(isPrivateAddress(`::ffff:${a}`)).toBe(want);
        expect(isPrivateAddress(`::ffff:${hi}:${lo}`)).toBe(want);
        expect(isPrivateAddress(`64:ff9b::${a}`)).toBe(want);
        expect(isPrivateAddress(`2002:${hi}:${lo}::1`)).toBe(want);
      }),
    );
  });

  it('refuses a private IPv4 host however the URL writes it (decimal, hex, octal, short forms)', () => {
    const privateV4 = v4.filter((a) => isPrivateAddress(a));
    fc.assert(
      fc.property(privateV4, fc.constantFrom('dotted', 'decimal', 'hex', 'octal-first'), (a, form) => {
        const parts = a.split('.').map(Number);
        const n = parseIPv4(a)!;
        const host =
          form === 'dotted'
            ? a
            : form === 'decimal'
              ? String(n)
              : form === 'hex'
                ? `0x${hex(n)}`
                : [`0${parts[0]!.toString(8)}`, ...parts.slice(1)].join('.');
        const checked = checkUrl(`http://${host}/x`, DEFAULT_SETTINGS);
        expect(checked.ok).toBe(false);
        if (!checked.ok) expect(checked.rule).toBe('private-address');
      }),
    );
  });
});
