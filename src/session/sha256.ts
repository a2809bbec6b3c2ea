/**
 * SHA-256 fed in pieces (FIPS 180-4). `crypto.subtle.digest` takes the whole input at once, so
 * hashing a tree through it means holding every file of the tree together; this one holds 64
 * bytes of state, and the tree hash reads one file at a time (tree.ts). Its digests are
 * SHA-256's, checked against `crypto.subtle` (tests/session/sha256.test.ts).
 */

/** The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** An incremental SHA-256: `update` any number of times, then `digest` once. */
export class Sha256 {
  readonly #h = new Int32Array(H0);
  readonly #w = new Int32Array(64);
  /** The bytes of a block not yet complete. */
  readonly #block = new Uint8Array(64);
  #filled = 0;
  /** Bytes fed in all (a double: exact past 2^32, as files of several GiB need). */
  #length = 0;
  #done = false;

  /** Feeds `data`; returns this, so calls chain. */
  update(data: Uint8Array): this {
    if (this.#done) throw new Error('Sha256.update after digest: make a new Sha256 for another input');
    this.#length += data.length;
    let at = 0;
    if (this.#filled > 0) {
      const take = Math.min(64 - this.#filled, data.length);
      this.#block.set(data.subarray(0, take), this.#filled);
      this.#filled += take;
      at = take;
      if (this.#filled < 64) return this;
      compress(this.#h, this.#w, this.#block, 0);
      this.#filled = 0;
    }
    for (; at + 64 <= data.length; at += 64) compress(this.#h, this.#w, data, at);
    this.#block.set(data.subarray(at), 0);
    this.#filled = data.length - at;
    return this;
  }

  /** The 32-byte digest of everything fed. */
  digest(): Uint8Array {
    if (this.#done) throw new Error('Sha256.digest called twice: make a new Sha256 for another input');
    const bits = this.#length * 8;
    const pad = new Uint8Array((this.#filled < 56 ? 64 : 128) - this.#filled);
    pad[0] = 0x80;
    const view = new DataView(pad.buffer);
    view.setUint32(pad.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(pad.length - 4, bits >>> 0);
    this.update(pad);
    this.#done = true;
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) outView.setInt32(i * 4, this.#h[i]!);
    return out;
  }
}

/** One 64-byte block of `data` at `at` into the state `h` (`w`: the message schedule's scratch). */
function compress(h: Int32Array, w: Int32Array, data: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = (data[j]! << 24) | (data[j + 1]! << 16) | (data[j + 2]! << 8) | data[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}
