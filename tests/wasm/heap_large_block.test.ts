// One block of 2 GiB or more (issue 23, item 7): engine.upload of 699,050 × 768 float32 (2,147,481,600
// bytes) on a fresh heap used to be out_of_memory "free some data first", because the allocator grows
// the heap by less than 2 GiB at a time (on a fresh module no block above 2^31 − 3,844 bytes could be
// had). It uploads now and reads back; a block larger than the 4 GiB heap can ever give is refused with
// the largest size that works (which then does work, and 64 KiB more does not), and "free some data
// first" only when data is what stands in the way. One module per test: each fills its own heap.
import { describe, expect, it } from 'vitest';
import { createProbeEngine, GpprobeError } from '../../web/src/engine/index.ts';
import { allocateBlock, largestBlock, MAX_HEAP_BYTES } from '../../web/src/engine/heap_block.ts';
import { loadModule } from '../../web/src/engine/load_module.ts';

const ROWS = 699_050,
  COLS = 768;

function refusal(run: () => unknown): GpprobeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GpprobeError);
    return error as GpprobeError;
  }
  throw new Error('expected a GpprobeError');
}

describe('one block of 2 GiB or more', () => {
  it('uploads 699,050 × 768 float32 on a fresh heap and reads its rows back', async () => {
    const engine = await createProbeEngine();
    const data = new Float32Array(ROWS * COLS);
    expect(data.byteLength).toBe(2_147_481_600);
    const marked = [0, 1, 349_525, ROWS - 1];
    for (const row of marked) for (let c = 0; c < COLS; c++) data[row * COLS + c] = row + c / 1024;
    const resident = engine.upload({ data, rows: ROWS, cols: COLS }, 'embeddings');
    try {
      expect(resident.rows).toBe(ROWS);
      const back = resident.gatherRows(marked);
      expect(Array.from(back.data)).toEqual(
        marked.flatMap((row) => Array.from(data.subarray(row * COLS, (row + 1) * COLS))),
      );
      expect(Array.from(resident.gatherRows([2]).data).every((v) => v === 0)).toBe(true);
    } finally {
      resident.dispose();
    }
  });

  it('refuses a block larger than the heap can give with the largest that works, which does', async () => {
    const module = await loadModule();
    const error = refusal(() => allocateBlock(module, MAX_HEAP_BYTES - 2 ** 16, 'a huge matrix'));
    expect(error.code).toBe('out_of_memory');
    const match =
      /^cannot allocate 4\.0 GB in the wasm heap for a huge matrix: one block can be at most \d\.\d GB \((\d+) bytes\): the heap holds 4\.0 GB at most, less the module's own memory$/.exec(
        error.message,
      );
    expect(match, error.message).not.toBeNull();
    const largest = Number(match![1]);
    // Nearly all of the 4 GiB: the module's own memory is a few MB.
    expect(largest).toBeGreaterThan(MAX_HEAP_BYTES - 64 * 2 ** 20);
    expect(largest % 2 ** 16).toBe(0);
    const pointer = allocateBlock(module, largest, 'the largest block');
    expect(pointer).toBeGreaterThan(0);
    module._free(pointer);
    expect(() => allocateBlock(module, largest + 2 ** 16, 'one more unit')).toThrow(
      /^cannot allocate .* for one more unit: one block can be at most /,
    );
    expect(largestBlock(module)).toBe(largest); // nothing leaked by the refusals
  });

  it('says "free some data first" when data in the heap is what stands in the way', async () => {
    const module = await loadModule();
    const held = allocateBlock(module, 2 ** 31, 'held data'); // 2 GiB in one block: needs the growth too
    const error = refusal(() => allocateBlock(module, 2 ** 31 + 2 ** 30, 'a second matrix'));
    expect(error.code).toBe('out_of_memory');
    const match =
      /^cannot allocate 3\.0 GB in the wasm heap for a second matrix: the largest free block is \d\.\d GB \((\d+) bytes\) now, of a heap that holds 4\.0 GB at most; free some data first$/.exec(
        error.message,
      );
    expect(match, error.message).not.toBeNull();
    const largest = Number(match![1]);
    expect(largest).toBeLessThan(2 ** 31);
    expect(largest).toBeGreaterThan(2 ** 31 - 64 * 2 ** 20);
    module._free(held);
    const again = allocateBlock(module, 2 ** 31 + 2 ** 30, 'a second matrix'); // room once the data is freed
    module._free(again);
  });
});
