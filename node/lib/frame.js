/* frame.js -- find where one msgpack object ends in a byte stream.
 *
 * The wire has no framing: a message ends where its msgpack object ends.
 * objectEnd() walks the headers of the object that starts at `start` without
 * decoding anything, so the client knows when a whole message has arrived
 * and can bound it first: a message whose headers announce more than
 * `maxSize` bytes (a forged array32 of 4 billion elements, say) or nest
 * deeper than `maxDepth` is refused before any of it is decoded.  The same
 * idea as proto/mpscan.c on the C side.
 */
'use strict';

/* Header bytes and payload length of the type byte `b` whose fixed part
 * starts at buf[pos]: returns [headerSize, payloadBytes, children] or null
 * when the header itself has not fully arrived.  Throws on 0xc1. */
function header(buf, pos) {
    const b = buf[pos];
    const avail = buf.length - pos;
    const need = (n) => avail >= n;
    const u8 = () => buf[pos + 1];
    const u16 = () => buf.readUInt16BE(pos + 1);
    const u32 = () => buf.readUInt32BE(pos + 1);

    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return [1, 0, 0];
    if (b <= 0x8f) return [1, 0, 2 * (b & 0x0f)]; // fixmap
    if (b <= 0x9f) return [1, 0, b & 0x0f]; // fixarray
    if (b <= 0xbf) return [1, b & 0x1f, 0]; // fixstr
    switch (b) {
        case 0xc1:
            throw new RangeError('the reserved byte 0xc1');
        case 0xc4: // bin8
        case 0xd9: // str8
            return need(2) ? [2, u8(), 0] : null;
        case 0xc5: // bin16
        case 0xda: // str16
            return need(3) ? [3, u16(), 0] : null;
        case 0xc6: // bin32
        case 0xdb: // str32
            return need(5) ? [5, u32(), 0] : null;
        case 0xc7: // ext8: length, type, data
            return need(2) ? [3, u8(), 0] : null;
        case 0xc8: // ext16
            return need(3) ? [4, u16(), 0] : null;
        case 0xc9: // ext32
            return need(5) ? [6, u32(), 0] : null;
        case 0xca: // float32
            return [5, 0, 0];
        case 0xcb: // float64
            return [9, 0, 0];
        case 0xcc: // uint8
        case 0xd0: // int8
            return [2, 0, 0];
        case 0xcd:
        case 0xd1:
            return [3, 0, 0];
        case 0xce:
        case 0xd2:
            return [5, 0, 0];
        case 0xcf:
        case 0xd3:
            return [9, 0, 0];
        case 0xd4: // fixext 1, 2, 4, 8, 16: type byte and data
            return [3, 0, 0];
        case 0xd5:
            return [4, 0, 0];
        case 0xd6:
            return [6, 0, 0];
        case 0xd7:
            return [10, 0, 0];
        case 0xd8:
            return [18, 0, 0];
        case 0xdc: // array16
            return need(3) ? [3, 0, u16()] : null;
        case 0xdd: // array32
            return need(5) ? [5, 0, u32()] : null;
        case 0xde: // map16
            return need(3) ? [3, 0, 2 * u16()] : null;
        default: // 0xdf, map32
            return need(5) ? [5, 0, 2 * u32()] : null;
    }
}

/* The offset just past the msgpack object that starts at buf[start], or -1
 * when it has not all arrived yet.  Throws a RangeError (with the reason)
 * for bytes that are not msgpack, an object over maxSize bytes, or nesting
 * deeper than maxDepth; the stream cannot be resynchronised after that. */
function objectEnd(buf, start, maxSize, maxDepth) {
    const stack = []; // items still owed by each enclosing container
    let owed = 1; // items still owed at the current level
    let pos = start;

    for (;;) {
        while (owed === 0) {
            if (stack.length === 0) return pos;
            owed = stack.pop();
        }
        if (pos >= buf.length) return -1;
        const h = header(buf, pos);
        if (h === null) return -1;
        const [size, payload, children] = h;
        owed--;
        pos += size + payload;
        // Every child takes at least one byte: a count beyond the bytes
        // left under the limit is refused before waiting for them.
        if (pos - start + children > maxSize)
            throw new RangeError(`a message over ${maxSize} bytes`);
        if (children > 0) {
            if (stack.length + 1 > maxDepth)
                throw new RangeError(`nesting deeper than ${maxDepth} levels`);
            stack.push(owed);
            owed = children;
        }
        if (pos > buf.length) return -1;
    }
}

module.exports = { objectEnd };
