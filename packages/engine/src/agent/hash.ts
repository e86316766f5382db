/**
 * A 64-bit content hash (two 32-bit FNV-1a lanes with different offsets, mixed) as 16 hex digits: model ids and
 * snapshot hashes. Not cryptographic: it names content for reproducibility, it does not protect it.
 */
export class ContentHash {
  private a = 0x811c9dc5;
  private b = 0x050c5d1f;
  private readonly f64 = new Float64Array(1);
  private readonly u32 = new Uint32Array(this.f64.buffer);

  private word(w: number): void {
    this.a = Math.imul(this.a ^ (w & 0xffff), 0x01000193);
    this.a = Math.imul(this.a ^ (w >>> 16), 0x01000193);
    this.b = Math.imul(this.b ^ (w >>> 16), 0x01000193);
    this.b = Math.imul(this.b ^ (w & 0xffff), 0x01000193);
  }

  /** Adds a double's exact bits (NaN hashes as one value) */
  number(x: number): this {
    this.f64[0] = Number.isNaN(x) ? Number.NaN : x;
    this.word(this.u32[0] as number);
    this.word(this.u32[1] as number);
    return this;
  }

  numbers(values: ArrayLike<number>, from = 0, to = values.length): this {
    this.number(to - from);
    for (let i = from; i < to; i++) this.number(values[i] as number);
    return this;
  }

  string(s: string): this {
    this.number(s.length);
    for (let i = 0; i < s.length; i++) this.word(s.charCodeAt(i));
    return this;
  }

  hex(): string {
    // Final avalanche so nearby inputs differ in every digit
    let a = this.a ^ (this.b >>> 15);
    let b = this.b ^ (this.a >>> 13);
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
    a ^= a >>> 16;
    b ^= b >>> 16;
    return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  }
}
