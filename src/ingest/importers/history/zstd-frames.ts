// Follows the frame and block headers of a zstd stream as its bytes go by (without decoding the
// blocks), to tell whether the stream ended where a frame ends: the zstd decompressor of the
// runtime ends a truncated stream silently, which would pass a cut file off as a shorter one.
// Layout per RFC 8878 §3.1: frames (magic, header, blocks, optional checksum) and skippable frames.

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MIN = 0x184d2a50;
const SKIPPABLE_MAX = 0x184d2a5f;
const DICT_ID_BYTES = [0, 1, 2, 4];
const FCS_BYTES = [0, 2, 4, 8];

type State = 'magic' | 'descriptor' | 'header-rest' | 'block-header' | 'skip-size';

export class ZstdFrameWatcher {
  private state: State = 'magic';
  /** Header bytes gathered for the current state. */
  private readonly held = new Uint8Array(16);
  private heldLength = 0;
  /** Bytes the current state needs before it acts. */
  private need = 4;
  /** Content bytes still to pass over (a block, a checksum, a skippable frame). */
  private skip = 0;
  private lastBlock = false;
  private checksum = false;
  private broken = false;

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length && !this.broken) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const n = Math.min(this.need - this.heldLength, chunk.length - i);
      this.held.set(chunk.subarray(i, i + n), this.heldLength);
      this.heldLength += n;
      i += n;
      if (this.heldLength === this.need) this.advance();
    }
  }

  /** Whether the bytes so far end exactly at the end of a frame (and there was at least one). */
  endsCleanly(sawBytes: boolean): boolean {
    return !this.broken && sawBytes && this.state === 'magic' && this.heldLength === 0 && this.skip === 0;
  }

  private expect(state: State, need: number): void {
    this.state = state;
    this.need = need;
    this.heldLength = 0;
  }

  private advance(): void {
    const h = this.held;
    switch (this.state) {
      case 'magic': {
        const magic = (h[0]! | (h[1]! << 8) | (h[2]! << 16) | (h[3]! << 24)) >>> 0;
        if (magic === FRAME_MAGIC) this.expect('descriptor', 1);
        else if (magic >= SKIPPABLE_MIN && magic <= SKIPPABLE_MAX) this.expect('skip-size', 4);
        else this.broken = true; // not zstd: the decompressor reports it
        return;
      }
      case 'descriptor': {
        const d = h[0]!;
        const singleSegment = (d & 0x20) !== 0;
        this.checksum = (d & 0x04) !== 0;
        const fcsFlag = d >> 6;
        const fcs = fcsFlag === 0 && singleSegment ? 1 : FCS_BYTES[fcsFlag]!;
        const rest = (singleSegment ? 0 : 1) + DICT_ID_BYTES[d & 0x03]! + fcs;
        if (rest === 0) this.expect('block-header', 3);
        else this.expect('header-rest', rest);
        return;
      }
      case 'header-rest':
        this.expect('block-header', 3);
        return;
      case 'block-header': {
        const header = h[0]! | (h[1]! << 8) | (h[2]! << 16);
        this.lastBlock = (header & 1) !== 0;
        const type = (header >> 1) & 3;
        const size = header >>> 3;
        if (type === 3) {
          this.broken = true;
          return;
        }
        this.skip = type === 1 ? 1 : size; // an RLE block holds one byte
        if (this.lastBlock) {
          this.skip += this.checksum ? 4 : 0;
          this.expect('magic', 4);
        } else this.expect('block-header', 3);
        return;
      }
      case 'skip-size':
        this.skip = (h[0]! | (h[1]! << 8) | (h[2]! << 16) | (h[3]! << 24)) >>> 0;
        this.expect('magic', 4);
        return;
    }
  }
}
