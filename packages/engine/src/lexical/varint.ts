// LEB128 varints: 7 bits per byte, low bits first, high bit set on every byte but the last.

/** Bytes of the LEB128 varint of a non-negative value below 2^35. */
export function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** Writes `value` (below 2^32) at `at`; returns the position after it. */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

/** Reads the varint at `at` (below 2^31) into `cursor.value`; returns the position after it. */
export function readVarint(bytes: Uint8Array, at: number, cursor: { value: number }): number {
  let value = bytes[at++]!;
  if (value >= 0x80) {
    value &= 0x7f;
    let shift = 7;
    let byte: number;
    do {
      byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80);
  }
  cursor.value = value;
  return at;
}
