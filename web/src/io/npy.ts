// NumPy .npy arrays (versions 1-3): "\x93NUMPY", header length, a Python-dict header
// {'descr': '<f4', 'fortran_order': False, 'shape': (n, d)}, then the raw data.
// Accepts float16/32/64, signed/unsigned integers and bool, either byte order, C or Fortran order.
import { float16 } from './arrays.ts';
import { FileError } from './table.ts';

export interface NpyArray {
  shape: number[];
  /** Values in C order: float32 files stay float32; every other dtype is widened to float64. */
  data: Float32Array | Float64Array;
  descr: string;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

export function isNpy(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && MAGIC.every((b, i) => bytes[i] === b);
}

/** What a .npy header says, checked against the file's length: where the data starts and how it is laid out. */
export interface NpyLayout {
  shape: number[];
  descr: string;
  kind: string;
  itemsize: number;
  little: boolean;
  fortran: boolean;
  count: number;
  dataStart: number;
}

/**
 * Reads and checks the header at the start of `head` for a file of `fileLength` bytes: magic, version,
 * dtype, shape, and that the file holds the data the header promises. Needs only the first bytes, so a
 * large file that is not a .npy is refused before its body is read.
 */
export function npyLayout(head: Uint8Array, fileLength: number, fileName: string): NpyLayout {
  if (fileLength === 0) throw new FileError(fileName, 'file is empty');
  if (!isNpy(head) || head.length < 10) throw new FileError(fileName, 'not a .npy file (missing the \\x93NUMPY magic)');
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const major = head[6];
  let headerLength: number, headerStart: number;
  if (major === 1) [headerLength, headerStart] = [view.getUint16(8, true), 10];
  else if (major === 2 || major === 3) {
    if (head.length < 12) throw new FileError(fileName, 'truncated .npy header');
    [headerLength, headerStart] = [view.getUint32(8, true), 12];
  } else throw new FileError(fileName, `unsupported .npy version ${major}`);
  if (headerStart + headerLength > Math.min(head.length, fileLength))
    throw new FileError(fileName, 'truncated .npy header');
  const header = new TextDecoder('latin1').decode(head.subarray(headerStart, headerStart + headerLength));

  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) {
    throw new FileError(fileName, 'the .npy header is missing descr, fortran_order or shape');
  }
  const shape = shapeOf(shapeText, fileName);
  const match = /^([<>|=])([fiub])(\d+)$/.exec(descr);
  const supported =
    match &&
    ((match[2] === 'f' && ['2', '4', '8'].includes(match[3])) ||
      (match[2] === 'b' && match[3] === '1') ||
      ((match[2] === 'i' || match[2] === 'u') && ['1', '2', '4', '8'].includes(match[3])));
  if (!match || !supported) throw new FileError(fileName, `unsupported dtype '${descr}'`);
  const itemsize = Number(match[3]);
  const dataStart = headerStart + headerLength;
  // Checked against the file's size before anything is allocated, stopping as soon as the product passes it.
  const available = fileLength - dataStart;
  // A 0-d array (shape ()) holds one value: its bytes are checked as well.
  let count = 1;
  for (const n of [...shape, 1]) {
    count *= n;
    if (count * itemsize > available) {
      throw new FileError(
        fileName,
        `truncated: the header promises ${shape.reduce((a, b) => a * b, itemsize)} bytes of data, the file holds ${available}`,
      );
    }
  }
  return {
    shape,
    descr,
    kind: match[2],
    itemsize,
    little: match[1] !== '>',
    fortran: fortran === 'True',
    count,
    dataStart,
  };
}

export function parseNpy(buffer: ArrayBuffer | Uint8Array, fileName: string): NpyArray {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  const { shape, descr, kind, itemsize, little, fortran, count, dataStart } = npyLayout(bytes, bytes.length, fileName);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  const read = (k: number): number => {
    const at = dataStart + k * itemsize;
    switch (kind) {
      case 'f':
        return itemsize === 2
          ? float16(view.getUint16(at, little))
          : itemsize === 4
            ? view.getFloat32(at, little)
            : view.getFloat64(at, little);
      case 'b':
        return bytes[at] ? 1 : 0;
      case 'i':
        return itemsize === 1
          ? view.getInt8(at)
          : itemsize === 2
            ? view.getInt16(at, little)
            : itemsize === 4
              ? view.getInt32(at, little)
              : Number(view.getBigInt64(at, little));
      default:
        return itemsize === 1
          ? bytes[at]
          : itemsize === 2
            ? view.getUint16(at, little)
            : itemsize === 4
              ? view.getUint32(at, little)
              : Number(view.getBigUint64(at, little));
    }
  };
  // Fortran order: element k in C order sits at the column-major position of its index.
  const strides = fortran ? columnMajorStrides(shape) : null;
  const sourceIndex = (k: number): number => {
    if (!strides) return k;
    let rest = k,
      offset = 0;
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      offset += (rest % shape[axis]) * strides[axis];
      rest = Math.floor(rest / shape[axis]);
    }
    return offset;
  };
  if (kind === 'f' && itemsize === 4) {
    const float32 = new Float32Array(count);
    if (!strides && little && (bytes.byteOffset + dataStart) % 4 === 0)
      float32.set(new Float32Array(bytes.buffer, bytes.byteOffset + dataStart, count));
    else for (let k = 0; k < count; k++) float32[k] = read(sourceIndex(k));
    return { shape, data: float32, descr };
  }
  const data = new Float64Array(count);
  for (let k = 0; k < count; k++) data[k] = read(sourceIndex(k));
  return { shape, data, descr };
}

/** The dimensions of a header's shape tuple: Python ints only ("", 1.5, True, -1 are named and refused). */
function shapeOf(text: string, fileName: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.length > 1 && items[items.length - 1] === '') items.pop(); // (n,) and (n, d,)
  if (items.length === 1 && items[0] === '') return []; // () is a scalar
  return items.map((item, axis) => {
    const where = `the .npy header's shape (${text.trim()})`;
    if (!/^\d+L?$/.test(item)) {
      throw new FileError(
        fileName,
        `${where} is not a tuple of non-negative integers (dimension ${axis} is ${item || 'empty'})`,
      );
    }
    const n = Number(item.replace(/L$/, ''));
    if (!Number.isSafeInteger(n))
      throw new FileError(fileName, `${where} has dimension ${axis} = ${item}, more values than any file holds`);
    return n;
  });
}

function columnMajorStrides(shape: number[]): number[] {
  const strides: number[] = [];
  let s = 1;
  for (const n of shape) {
    strides.push(s);
    s *= n;
  }
  return strides;
}
