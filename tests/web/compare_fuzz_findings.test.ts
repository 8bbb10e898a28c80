// Findings of the browser fuzz loop on the Compare lab's readers and link parameters
// (tests/fuzz/browser: targets safetensors_matrices, link_compare_params), each refused now with a
// clear message: a .safetensors tensor holding NaN or Inf (F32 read in place, or F64/F16 through the
// whole-file reader) is refused naming the file, the tensor and the element; hand-typed compare=
// parameters beyond the link schema's limits are reported as problems and the Compare link they give
// is one the link schema accepts (so the link the page writes opens again).
import { describe, expect, it } from 'vitest';
import { safetensorsMatrices } from '../../web/src/io/multi_arrays.ts';
import { paramsLink } from '../../web/src/app/link_params.ts';
import { compareLink } from '../../web/src/labs/compare/state/compare_link.ts';
import { decodeLink, encodeLink } from '../../web/src/app/share_link.ts';
import { DEFAULT_SESSION } from '../../web/src/common/state/session.ts';
import { blob, safetensorsBytes } from './fixtures.ts';

describe('a .safetensors read tensor by tensor refuses non-finite values', () => {
  it('an F32 tensor (read in place) with NaN, naming the file, the tensor and the element', async () => {
    const st = safetensorsBytes({ a: { dtype: 'F32', shape: [3, 2], data: Float32Array.from([1, 2, 3, NaN, 5, 6]) } });
    await expect(safetensorsMatrices(blob(st), 'm.safetensors')).rejects.toThrow(
      "m.safetensors: tensor 'a' element [1, 1] is NaN",
    );
  });

  it('an F64 tensor with -Inf and an F16 tensor with +Inf (through the whole-file reader)', async () => {
    const f64 = safetensorsBytes({
      ok: { dtype: 'F32', shape: [2, 2], data: Float32Array.from([1, 2, 3, 4]) },
      h: { dtype: 'F64', shape: [2, 2], data: Float64Array.from([0, -Infinity, 1, 2]) },
    });
    await expect(safetensorsMatrices(blob(f64), 'h.safetensors')).rejects.toThrow(
      "h.safetensors: tensor 'h' element [0, 1] is -Inf",
    );
    // F16 0x7c00 is +Inf.
    const f16 = safetensorsBytes({
      g: { dtype: 'F16', shape: [2, 2], data: Uint16Array.from([0x3c00, 0x4000, 0x3c00, 0x7c00]) },
    });
    await expect(safetensorsMatrices(blob(f16), 'g.safetensors')).rejects.toThrow(
      "g.safetensors: tensor 'g' element [1, 1] is +Inf",
    );
  });

  it('still reads finite tensors of every dtype it reads', async () => {
    const st = safetensorsBytes({
      a: { dtype: 'F32', shape: [2, 2], data: Float32Array.from([1, 2, 3, 4]) },
      g: { dtype: 'F16', shape: [2, 2], data: Uint16Array.from([0x3c00, 0x4000, 0xbc00, 0x3800]) },
    });
    const arrays = await safetensorsMatrices(blob(st), 'm.safetensors');
    expect(arrays.map((a) => [a.name, ...a.shape, ...Array.from(a.data)])).toEqual([
      ['a', 2, 2, 1, 2, 3, 4],
      ['g', 2, 2, 1, 2, -1, 0.5],
    ]);
  });
});

describe('hand-typed compare= parameters are held to the link schema', () => {
  const base = 'https://app.example/gp/';
  const reopen = (compare: NonNullable<ReturnType<typeof paramsLink>>['link']['compare']) =>
    decodeLink(
      `#${encodeLink({ session: DEFAULT_SESSION, drawn: true, view: { tab: 'compare', colorBy: 'judgedProbability', selected: null }, compare })}`,
    )!.compare;

  it('more than 64 URLs: the first 64 are read and the rest reported', () => {
    const p = paramsLink(
      new URLSearchParams(Array.from({ length: 70 }, (_, i) => `compare=l${i}.npy`).join('&')),
      base,
    )!;
    expect(p.notes).toEqual(['compare= is given 70 URLs; gpprobe compares at most 64 (the first 64 are read)']);
    const c = p.link.compare!;
    expect(c.sources).toEqual({
      kind: 'urls',
      urls: Array.from({ length: 64 }, (_, i) => `https://app.example/gp/l${i}.npy`),
    });
    expect(reopen(c)).toEqual(c);
  });

  it("a compare-concepts column name longer than 4,096 characters is reported and the session's concepts compared", () => {
    const p = paramsLink(new URLSearchParams(`compare=layers-demo&compare-concepts=${'c'.repeat(4097)}`), base)!;
    expect(p.notes).toEqual([
      "compare-concepts= is a column name of 4,097 characters; gpprobe reads at most 4,096 (the session's concepts are compared)",
    ]);
    expect(p.link.compare!.concepts).toEqual({ kind: 'session' });
    expect(compareLink(p.link.compare, 'compare')).toEqual(p.link.compare);
  });

  it('a compare URL longer than 8,192 characters is reported and left out', () => {
    const long = `https://x.example/${'a'.repeat(8200)}.npy`;
    const p = paramsLink(new URLSearchParams(`compare=${long}&compare=b.npy`), base)!;
    expect(p.notes).toEqual([
      `compare=https://x.example/aaaaaaaaaaaaaaaaaaaaaa… is a URL of 8,222 characters; gpprobe reads at most 8,192`,
    ]);
    expect(p.link.compare!.sources).toEqual({ kind: 'urls', urls: ['https://app.example/gp/b.npy'] });
    expect(reopen(p.link.compare)).toEqual(p.link.compare);
  });
});
