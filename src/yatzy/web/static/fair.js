// Provably fair dice, checked in the browser: Python's random.Random(seed) (MT19937 seeded by
// init_by_array with the seed's 32-bit words, randint(1, 6) as 1 + _randbelow(6) through
// getrandbits(3) with rejection), SHA-256, and the check of a revealed game: the commitment
// is sha256(salt + ":" + seed) and every roll of the log is what the seed gives, in order
// (the roll-off first, checked against the reveal's roll_off_rounds, then each roll's new dice).
// Seeds are 63-bit: read them as BigInt.

const N = 624;
const M = 397;

export class PyRandom {
  /** random.Random(seed) for a whole number seed (BigInt, number or decimal string). */
  constructor(seed) {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key = [];
    while (n > 0n) {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (!key.length) key.push(0);
    this.mt = new Uint32Array(N);
    this.initByArray(key);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
    }
    this.mti = N;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k; k--) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(x, 1664525)) >>> 0) + key[j] + j;
      i++;
      j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k; k--) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(x, 1566083941)) >>> 0) - i;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output (genrand_uint32). */
  next32() {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      const mag = (y) => (y & 1 ? 0x9908b0df : 0);
      for (; kk < N - M; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ mag(y);
      }
      for (; kk < N - 1; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ mag(y);
      }
      const y = (mt[N - 1] & 0x80000000) | (mt[0] & 0x7fffffff);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ mag(y);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** getrandbits(k) for 1 <= k <= 32. */
  getrandbits(k) {
    return this.next32() >>> (32 - k);
  }

  /** _randbelow(n) for 1 <= n < 2**32: getrandbits(n.bit_length()) until below n. */
  randbelow(n) {
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  randint(a, b) {
    return a + this.randbelow(b - a + 1);
  }
}

// ---- SHA-256 (in JS: crypto.subtle is missing outside a secure context, e.g. over a LAN) ----

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The SHA-256 of a text's UTF-8 bytes, as 64 hex digits. */
export function sha256hex(text) {
  const bytes = new TextEncoder().encode(text);
  const bits = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(off + 4 * t);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
}

// ---- the check of a revealed game ----

/** A reveal (the JSON text of the reveal message or of /verify) with its seeds as BigInt:
 * a 63-bit seed does not fit a JS number, so it is read from the text itself. */
export function parseReveal(text) {
  const seeds = [...text.matchAll(/"seed"\s*:\s*(-?\d+)/g)].map((m) => BigInt(m[1]));
  const data = JSON.parse(text);
  data.seed = seeds[0];
  if (data.game && typeof data.game === "object") data.game.seed = seeds.length > 1 ? seeds[1] : undefined;
  return data;
}

const sorted = (dice) => [...dice].sort((x, y) => x - y);

/** Check a revealed game. Returns {ok, rolls, reason, detail}: reason is "commitment" (the hash
 * does not match seed and salt), "seed" (the game was played with another seed), "roll_off" (the
 * revealed roll-off is not the seed's: detail {round}), "dice" (a roll
 * does not follow from the seed: detail {number, shown, drawn}) or "format"; null when ok. */
export function checkReveal(data) {
  const game = data.game;
  if (typeof data.seed !== "bigint" || typeof data.salt !== "string" || !game || !Array.isArray(game.log)) {
    return { ok: false, rolls: 0, reason: "format", detail: null };
  }
  if (sha256hex(`${data.salt}:${data.seed}`) !== String(data.commitment).toLowerCase()) {
    return { ok: false, rolls: 0, reason: "commitment", detail: null };
  }
  if (game.seed !== data.seed) return { ok: false, rolls: 0, reason: "seed", detail: null };
  if ((game.dice_from || "server") !== "server") return { ok: false, rolls: 0, reason: "format", detail: null };
  const rng = new PyRandom(data.seed);
  const seats = (game.seats || []).length;
  const rounds = []; // the roll-off as the seed draws it: each round's [seat, die] pairs
  if (game.roll_off && seats > 1) {
    let rolling = [...Array(seats).keys()];
    while (rolling.length > 1) {
      const dice = rolling.map(() => rng.randint(1, 6));
      rounds.push(rolling.map((seat, i) => [seat, dice[i]]));
      const top = Math.max(...dice);
      rolling = rolling.filter((_, i) => dice[i] === top);
    }
  }
  if (data.roll_off_rounds !== undefined) { // a reveal that shows its roll-off: it must be the seed's
    const shown = Array.isArray(data.roll_off_rounds) ? data.roll_off_rounds : null;
    if (!shown) return { ok: false, rolls: 0, reason: "format", detail: null };
    for (let r = 0; r < Math.max(shown.length, rounds.length); r++) {
      if (JSON.stringify(shown[r] || []) !== JSON.stringify(rounds[r] || [])) {
        return { ok: false, rolls: 0, reason: "roll_off", detail: { round: r + 1 } };
      }
    }
  }
  let rolls = 0;
  for (const [index, action] of game.log.entries()) {
    if (!action.roll) continue;
    const shown = sorted(action.roll.result || []);
    const drawn = sorted(shown.map(() => rng.randint(1, 6)));
    rolls++;
    if (drawn.join() !== shown.join()) {
      return { ok: false, rolls, reason: "dice", detail: { number: index + 1, shown, drawn } };
    }
  }
  return { ok: true, rolls, reason: null, detail: null };
}

/** parseReveal then checkReveal. */
export function verifyRevealText(text) {
  try {
    return checkReveal(parseReveal(text));
  } catch (e) {
    return { ok: false, rolls: 0, reason: "format", detail: String(e) };
  }
}
